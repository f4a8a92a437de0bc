import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { UseIonRouterResult } from '@ionic/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../api/api-client.ts';
import type { WorkspaceAccess } from '../workspaces/use-workspace-service.ts';
import type {
  MemberView,
  WorkspaceService,
  WorkspaceView,
} from '../workspaces/workspace-service.ts';
import { WorkspaceScreen } from './workspace-screen.tsx';
import { WorkspacesScreen } from './workspaces-screen.tsx';

// The workspace screens in their states. The service (keys, crypto, server) is the boundary
// replaced here: its own tests run the real crypto; the e2e spec runs the whole.

const made: { access: WorkspaceAccess; push: ReturnType<typeof vi.fn> } = vi.hoisted(() => ({
  access: { status: 'loading' },
  push: vi.fn(),
}));
vi.mock('../workspaces/use-workspace-service.ts', () => ({
  useWorkspaceService: () => made.access,
}));
vi.mock(import('@ionic/react'), async (original) => ({
  ...(await original()),
  useIonRouter: () => ({ push: made.push }) as Partial<UseIonRouterResult> as UseIonRouterResult,
}));
vi.mock('../layout/page-header.tsx', () => ({ PageHeader: () => null }));
vi.mock('../ui/text-field.tsx', () => ({
  TextField: ({
    label,
    value,
    onChange,
  }: {
    label: string;
    value: string;
    onChange: (value: string) => void;
  }) => (
    <label>
      {label}
      <input
        value={value}
        onChange={(event) => {
          onChange(event.currentTarget.value);
        }}
      />
    </label>
  ),
}));

const FINGERPRINT = 'abandon-ability-able-about-above-absent';
const THEIRS = 'zoo-zone-youth-young-wrong-write';

const team: WorkspaceView = {
  id: '6f1c2d4e-1111-4a2b-8c3d-000000000001',
  name: 'Health team',
  role: 'owner',
  status: 'confirmed',
  waiting: false,
  keyVersion: 1,
  rotationDue: false,
  ownerWaiting: false,
};
const accepted: WorkspaceView = {
  id: '6f1c2d4e-1111-4a2b-8c3d-000000000002',
  name: null,
  role: 'viewer',
  status: 'accepted',
  waiting: true,
  keyVersion: 1,
  rotationDue: false,
  ownerWaiting: false,
};
const members: MemberView[] = [
  {
    userId: 'me',
    email: 'ana@example.org',
    displayName: 'Ana',
    role: 'owner',
    status: 'confirmed',
    publicKey: 'AA==',
    fingerprint: FINGERPRINT,
    isMe: true,
    keyCheck: null,
  },
  {
    userId: 'bo',
    email: 'bo@example.org',
    displayName: null,
    role: 'editor',
    status: 'accepted',
    publicKey: 'AQ==',
    fingerprint: THEIRS,
    isMe: false,
    keyCheck: null,
  },
];

function fakeService(overrides: Partial<WorkspaceService> = {}): WorkspaceService {
  return {
    userId: 'me',
    myFingerprint: vi.fn(() => Promise.resolve(FINGERPRINT)),
    keyReplacedHere: () => false,
    create: vi.fn((name: string) => Promise.resolve({ ...team, name })),
    list: vi.fn(() => Promise.resolve([team, accepted])),
    invite: vi.fn(() => Promise.reject(new Error('not expected'))),
    withdraw: vi.fn(() => Promise.resolve()),
    invitations: vi.fn(() =>
      Promise.resolve([
        {
          workspaceId: '6f1c2d4e-1111-4a2b-8c3d-000000000003',
          role: 'editor' as const,
          invitedBy: { name: 'Cy', email: 'cy@example.org' },
          invitedAt: '2026-01-01T00:00:00.000Z',
        },
      ]),
    ),
    accept: vi.fn(() => Promise.resolve()),
    decline: vi.fn(() => Promise.resolve()),
    members: vi.fn(() => Promise.resolve({ keyVersion: 1, members })),
    confirm: vi.fn(() => Promise.resolve()),
    confirmAgain: vi.fn(() => Promise.resolve()),
    changeRole: vi.fn(() => Promise.resolve()),
    remove: vi.fn(() => Promise.resolve()),
    leave: vi.fn(() => Promise.resolve()),
    deleteWorkspace: vi.fn(() => Promise.resolve()),
    rotate: vi.fn(() => Promise.resolve()),
    keyring: vi.fn(() => Promise.reject(new Error('not expected'))),
    ...overrides,
  };
}

function ionButton(name: string, within: HTMLElement = document.body): HTMLElement {
  const found = [...within.querySelectorAll('ion-button')].find(
    (button) => button.textContent.trim() === name,
  );
  if (found === undefined) throw new Error(`No button ${name}`);
  return found;
}

function submitOf(name: string) {
  const form = ionButton(name).closest('form');
  if (form === null) throw new Error(`${name} is not in a form`);
  fireEvent.submit(form);
}

function renderWorkspace(id: string) {
  render(
    <MemoryRouter initialEntries={[`/tabs/more/workspaces/${id}`]}>
      <Routes>
        <Route path="/tabs/more/workspaces/:workspaceId" element={<WorkspaceScreen />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  made.push.mockReset();
});
afterEach(cleanup);

describe('WorkspacesScreen', () => {
  it('asks for the cloud password when this device has no cloud keys', () => {
    made.access = { status: 'no-password' };
    render(
      <MemoryRouter>
        <WorkspacesScreen />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Workspaces' })).toBeDefined();
    expect(
      screen.getByText('Enter your cloud password on this device to use workspaces.'),
    ).toBeDefined();
    expect(ionButton('Go to Cloud password').getAttribute('router-link')).toBe('/tabs/more');
    expect(screen.queryByText('Your fingerprint')).toBeNull();
  });

  it('shows my fingerprint, my workspaces with roles, the waiting one, and invitations', async () => {
    const service = fakeService();
    made.access = { status: 'ready', service };
    render(
      <MemoryRouter>
        <WorkspacesScreen />
      </MemoryRouter>,
    );
    const mine = await screen.findByRole('region', { name: 'Your fingerprint' });
    expect(await within(mine).findByRole('definition')).toHaveProperty('textContent', FINGERPRINT);
    const link = await screen.findByRole('link', { name: 'Health team' });
    expect(link.getAttribute('href')).toBe(`/tabs/more/workspaces/${team.id}`);
    expect(link.closest('li')?.textContent).toContain('Owner');
    const waiting = screen.getByRole('link', { name: 'A workspace you accepted' }).closest('li');
    expect(waiting?.textContent).toContain('Waiting for the owner to confirm you');
    expect(await screen.findByText('Cy (cy@example.org) invited you as editor.')).toBeDefined();

    await act(async () => {
      fireEvent.click(ionButton('Accept'));
      await Promise.resolve();
    });
    expect(service.accept).toHaveBeenCalledWith('6f1c2d4e-1111-4a2b-8c3d-000000000003');
    expect(
      await screen.findByText(/You accepted Cy \(cy@example.org\)’s invitation/),
    ).toBeDefined();
    // Read again after the accept.
    expect(service.invitations).toHaveBeenCalledTimes(2);
    expect(service.list).toHaveBeenCalledTimes(2);
  });

  it('asks for a name, then makes the workspace and lists it again', async () => {
    const service = fakeService();
    made.access = { status: 'ready', service };
    render(
      <MemoryRouter>
        <WorkspacesScreen />
      </MemoryRouter>,
    );
    submitOf('New workspace');
    expect((await screen.findByRole('alert')).textContent).toBe('Give the workspace a name.');
    expect(service.create).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' Health team ' } });
    submitOf('New workspace');
    expect(await screen.findByText(/Workspace “Health team” created/)).toBeDefined();
    expect(service.create).toHaveBeenCalledWith('Health team');
  });
});

describe('WorkspaceScreen', () => {
  it('shows an owner the members; Confirm shows the fingerprint before sealing', async () => {
    const service = fakeService();
    made.access = { status: 'ready', service };
    renderWorkspace(team.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'Health team' })).toBeDefined();
    const row = (await screen.findByText('bo@example.org')).closest('li');
    if (row === null) throw new Error('no row');
    expect(row.textContent).toContain('Editor · Accepted, waiting for your confirmation');
    fireEvent.click(ionButton('Confirm', row));
    const group = screen.getByRole('group', { name: 'Confirm bo@example.org' });
    expect(within(group).getByRole('term').textContent).toBe('Fingerprint');
    expect(within(group).getByRole('definition').textContent).toBe(THEIRS);
    expect(document.activeElement).toBe(group);
    expect(service.confirm).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.click(ionButton('The words match: confirm', group));
      await Promise.resolve();
    });
    expect(service.confirm).toHaveBeenCalledWith(team.id, members[1]);
    expect(await screen.findByText(/bo@example.org is confirmed/)).toBeDefined();
    // No Remove member on my own row.
    const me = screen.getByText('Ana (ana@example.org)').closest('li');
    expect(me?.querySelector('ion-button')).toBeNull();
  });

  it('warns of a confirmed member whose key changed, and Confirm again keeps the new key', async () => {
    const changed: MemberView = {
      ...(members[1] as MemberView),
      status: 'confirmed',
      keyCheck: 'differs',
    };
    const service = fakeService({
      members: vi.fn(() =>
        Promise.resolve({ keyVersion: 1, members: [members[0] as MemberView, changed] }),
      ),
    });
    made.access = { status: 'ready', service };
    renderWorkspace(team.id);
    const row = (await screen.findByText('bo@example.org')).closest('li');
    if (row === null) throw new Error('no row');
    expect(row.textContent).toContain(
      'The server now lists another key for this member than the one you confirmed.',
    );
    expect(() => ionButton('Confirm', row)).toThrow('No button Confirm');
    fireEvent.click(ionButton('Confirm again', row));
    const group = screen.getByRole('group', { name: 'Confirm bo@example.org' });
    expect(within(group).getByRole('definition').textContent).toBe(THEIRS);
    await act(async () => {
      fireEvent.click(ionButton('The words match: confirm', group));
      await Promise.resolve();
    });
    expect(service.confirmAgain).toHaveBeenCalledWith(team.id, changed);
    expect(service.confirm).not.toHaveBeenCalled();
    expect(await screen.findByText(/bo@example.org’s key is confirmed again/)).toBeDefined();
  });

  it('changes a member’s role only on Change role, and says so', async () => {
    const service = fakeService();
    made.access = { status: 'ready', service };
    renderWorkspace(team.id);
    const choice = await screen.findByLabelText('Role of bo@example.org');
    expect(screen.queryByLabelText('Role of Ana (ana@example.org)')).toBeNull();
    const row = choice.closest('li');
    if (row === null) throw new Error('no row');
    // Unchanged, there is nothing to send.
    expect(ionButton('Change role', row).hasAttribute('disabled')).toBe(true);
    fireEvent.change(choice, { target: { value: 'viewer' } });
    expect(service.changeRole).not.toHaveBeenCalled();
    expect(ionButton('Change role', row).hasAttribute('disabled')).toBe(false);
    await act(async () => {
      fireEvent.submit(ionButton('Change role', row).closest('form') as HTMLFormElement);
      await Promise.resolve();
    });
    expect(service.changeRole).toHaveBeenCalledWith(team.id, 'bo', 'viewer');
    expect(service.changeRole).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('bo@example.org is now viewer.')).toBeDefined();
  });

  it('Cancel closes Confirm without sealing (focus going back to Confirm: e2e workspaces.spec)', async () => {
    const service = fakeService();
    made.access = { status: 'ready', service };
    renderWorkspace(team.id);
    const row = (await screen.findByText('bo@example.org')).closest('li');
    if (row === null) throw new Error('no row');
    fireEvent.click(ionButton('Confirm', row));
    const group = screen.getByRole('group', { name: 'Confirm bo@example.org' });
    fireEvent.click(ionButton('Cancel', group));
    expect(screen.queryByRole('group', { name: 'Confirm bo@example.org' })).toBeNull();
    expect(ionButton('Confirm', row)).toBeDefined();
    expect(service.confirm).not.toHaveBeenCalled();
  });

  it('shows a refusal in the server’s words and changes nothing', async () => {
    const refused = new ApiRequestError(
      'Only an owner of this workspace can invite people.',
      403,
      'not-owner',
    );
    const service = fakeService({
      list: vi.fn(() => Promise.resolve([{ ...team, role: 'viewer' as const }])),
      invite: vi.fn(() => Promise.reject(refused)),
    });
    made.access = { status: 'ready', service };
    renderWorkspace(team.id);
    expect(await screen.findByRole('heading', { name: 'Leave' })).toBeDefined();
    expect(screen.getByText('Viewer', { selector: 'strong' })).toBeDefined();
    expect(service.members).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'x@example.org' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Owner' }));
    await act(async () => {
      submitOf('Invite');
      await Promise.resolve();
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The invitation was refused: Only an owner of this workspace can invite people.',
    );
    expect(service.invite).toHaveBeenCalledWith(team.id, 'x@example.org', 'owner');
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('x@example.org');
    expect(ionButton('Leave workspace')).toBeDefined();
  });

  it('leaves, then goes back to the list', async () => {
    const service = fakeService({
      list: vi.fn(() => Promise.resolve([{ ...team, role: 'editor' as const }])),
    });
    made.access = { status: 'ready', service };
    renderWorkspace(team.id);
    await screen.findByRole('heading', { name: 'Leave' });
    await act(async () => {
      fireEvent.click(ionButton('Leave workspace'));
      await Promise.resolve();
    });
    expect(service.leave).toHaveBeenCalledWith(team.id);
    expect(made.push).toHaveBeenCalledWith('/tabs/more/workspaces', 'back', 'pop');
  });

  it('says so for a workspace I am not in', async () => {
    made.access = { status: 'ready', service: fakeService() };
    renderWorkspace('6f1c2d4e-1111-4a2b-8c3d-00000000000f');
    expect(await screen.findByText(/You are not a member of this workspace/)).toBeDefined();
  });
});

describe('WorkspaceScreen after an only owner’s cloud-password reset', () => {
  const ownerless: WorkspaceView = { ...team, role: 'editor', ownerWaiting: true };
  const waitingOwner: MemberView = {
    ...(members[1] as MemberView),
    userId: 'ol',
    email: 'ol@example.org',
    role: 'owner',
  };
  const viewerRow: MemberView = {
    ...(members[1] as MemberView),
    userId: 'vi',
    email: 'vi@example.org',
    role: 'viewer',
    status: 'confirmed',
  };
  const me: MemberView = { ...(members[0] as MemberView), role: 'editor' };

  it('shows a confirmed editor the owner to confirm back, and nothing else to manage', async () => {
    const service = fakeService({
      list: vi.fn(() => Promise.resolve([ownerless])),
      members: vi.fn(() =>
        Promise.resolve({ keyVersion: 1, members: [me, waitingOwner, viewerRow] }),
      ),
    });
    made.access = { status: 'ready', service };
    renderWorkspace(team.id);
    expect(await screen.findByText(/No owner holds this workspace’s key/)).toBeDefined();
    const row = (await screen.findByText('ol@example.org')).closest('li');
    if (row === null) throw new Error('no row');
    expect(screen.queryByText('vi@example.org')).toBeNull();
    expect(screen.queryByText('Remove member')).toBeNull();
    expect(screen.queryByText('Change role')).toBeNull();
    fireEvent.click(ionButton('Confirm', row));
    const group = screen.getByRole('group', { name: 'Confirm ol@example.org' });
    expect(within(group).getByRole('definition').textContent).toBe(THEIRS);
    await act(async () => {
      fireEvent.click(ionButton('The words match: confirm', group));
      await Promise.resolve();
    });
    expect(service.confirm).toHaveBeenCalledWith(team.id, waitingOwner);
  });

  it('tells the owner who reset that an editor confirms them back, and the device that made the new key says so', async () => {
    const service = fakeService({
      keyReplacedHere: () => true,
      list: vi.fn(() =>
        Promise.resolve([
          { ...team, name: null, waiting: true, status: 'accepted' as const, ownerWaiting: true },
        ]),
      ),
    });
    made.access = { status: 'ready', service };
    render(
      <MemoryRouter>
        <WorkspacesScreen />
      </MemoryRouter>,
    );
    expect(await screen.findByText(/Docket made you a new key/)).toBeDefined();
    const waiting = (await screen.findByRole('link', { name: 'A workspace you own' })).closest(
      'li',
    );
    expect(waiting?.textContent).toContain('an editor compares your new fingerprint');
  });
});

describe('WorkspaceScreen key rotation', () => {
  it('offers an owner a new key after a member who held it left', async () => {
    const service = fakeService({
      list: vi.fn(() => Promise.resolve([{ ...team, rotationDue: true }])),
    });
    made.access = { status: 'ready', service };
    renderWorkspace(team.id);
    expect(await screen.findByText(/A member who held this workspace’s key left/)).toBeDefined();
    await act(async () => {
      fireEvent.click(ionButton('Make a new key'));
      await Promise.resolve();
    });
    expect(service.rotate).toHaveBeenCalledWith(team.id);
    expect(await screen.findByText(/The workspace has a new key/)).toBeDefined();
  });
});

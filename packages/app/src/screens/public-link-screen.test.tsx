import type { BackupContents, SharedLink } from '@docket/core/backups';
import { finalizeBill } from '@docket/core/bills';
import type { StoredBill } from '@docket/core/store';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PublicLinkScreen } from './public-link-screen.tsx';

// A public link's page, for a reader: a list shared from the Tracked tab reads as that list (its
// name, its bills in its order, what comes with them in words) without the owner's counters of
// each kind ("Datasets 0", "Triage decisions 2"), which no public link shows any more; a
// backup's link still says when it was backed up. The server's answer and the opening of the
// sealed payload are the boundary replaced here.

const opened = vi.hoisted((): { link: unknown } => ({ link: null }));
vi.mock('../public-links/public-links-api.ts', () => ({
  fetchPublicLink: () =>
    Promise.resolve({
      id: LINK_ID,
      ciphertext: 'AAAA',
      createdAt: '2026-03-02T10:00:00.000Z',
      expiresAt: null,
    }),
}));
vi.mock('../backups/backup-actions.ts', () => ({
  openLink: () => Promise.resolve(opened.link),
  restoreContents: vi.fn(),
}));
const services = vi.hoisted(() => ({ api: {} }));
vi.mock('../services/app-services.ts', () => ({ useAppServices: () => services }));
vi.mock('../state/use-app-state.ts', () => ({
  useAppState: <T,>(select: (state: { user: null }) => T) => select({ user: null }),
}));
vi.mock('../layout/page-header.tsx', () => ({ PageHeader: () => null }));

const LINK_ID = '0d6f3c52-9d55-4c4e-8f0c-2f3f1f1b5a01';
const at = '2026-03-01T09:00:00.000Z';

function bill(number: number, title: string): StoredBill {
  const made = finalizeBill({
    source: 'congress-json',
    sourceId: null,
    jurisdiction: 'us',
    session: '119',
    identifier: `H.R. ${number}`,
    title,
    summary: null,
    introducedDate: '2026-01-03',
    status: 'introduced',
    rawStatus: null,
    statusDate: '2026-01-03',
    sponsors: [],
    cosponsors: [],
    subjects: [],
    actions: [],
    texts: [],
    votes: [],
    url: null,
  });
  if (!made.ok) throw new Error(made.reason);
  return { ...made.bill, datasetIds: [] };
}

function contents(): BackupContents {
  // In the list's order: H.R. 9 before H.R. 2.
  const bills = [bill(9, 'Tenant protections'), bill(2, 'Rent stabilization')];
  return {
    format: 'docket-backup',
    version: 1,
    createdAt: at,
    datasets: [],
    tags: [{ id: 't1', name: 'Housing', color: '#112233', createdAt: at, updatedAt: at }],
    billTags: bills.map((row) => ({
      id: `${row.id}|t1`,
      billId: row.id,
      tagId: 't1',
      createdAt: at,
    })),
    positions: [],
    decisions: bills.map((row) => ({ billId: row.id, decision: 'track', decidedAt: at })),
    annotations: [],
    bills,
    clocks: {},
  };
}

function shared(
  kind: SharedLink['kind'],
  name: string,
  workspace: string | null = null,
): SharedLink {
  return {
    kind,
    name,
    description: '',
    workspace,
    backedUpAt: at,
    choices: { dismissedBills: kind === 'list', decisions: true, notes: true },
    contents: contents(),
  };
}

function renderLink() {
  render(
    <MemoryRouter initialEntries={[`/public-link/${LINK_ID}#k=${'A'.repeat(43)}`]}>
      <Routes>
        <Route path="/public-link/:id" element={<PublicLinkScreen />} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe('PublicLinkScreen', () => {
  it("shows a shared list as a list of bills for a reader, without the app's counters", async () => {
    opened.link = shared('list', 'Tracked · Housing');
    renderLink();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Tracked · Housing' }),
    ).toBeDefined();
    expect(screen.getByText('This list holds 2 tracked bills, 1 tag.')).toBeDefined();
    const bills = screen.getByRole('list', { name: 'Bills' });
    // In the list's order, numbered as a list is.
    expect(bills.tagName).toBe('OL');
    expect(
      within(bills)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['H.R. 9: Tenant protections', 'H.R. 2: Rent stabilization']);
    expect(screen.getByRole('list', { name: 'Tags of H.R. 9' }).textContent).toBe('Housing');
    // No counters of each kind, no backup words.
    expect(screen.queryByRole('term')).toBeNull();
    expect(screen.queryByText(/^Datasets/)).toBeNull();
    expect(screen.queryByText(/Triage decisions/)).toBeNull();
    expect(screen.queryByText(/Backed up/)).toBeNull();
    expect(
      screen.getByText(/^Shared .*Read-only: nothing here changes anyone’s data\.$/),
    ).toBeDefined();
    expect(screen.queryByText(/^From /)).toBeNull();
  });

  it('names the team workspace a list was shared from, and no member', async () => {
    opened.link = shared('list', 'Tracked · Housing', 'Health team');
    renderLink();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Tracked · Housing' }),
    ).toBeDefined();
    expect(screen.getByText('From Health team')).toBeDefined();
    expect(document.body.textContent).not.toMatch(/@/);
  });

  it("keeps a backup's link headed by its backup, and without counters too", async () => {
    opened.link = shared('backup', 'Tenant watch');
    renderLink();
    expect(await screen.findByRole('heading', { level: 1, name: 'Tenant watch' })).toBeDefined();
    expect(screen.getByText(/^Backed up$/)).toBeDefined();
    expect(screen.getByText('This link holds 2 tracked bills, 1 tag.')).toBeDefined();
    expect(screen.getByRole('list', { name: 'Bills' }).tagName).toBe('UL');
    expect(screen.queryByRole('term')).toBeNull();
    expect(screen.queryByText(/Triage decisions/)).toBeNull();
  });
});

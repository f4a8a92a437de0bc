import type { WebCryptoPort } from '@docket/core/crypto';
import { createTag, laterBill, setPosition, tagBills, trackBill } from '@docket/core/commands';
import {
  BillCatalog,
  billMarksOf,
  BillSearchIndex,
  type BillListQuery,
  defaultBillListQuery,
} from '@docket/core/lists';
import type { Tag } from '@docket/core/store';
import { storeWithBills } from '@docket/core/test-support/bill-command-harness';
import type { BackupSummary, CreateBackupRequest } from '@docket/protocol/backups';
import type { CreateLinkRequest, LinkSummary } from '@docket/protocol/public-links';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBackupRunner } from '../user-data-worker/backup-runner.ts';
import { ShareList } from './share-list.tsx';

// "Share" on the Tracked tab, from the button to the link: the list's bills (answered by core's
// own list query, as the search worker answers it) become a backup of exactly those bills and a
// public link of it, made by the real backup runner on a memory store; then the platform's share
// sheet gets the link, or, where there is none, the clipboard does and the screen says so. The
// server's two calls, the keys hook, the app's services and Ionic's modal are the boundary
// replaced here; Ionic's toast controller stands in as a plain status element.

const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;

interface Boundary {
  runner: ReturnType<typeof createBackupRunner> | null;
  /** What useBackupKeys gives. */
  keys: { readonly status: string } & Record<string, unknown>;
  uploads: CreateBackupRequest[];
  links: CreateLinkRequest[];
  saveLinkKey: ReturnType<typeof vi.fn>;
  online: boolean;
}

const boundary = vi.hoisted((): Boundary => ({
  runner: null,
  keys: { status: 'loading' },
  uploads: [],
  links: [],
  saveLinkKey: vi.fn(() => Promise.resolve()),
  online: true,
}));

vi.mock('../user-data-worker/user-data-client.ts', () => ({
  userDataWorker: () => boundary.runner,
}));
vi.mock('../backups/backups-api.ts', () => ({
  uploadBackup: (_api: unknown, body: CreateBackupRequest) => {
    boundary.uploads.push(body);
    return Promise.resolve({} as BackupSummary);
  },
}));
vi.mock('../public-links/public-links-api.ts', () => ({
  createLink: (_api: unknown, body: CreateLinkRequest) => {
    boundary.links.push(body);
    return Promise.resolve({} as LinkSummary);
  },
}));
vi.mock('../public-links/link-keys-store.ts', () => ({ saveLinkKey: boundary.saveLinkKey }));
vi.mock('../backups/backup-keys.ts', () => ({ useBackupKeys: () => boundary.keys }));
vi.mock('../state/use-app-state.ts', () => ({
  useAppState: <T,>(select: (state: { online: boolean }) => T) =>
    select({ online: boundary.online }),
}));
// The browser's own sharing (navigator.share, else nothing), as the web platform offers it.
const services = vi.hoisted((): { value: unknown } => ({ value: null }));
vi.mock('../services/app-services.ts', async () => {
  const { webFileSharing } = await import('../platform/web-file-sharing.ts');
  services.value = { api: {}, platform: webFileSharing };
  return { useAppServices: () => services.value };
});
// Ionic's modal as a plain dialog: under jsdom it shows nothing of its own.
vi.mock('../ui/ionic/ion-modal.ts', () => ({
  IonModal: ({
    isOpen,
    children,
    htmlAttributes,
  }: {
    isOpen: boolean;
    children: ReactNode;
    htmlAttributes: { 'aria-label': string };
  }) =>
    isOpen ? (
      <div role="dialog" aria-label={htmlAttributes['aria-label']}>
        {children}
      </div>
    ) : null,
}));
vi.mock('../ui/ionic/overlay-controllers.ts', async () =>
  (await import('../toasts/fake-overlay-controllers.ts')).fakeOverlayControllers(),
);

const HOUSING_TRACKED = 'us/119/hr-1';
const HOUSING_LATER = 'us/119/hr-2';
const UNTAGGED_TRACKED = 'us/119/hr-3';
const HOUSING_SUPPORTED = 'us/119/hr-4';

interface World {
  readonly housing: Tag;
  /** What the Tracked list shows for a query, in its order: core's query, as the worker runs it. */
  readonly listed: (query: BillListQuery) => string[];
  readonly dataKey: CryptoKey;
}

// Bills 1 and 4 tracked and tagged Housing (4 also supported); 2 tagged Housing but set aside
// for Later; 3 tracked without the tag.
async function world(): Promise<World> {
  const { store, context } = await storeWithBills(4);
  const housing = await createTag(context, { name: 'Housing', color: '#cc0000' });
  await trackBill(context, HOUSING_TRACKED);
  await laterBill(context, HOUSING_LATER);
  await trackBill(context, UNTAGGED_TRACKED);
  await trackBill(context, HOUSING_SUPPORTED);
  await tagBills(context, [HOUSING_TRACKED, HOUSING_LATER, HOUSING_SUPPORTED], housing.id);
  await setPosition(context, HOUSING_SUPPORTED, 'support');
  boundary.runner = createBackupRunner(() => Promise.resolve(context));

  const rows = await store.read(['bills', 'decisions', 'billTags', 'positions'], async (tx) => ({
    bills: await tx.all('bills'),
    decisions: await tx.all('decisions'),
    billTags: await tx.all('billTags'),
    positions: await tx.all('positions'),
  }));
  const catalog = new BillCatalog(new BillSearchIndex());
  for (const bill of rows.bills) catalog.put(bill, bill.id);
  catalog.setMarks(billMarksOf(rows.decisions, rows.billTags, rows.positions));
  const listed = (query: BillListQuery) =>
    [...catalog.query(query)]
      .map((doc) => catalog.billId(doc))
      .filter((id): id is string => id !== undefined);

  const dataKey = await webCrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  boundary.keys = {
    status: 'ready',
    userId: 'user-1',
    keys: { keyEpoch: 1, dataKey, keyEncryptionKey: dataKey, material: {} },
  };
  return { housing, listed, dataKey: dataKey as CryptoKey };
}

function renderList(w: World, query: BillListQuery) {
  const ids = w.listed(query);
  render(
    <MemoryRouter initialEntries={['/tabs/tracked']}>
      <ShareList
        query={query}
        total={ids.length}
        allIds={() => Promise.resolve(ids)}
        tags={[w.housing]}
        sponsorName={undefined}
      />
    </MemoryRouter>,
  );
  return ids;
}

/** Share → the sheet; returns it once open. */
async function openSheet(): Promise<HTMLElement> {
  fireEvent.click(screen.getByText('Share', { selector: 'ion-button' }));
  return screen.findByRole('dialog', { name: 'Share this list' });
}

/** "Create link" on the open sheet; resolves with the link it shows once made. */
async function createLink(sheet: HTMLElement): Promise<string> {
  fireEvent.click(within(sheet).getByText('Create link', { selector: 'ion-button' }));
  const field = await within(sheet).findByLabelText('Link', {}, { timeout: 5000 });
  return (field as HTMLInputElement).value;
}

function setNavigator(name: 'share' | 'clipboard', value: unknown) {
  if (value === undefined) Reflect.deleteProperty(navigator, name);
  else Object.defineProperty(navigator, name, { value, configurable: true });
}

beforeEach(() => {
  boundary.uploads.length = 0;
  boundary.links.length = 0;
  boundary.saveLinkKey.mockClear();
  boundary.online = true;
});

afterEach(() => {
  cleanup();
  setNavigator('share', undefined);
  setNavigator('clipboard', undefined);
});

describe('Share on the Tracked tab', () => {
  it('shares exactly the bills the list shows: a tag on Tracked leaves Later and untagged out', async () => {
    const w = await world();
    const query = { ...defaultBillListQuery, tagId: w.housing.id, sort: 'identifier' as const };
    const ids = renderList(w, query);
    expect(ids).toEqual([HOUSING_TRACKED, HOUSING_SUPPORTED]);
    const sheet = await openSheet();
    // What goes, said before anything does.
    expect(within(sheet).getByText('Share 2 bills as a public link')).toBeDefined();
    expect(
      within(sheet).getByText(/^“Tracked · Housing”: the bills this list shows/),
    ).toBeDefined();
    const url = await createLink(sheet);

    // The backup: sealed with the sync data key, holding the list's two bills and nothing else.
    expect(boundary.uploads).toHaveLength(1);
    const [upload] = boundary.uploads;
    if (upload === undefined || boundary.runner === null) throw new Error('Nothing was uploaded');
    const backup = await boundary.runner.openBackup(
      { ...upload, size: 1, createdAt: new Date().toISOString() },
      'user-1',
      w.dataKey,
    );
    if (!backup.ok) throw new Error(backup.message);
    expect(backup.metadata.name).toBe('Tracked · Housing');
    expect(backup.contents.bills.map((bill) => bill.id)).toEqual(ids);
    expect(backup.contents.decisions.map((row) => row.billId).sort()).toEqual([...ids].sort());
    expect(JSON.stringify(backup.contents)).not.toContain(HOUSING_LATER);
    expect(JSON.stringify(backup.contents)).not.toContain(UNTAGGED_TRACKED);

    // The link: of that backup, opened with the key of the address shown.
    const [link] = boundary.links;
    expect(link).toMatchObject({ backupId: upload.id, expiresAt: null });
    expect(url).toBe(
      `${window.location.origin}/public-link/${link?.id ?? ''}#k=${url.split('#k=')[1] ?? ''}`,
    );
    const opened = await boundary.runner.openLink(
      link?.ciphertext ?? '',
      url.split('#k=')[1] ?? '',
      link?.id ?? '',
    );
    if (!opened.ok) throw new Error(opened.message);
    expect(opened.link).toMatchObject({ kind: 'list', name: 'Tracked · Housing' });
    expect(opened.link.contents.bills.map((bill) => bill.id)).toEqual(ids);
    expect(opened.link.contents.positions).toEqual([
      expect.objectContaining({ billId: HOUSING_SUPPORTED, position: 'support' }),
    ]);
    // What it holds is kept on this device for the backup's link screen; its key is not.
    expect(boundary.saveLinkKey).toHaveBeenCalledWith(link?.id, null, {
      choices: { dismissedBills: true, decisions: true, notes: true },
      counts: expect.objectContaining({ bills: 2, tracked: 2, later: 0 }) as unknown,
    });
  });

  it('a Later list shares its Later bills only', async () => {
    const w = await world();
    const ids = renderList(w, { ...defaultBillListQuery, decision: 'later' });
    expect(ids).toEqual([HOUSING_LATER]);
    const sheet = await openSheet();
    expect(within(sheet).getByText('Share 1 bill as a public link')).toBeDefined();
    await createLink(sheet);
    const [link] = boundary.links;
    expect(link).toBeDefined();
    expect(boundary.saveLinkKey).toHaveBeenCalledWith(link?.id, null, {
      choices: expect.anything() as unknown,
      counts: expect.objectContaining({ bills: 1, tracked: 0, later: 1 }) as unknown,
    });
  });

  it("hands the link to the platform's share sheet where there is one", async () => {
    const share = vi.fn((_: ShareData) => Promise.resolve());
    setNavigator('share', share);
    const w = await world();
    renderList(w, { ...defaultBillListQuery, tagId: w.housing.id });
    const sheet = await openSheet();
    const url = await createLink(sheet);
    const shareLink = within(sheet).getByText('Share link', { selector: 'ion-button' });
    fireEvent.click(shareLink);
    expect(share).toHaveBeenCalledWith({ title: 'Tracked · Housing', url });
    expect(url).toMatch(/\/public-link\/[0-9a-f-]{36}#k=[A-Za-z0-9_-]{43}$/);
  });

  it('copies the link where there is no share sheet, and says so', async () => {
    const writeText = vi.fn((_: string) => Promise.resolve());
    setNavigator('clipboard', { writeText });
    const w = await world();
    renderList(w, { ...defaultBillListQuery, tagId: w.housing.id });
    const sheet = await openSheet();
    const url = await createLink(sheet);
    expect(within(sheet).queryByText('Share link', { selector: 'ion-button' })).toBeNull();
    const copy = within(sheet).getByText('Copy link', { selector: 'ion-button' });
    await act(async () => {
      fireEvent.click(copy);
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith(url);
    const said = await screen.findByText('Link copied.');
    expect(said.closest('[role="status"]')?.getAttribute('aria-live')).toBe('polite');
  });

  it('leaves notes out when the sharer says so', async () => {
    const w = await world();
    renderList(w, { ...defaultBillListQuery, tagId: w.housing.id });
    const sheet = await openSheet();
    const notes = within(sheet).getByLabelText('Notes');
    expect((notes as HTMLInputElement).checked).toBe(true);
    fireEvent.click(notes);
    await createLink(sheet);
    expect(boundary.saveLinkKey).toHaveBeenCalledWith(expect.any(String), null, {
      choices: { dismissedBills: true, decisions: true, notes: false },
      counts: expect.anything() as unknown,
    });
  });

  it('says what is needed first: signing in, the cloud password, a connection', async () => {
    const w = await world();
    boundary.keys = { status: 'signed-out' };
    renderList(w, defaultBillListQuery);
    let sheet = await openSheet();
    expect(within(sheet).getByText(/^Sign in to share a link\./)).toBeDefined();
    expect(within(sheet).queryByText('Create link')).toBeNull();
    cleanup();

    boundary.keys = { status: 'no-password' };
    renderList(w, defaultBillListQuery);
    sheet = await openSheet();
    expect(
      within(sheet).getByText(/^Set or enter your cloud password to share a link/),
    ).toBeDefined();
    expect(
      within(sheet).getByText('Go to Cloud password', { selector: 'ion-button' }),
    ).toBeDefined();
    expect(within(sheet).queryByText('Create link')).toBeNull();
    cleanup();

    await world();
    boundary.online = false;
    renderList(w, defaultBillListQuery);
    sheet = await openSheet();
    expect(within(sheet).getByText(/^You are offline\./)).toBeDefined();
    expect(within(sheet).queryByText('Create link')).toBeNull();
    expect(boundary.uploads).toEqual([]);
  });

  it('says why when the server refuses, and nothing is said to be shared', async () => {
    const w = await world();
    renderList(w, { ...defaultBillListQuery, tagId: w.housing.id });
    const sheet = await openSheet();
    const runner = boundary.runner;
    if (runner === null) throw new Error('No runner');
    boundary.runner = {
      ...runner,
      shareList: () => Promise.reject(new Error('The Docket server cannot be reached.')),
    };
    fireEvent.click(within(sheet).getByText('Create link', { selector: 'ion-button' }));
    const alert = await within(sheet).findByRole('alert');
    expect(alert.textContent).toBe('The Docket server cannot be reached.');
    expect(within(sheet).queryByLabelText('Link')).toBeNull();
  });
});

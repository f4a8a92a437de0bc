import type { BackupContents } from '@docket/core/backups';
import type { LinkSummary } from '@docket/protocol/public-links';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KeptLink } from '../public-links/link-keys-store.ts';
import type { OpenedBackupState } from './use-opened-backup.ts';
import {
  createdKeptStatus,
  createdNotKeptStatus,
  expiresAtFor,
  expiryOf,
  linkRows,
  linkState,
  usePublishLink,
} from './use-publish-link.ts';

// The backup-link screen's use case without the screen: the server's /api/links, this device's
// kept link keys, the platform's share sheet, the toast and the confirmation are the boundary
// replaced here; the sealing is core's, with the WebCrypto of the test's runtime.

const made = vi.hoisted(() => ({
  listLinks: vi.fn(),
  createLink: vi.fn(),
  revokeLink: vi.fn(),
  loadLinkKeys: vi.fn(),
  saveLinkKey: vi.fn(),
  forgetLinkKey: vi.fn(),
  shareLink: vi.fn(),
  canShareLinks: vi.fn(),
  done: vi.fn(),
  presentAlert: vi.fn(),
}));
vi.mock('../public-links/public-links-api.ts', () => ({
  listLinks: made.listLinks,
  createLink: made.createLink,
  revokeLink: made.revokeLink,
}));
vi.mock('../public-links/link-keys-store.ts', () => ({
  loadLinkKeys: made.loadLinkKeys,
  saveLinkKey: made.saveLinkKey,
  forgetLinkKey: made.forgetLinkKey,
}));
// The same objects on every render, as the app's hooks and context give them.
const stable = vi.hoisted(() => ({
  services: {
    api: {},
    platform: {
      canShareLinks: () => made.canShareLinks() as boolean,
      shareLink: (url: string, title: string) => made.shareLink(url, title) as Promise<void>,
    },
  },
  toast: {
    done: (message: string) => {
      made.done(message);
    },
    failed: () => undefined,
  },
  alert: [(options: unknown) => made.presentAlert(options) as Promise<void>, () => undefined],
}));
vi.mock('../services/app-services.ts', () => ({ useAppServices: () => stable.services }));
vi.mock('../toasts/status-toast.ts', () => ({ useStatusToast: () => stable.toast }));
vi.mock('../ui/lazy-overlays.ts', () => ({ useAlert: () => stable.alert }));

const BACKUP_ID = '7b1d1c1e-2f0a-4d7e-9a51-3f3c8b6a0c11';
const at = '2026-03-01T09:00:00.000Z';
const DAY_MS = 24 * 60 * 60 * 1000;

function link(id: string, changes: Partial<LinkSummary> = {}): LinkSummary {
  return {
    id,
    backupId: BACKUP_ID,
    size: 100,
    createdAt: at,
    expiresAt: null,
    revokedAt: null,
    viewCount: 0,
    ...changes,
  };
}

const contents: BackupContents = {
  format: 'docket-backup',
  version: 1,
  createdAt: at,
  datasets: [],
  tags: [],
  billTags: [],
  positions: [],
  decisions: [],
  annotations: [],
  bills: [],
  clocks: {},
};
const counts = {
  bills: 0,
  datasets: 0,
  tags: 0,
  billTags: 0,
  positions: 0,
  decisions: 0,
  annotations: 0,
};
const opened: OpenedBackupState = {
  status: 'open',
  backup: {
    summary: { id: BACKUP_ID, epoch: 1, metadata: 'AAAA', size: 10, createdAt: at },
    metadata: { name: 'Before the hearing', description: '', counts },
    contents,
  },
};

/** Lets the promises the hook started settle. */
async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('the links as their cards show them', () => {
  it('shows the newest link first, with the key made here before the one kept', () => {
    const kept = new Map<string, KeptLink>([
      ['a', { key: 'kept-a', holds: null, revoked: false }],
      ['b', { key: null, holds: null, revoked: false }],
    ]);
    const rows = linkRows(
      [link('a'), link('b'), link('c', { revokedAt: at })],
      kept,
      new Map([['a', 'made-a']]),
      'https://docket.example',
    );
    expect(rows.map((row) => row.link.id)).toEqual(['c', 'b', 'a']);
    const [c, b, a] = rows;
    expect(a).toMatchObject({ key: 'made-a', live: true });
    expect(a?.url).toBe('https://docket.example/public-link/a#k=made-a');
    // Kept without its key: it cannot be copied here.
    expect(b).toMatchObject({ key: null, url: null, live: true });
    // Made on another device: nothing kept of it here.
    expect(c).toMatchObject({ kept: undefined, live: false, url: null });
  });

  it('says whether a link is open, expired or revoked', () => {
    const now = Date.parse('2026-03-10T00:00:00.000Z');
    expect(linkState(link('a'), now)).toBe('Open, never expires');
    expect(linkState(link('a', { expiresAt: '2026-04-01T00:00:00.000Z' }), now)).toMatch(
      /^Open until /,
    );
    expect(linkState(link('a', { expiresAt: '2026-03-09T00:00:00.000Z' }), now)).toMatch(
      /^Expired /,
    );
    expect(
      linkState(link('a', { revokedAt: at, expiresAt: '2026-03-09T00:00:00.000Z' }), now),
    ).toMatch(/^Revoked /);
  });

  it('turns the expiry chosen into the time the server takes, or none', () => {
    const now = Date.parse(at);
    expect(expiresAtFor('never', now)).toBeNull();
    expect(expiresAtFor('7', now)).toBe(new Date(now + 7 * DAY_MS).toISOString());
    expect(expiresAtFor('365', now)).toBe(new Date(now + 365 * DAY_MS).toISOString());
    expect(expiryOf('30')).toBe('30');
    expect(expiryOf('2')).toBeUndefined();
  });
});

beforeEach(() => {
  made.listLinks.mockResolvedValue([]);
  made.loadLinkKeys.mockResolvedValue(new Map());
  made.createLink.mockImplementation((_api: unknown, body: { id: string }) =>
    Promise.resolve(link(body.id)),
  );
  made.saveLinkKey.mockResolvedValue(undefined);
  made.forgetLinkKey.mockResolvedValue(undefined);
  made.revokeLink.mockResolvedValue(link('a', { revokedAt: at }));
  made.canShareLinks.mockReturnValue(false);
  made.presentAlert.mockResolvedValue(undefined);
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe("usePublishLink: the backup's links", () => {
  it("loads the backup's links and what this device kept of each", async () => {
    const kept = new Map<string, KeptLink>([['a', { key: 'key-a', holds: null, revoked: false }]]);
    made.listLinks.mockResolvedValue([link('a')]);
    made.loadLinkKeys.mockResolvedValue(kept);
    const { result } = renderHook(() => usePublishLink(BACKUP_ID, opened));
    expect(result.current.links).toBeNull();
    await waitFor(() => {
      expect(result.current.links?.[0]?.key).toBe('key-a');
    });
    expect(made.listLinks).toHaveBeenCalledWith(stable.services.api, BACKUP_ID);
    expect(made.loadLinkKeys).toHaveBeenCalledWith(['a']);
    expect(result.current.draft.holds).not.toBe('');
  });

  it('says why the links could not be loaded', async () => {
    made.listLinks.mockRejectedValue(new Error('The server is away.'));
    const { result } = renderHook(() => usePublishLink(BACKUP_ID, opened));
    await waitFor(() => {
      expect(result.current.error).toBe('The server is away.');
    });
    expect(result.current.links).toBeNull();
  });
});

describe('usePublishLink: making a link', () => {
  it('seals only what was chosen, keeps no key unless asked, and can copy it until left', async () => {
    const { result } = renderHook(() => usePublishLink(BACKUP_ID, opened));
    await settle();
    act(() => {
      result.current.draft.setExpiry('7');
      result.current.draft.setChoice('notes', false);
    });
    made.listLinks.mockImplementation(() => {
      const body = made.createLink.mock.calls[0]?.[1] as { id: string } | undefined;
      return Promise.resolve(body === undefined ? [] : [link(body.id)]);
    });
    const before = Date.now();
    act(() => {
      result.current.create();
    });
    await waitFor(() => {
      expect(result.current.status).toBe(createdNotKeptStatus);
    });
    const body = made.createLink.mock.calls[0]?.[1] as {
      id: string;
      backupId: string;
      ciphertext: string;
      expiresAt: string | null;
    };
    expect(body.backupId).toBe(BACKUP_ID);
    expect(body.ciphertext.length).toBeGreaterThan(0);
    const expires = Date.parse(body.expiresAt ?? '');
    expect(expires - before).toBeGreaterThanOrEqual(7 * DAY_MS);
    expect(expires - Date.now()).toBeLessThanOrEqual(7 * DAY_MS);
    // What it holds is kept beside the key, the key itself not: "Keep this link" was off.
    expect(made.saveLinkKey).toHaveBeenCalledWith(body.id, null, {
      choices: { dismissedBills: false, decisions: true, notes: false },
      counts: expect.any(Object) as unknown,
    });
    // Reloaded: the new link is listed, and copyable here with the key made on this screen.
    await waitFor(() => {
      expect(result.current.links?.[0]?.url).toMatch(
        new RegExp(`/public-link/${body.id}#k=[A-Za-z0-9_-]{43}$`),
      );
    });
    expect(result.current.busy).toBe(false);
    expect(result.current.error).toBeNull();
  });

  it('keeps the key when asked, and says so', async () => {
    const { result } = renderHook(() => usePublishLink(BACKUP_ID, opened));
    await settle();
    act(() => {
      result.current.draft.setKeepLink(true);
    });
    act(() => {
      result.current.create();
    });
    await waitFor(() => {
      expect(result.current.status).toBe(createdKeptStatus);
    });
    const [, key] = made.saveLinkKey.mock.calls[0] as [string, string | null];
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const body = made.createLink.mock.calls[0]?.[1] as { expiresAt: string | null };
    expect(body.expiresAt).toBeNull();
  });
});

describe('usePublishLink: when a link cannot be made', () => {
  it('says why a link was not created, and makes none while the backup is not open', async () => {
    made.createLink.mockRejectedValue(new Error('Too many links.'));
    const initialProps: { state: OpenedBackupState } = { state: opened };
    const { result, rerender } = renderHook(({ state }) => usePublishLink(BACKUP_ID, state), {
      initialProps,
    });
    await settle();
    act(() => {
      result.current.create();
    });
    await waitFor(() => {
      expect(result.current.error).toBe('Too many links.');
    });
    expect(made.saveLinkKey).not.toHaveBeenCalled();
    expect(result.current.status).toBe('');
    rerender({ state: { status: 'loading' } });
    expect(result.current.draft.holds).toBe('');
    act(() => {
      result.current.create();
    });
    await settle();
    expect(made.createLink).toHaveBeenCalledTimes(1);
  });
});

describe('usePublishLink: copying and sharing', () => {
  it('copies a link with a toast, or says to copy it by hand', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { result } = renderHook(() => usePublishLink(BACKUP_ID, opened));
    await settle();
    act(() => {
      result.current.copy('https://docket.example/public-link/a#k=x');
    });
    await settle();
    expect(writeText).toHaveBeenCalledWith('https://docket.example/public-link/a#k=x');
    expect(made.done).toHaveBeenCalledWith('Link copied.');
    writeText.mockRejectedValue(new Error('denied'));
    act(() => {
      result.current.copy('https://docket.example/public-link/a#k=x');
    });
    await settle();
    expect(result.current.status).toBe(
      'Copying is not allowed here; select the link and copy it yourself.',
    );
  });

  it("shares through the platform's sheet where there is one", async () => {
    made.canShareLinks.mockReturnValue(true);
    made.shareLink.mockRejectedValue(new Error('No sheet'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = renderHook(() => usePublishLink(BACKUP_ID, opened));
    await settle();
    expect(result.current.canShare).toBe(true);
    act(() => {
      result.current.share('https://docket.example/public-link/a#k=x');
    });
    await settle();
    expect(made.shareLink).toHaveBeenCalledWith(
      'https://docket.example/public-link/a#k=x',
      'Shared bills',
    );
    expect(result.current.status).toBe('Sharing did not work here; copy the link instead.');
  });
});

describe('usePublishLink: revoking', () => {
  it('revokes a link once confirmed: forgets its key, says so and reloads', async () => {
    made.listLinks.mockResolvedValue([link('a')]);
    const { result } = renderHook(() => usePublishLink(BACKUP_ID, opened));
    await settle();
    const shown = result.current.links?.[0]?.link;
    if (shown === undefined) throw new Error('No link listed');
    act(() => {
      result.current.askRevoke(shown);
    });
    const asked = made.presentAlert.mock.calls[0]?.[0] as {
      header: string;
      buttons: { text: string; role: string; handler?: () => void }[];
    };
    expect(asked.header).toBe('Revoke link?');
    expect(asked.buttons.map((button) => [button.text, button.role])).toEqual([
      ['Cancel', 'cancel'],
      ['Revoke', 'destructive'],
    ]);
    // Nothing happens before the person confirms.
    expect(made.revokeLink).not.toHaveBeenCalled();
    made.listLinks.mockResolvedValue([link('a', { revokedAt: at })]);
    act(() => {
      asked.buttons[1]?.handler?.();
    });
    await waitFor(() => {
      expect(result.current.links?.[0]?.live).toBe(false);
    });
    expect(made.revokeLink).toHaveBeenCalledWith(stable.services.api, 'a');
    expect(made.forgetLinkKey).toHaveBeenCalledWith('a');
    expect(made.done).toHaveBeenCalledWith('Link revoked.');
  });
});

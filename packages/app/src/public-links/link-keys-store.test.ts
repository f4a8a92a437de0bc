import { createMemoryLocalStore, type LocalStore } from '@docket/core/store';
import type { LinkSummary } from '@docket/protocol/public-links';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiRequest } from '../api/api-client.ts';
import { forgetLinkKey, liveLinks, saveLinkKey } from './link-keys-store.ts';

// What this device keeps of the links it made, and which of them still open: every link not
// revoked, its key kept or not (the default keeps none), named by its backup when the server says.

const page = vi.hoisted(() => ({ store: null as LocalStore | null }));
vi.mock('../bills/bill-command-services.ts', () => ({
  pageLocalStore: () => {
    if (page.store === null) throw new Error('No store yet');
    return Promise.resolve(page.store);
  },
}));

const holds = {
  choices: { dismissedBills: false, decisions: true, notes: false },
  counts: {
    bills: 2,
    tracked: 2,
    later: 0,
    dismissed: 0,
    undecided: 0,
    tags: 0,
    positions: 0,
    notes: 0,
  },
};
const at = '2026-11-29T00:00:00.000Z';

function summary(id: string, backupId: string, extra: Partial<LinkSummary> = {}): LinkSummary {
  return {
    id,
    backupId,
    size: 10,
    createdAt: at,
    expiresAt: null,
    revokedAt: null,
    viewCount: 0,
    ...extra,
  };
}

/** The server's GET /api/links?backupId=…, from a list per backup id. */
function fakeApi(byBackup: Record<string, LinkSummary[]>): ApiClient {
  const call = (request: ApiRequest<unknown>) => {
    const backupId = new URL(request.path, 'http://x').searchParams.get('backupId') ?? '';
    return Promise.resolve({ links: byBackup[backupId] ?? [] });
  };
  return Object.assign(call, { bytes: () => Promise.resolve(null) }) as unknown as ApiClient;
}

beforeEach(async () => {
  page.store = createMemoryLocalStore();
  await page.store.write(['backups'], (tx) =>
    tx.putMany('backups', [
      { id: 'b-1', name: 'Committee list', description: '', createdAt: at, size: 1 },
      { id: 'b-2', name: 'Tracked', description: '', createdAt: at, size: 1 },
    ]),
  );
});

describe('live links', () => {
  it('counts a link made without keeping its key (the default), and not one revoked here', async () => {
    await saveLinkKey('l-default', null, holds);
    await saveLinkKey('l-kept', 'key-2', holds);
    await saveLinkKey('l-revoked', 'key-3', holds);
    await forgetLinkKey('l-revoked');
    const live = await liveLinks(null);
    expect(live.map((link) => link.id).sort()).toEqual(['l-default', 'l-kept']);
    expect(live.every((link) => link.name === null)).toBe(true);
  });

  it('names each link by the backup it publishes, and drops those revoked or expired elsewhere', async () => {
    await saveLinkKey('l-1', null, holds);
    await saveLinkKey('l-2', null, holds);
    await saveLinkKey('l-3', null, holds);
    await saveLinkKey('l-4', null, holds);
    await saveLinkKey('l-5', null, holds);
    const api = fakeApi({
      'b-1': [summary('l-1', 'b-1'), summary('l-3', 'b-1', { revokedAt: at })],
      'b-2': [
        summary('l-2', 'b-2', { expiresAt: '2999-01-01T00:00:00.000Z' }),
        summary('l-4', 'b-2', { expiresAt: at }),
      ],
    });
    const live = await liveLinks(api, Date.parse('2026-11-30T00:00:00.000Z'));
    expect(live).toEqual([
      { id: 'l-1', name: 'Committee list' },
      { id: 'l-2', name: 'Tracked' },
      // Not in the server's lists (its backup is gone from here): counted, unnamed.
      { id: 'l-5', name: null },
    ]);
  });

  it('counts every link made here, unnamed, when the server cannot be reached', async () => {
    await saveLinkKey('l-1', null, holds);
    const offline = Object.assign(() => Promise.reject(new Error('offline')), {
      bytes: () => Promise.resolve(null),
    }) as unknown as ApiClient;
    expect(await liveLinks(offline)).toEqual([{ id: 'l-1', name: null }]);
  });
});

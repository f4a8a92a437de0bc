import { buildBackupContents } from '@docket/core/backups';
import { createMemoryLocalStore, type LocalStore } from '@docket/core/store';
import { createTag } from '@docket/core/commands';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, type ApiClient, type ApiRequest } from '../api/api-client.ts';
import { deviceKeys } from '../sync/sync-runner-harness.ts';
import {
  signedInHere,
  workingInPersonalSpace,
  workingInWorkspace,
} from '../local-store/space-test-setup.ts';
import { createBackup, loadBackupList, openBackup, restoreContents } from './backup-actions.ts';

// Backups and restores run as jobs in the user-data worker; like imports, each one's end is in
// the trace. The worker is its runner here, on a memory store, and the server a fake that takes
// the upload.

const DEVICE = 'device-a';
const page = vi.hoisted(() => ({ store: null as LocalStore | null }));

function pageStore(): LocalStore {
  if (page.store === null) throw new Error('No store yet');
  return page.store;
}

vi.mock('../bills/bill-command-services.ts', () => ({
  pageLocalStore: () => Promise.resolve(pageStore()),
  billCommandContext: () =>
    Promise.resolve({
      store: pageStore(),
      deviceId: DEVICE,
      now: () => Date.now(),
      newId: () => crypto.randomUUID(),
    }),
}));

vi.mock('../user-data-worker/user-data-client.ts', async () => {
  const { billCommandContext } = await import('../bills/bill-command-services.ts');
  const { createBackupRunner } = await import('../user-data-worker/backup-runner.ts');
  const runner = createBackupRunner(billCommandContext);
  return { userDataWorker: () => runner };
});

/** The server's backups route: takes the upload and answers its summary, or is unreachable. */
function fakeApi(reachable: boolean): ApiClient {
  const call = <T>(request: ApiRequest<T>): Promise<T> => {
    if (!reachable) {
      return Promise.reject(
        new ApiRequestError('The Docket server cannot be reached.', null, null),
      );
    }
    const body = request.body as { id: string; epoch: number; metadata: string };
    return Promise.resolve(
      request.response.parse({
        id: body.id,
        epoch: body.epoch,
        metadata: body.metadata,
        size: 100,
        createdAt: new Date().toISOString(),
      }),
    );
  };
  return Object.assign(call, { bytes: () => Promise.resolve(null) });
}

/** The job entries of the trace, oldest first, as "job status subject". */
async function tracedJobs(): Promise<string[]> {
  const rows = await pageStore().read(['trace'], (tx) => tx.all('trace'));
  return rows
    .filter((row) => row.kind === 'job')
    .map(
      (row) =>
        `${String(row.details.job)} ${String(row.details.status)} ${String(row.details.subject)}`,
    );
}

beforeEach(() => {
  page.store = createMemoryLocalStore();
  localStorage.clear();
});

/** The server's /api/backups in memory: uploads kept, listed and handed back. */
function backupsServer(): ApiClient {
  const kept = new Map<
    string,
    { id: string; epoch: number; metadata: string; ciphertext: string }
  >();
  const summaryOf = (id: string) => {
    const backup = kept.get(id);
    if (backup === undefined) throw new ApiRequestError('No such backup.', 404, 'not-found');
    const { ciphertext, ...summary } = backup;
    return { ...summary, size: ciphertext.length, createdAt: '2026-12-01T00:00:00.000Z' };
  };
  const call = <T>(request: ApiRequest<T>): Promise<T> => {
    const id = request.path.split('/')[3];
    try {
      if (request.method === 'POST') {
        const body = request.body as {
          id: string;
          epoch: number;
          metadata: string;
          ciphertext: string;
        };
        kept.set(body.id, body);
        return Promise.resolve(request.response.parse(summaryOf(body.id)));
      }
      if (id === undefined) {
        return Promise.resolve(
          request.response.parse({ backups: [...kept.keys()].map(summaryOf) }),
        );
      }
      const backup = kept.get(id);
      return Promise.resolve(
        request.response.parse({ ...summaryOf(id), ciphertext: backup?.ciphertext }),
      );
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
  return Object.assign(call, { bytes: () => Promise.resolve(null) });
}

describe('backups of a space', () => {
  const TEAM = '6f1c2d4e-1111-4a2b-8c3d-000000000001';

  it('are listed, opened and restored only in the space they were made in', async () => {
    const api = backupsServer();
    const keys = await deviceKeys(1);
    const input = { api, userId: 'user-1', keys, description: '' };
    signedInHere();
    const personal = await createBackup({ ...input, name: 'Mine' });
    workingInWorkspace('editor', TEAM);
    const team = await createBackup({ ...input, name: 'Team work' });

    const inTeam = await loadBackupList(api, 'user-1', keys);
    expect(inTeam.entries.map((entry) => entry.metadata?.name)).toEqual(['Team work']);
    expect(inTeam.elsewhere).toBe(1);
    expect((await openBackup(api, 'user-1', keys, team)).metadata.workspaceId).toBe(TEAM);
    // A personal backup is not opened here: restored, its work would land in the team's space.
    await expect(openBackup(api, 'user-1', keys, personal)).rejects.toThrow(
      'This backup was made in your personal space',
    );

    workingInPersonalSpace();
    const inPersonal = await loadBackupList(api, 'user-1', keys);
    expect(inPersonal.entries.map((entry) => entry.metadata?.name)).toEqual(['Mine']);
    expect(inPersonal.elsewhere).toBe(1);
    await expect(openBackup(api, 'user-1', keys, team)).rejects.toThrow(
      'This backup was made in a team workspace’s space',
    );
    expect((await openBackup(api, 'user-1', keys, personal)).metadata.workspaceId).toBeUndefined();
  });
});

describe('backup and restore jobs', () => {
  it('write their end to the trace, done or failed', async () => {
    const keys = await deviceKeys(1);
    const input = { userId: 'user-1', keys, description: '' };
    await createBackup({ ...input, api: fakeApi(true), name: 'Weekly' });
    await expect(createBackup({ ...input, api: fakeApi(false), name: 'Offline' })).rejects.toThrow(
      'The Docket server cannot be reached.',
    );
    expect(await tracedJobs()).toEqual(['backup done Weekly', 'backup failed Offline']);
    const [, failed] = await pageStore().read(['trace'], (tx) => tx.all('trace'));
    expect(failed?.details).toMatchObject({
      message: 'The Docket server cannot be reached.',
      firstError: 'The Docket server cannot be reached.',
    });
  });

  it('trace a restore, and the import of a shared link, which is one', async () => {
    const store = pageStore();
    await createTag(
      { store, deviceId: DEVICE, now: () => Date.now(), newId: () => crypto.randomUUID() },
      { name: 'Housing', color: '#cc0000' },
    );
    const contents = await buildBackupContents(store, new Date().toISOString());
    await restoreContents({ contents, mode: 'replace', subjectId: 'backup-1', label: 'Weekly' });
    await restoreContents({ contents, mode: 'merge', subjectId: 'link-1', label: 'Shared link' });
    expect(await tracedJobs()).toEqual(['restore done Weekly', 'restore done Shared link']);
  });
});

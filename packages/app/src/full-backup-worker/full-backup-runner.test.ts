import { createMemoryLocalStore, sealRow, type Job, type LocalStore } from '@docket/core/store';
import {
  createDeviceVault,
  deviceRowKey,
  type KdfParams,
  type WebCryptoPort,
} from '@docket/core/crypto';
import { createTag } from '@docket/core/commands';
import { describe, expect, it } from 'vitest';
import { jobLockName, localJobLocks } from '../import-worker/job-locks.ts';
import { lockedBackupDatabase } from '../local-store/locked-backups.ts';
import {
  createFullBackupRunner,
  type FullBackupSource,
  type LockedSource,
} from './full-backup-runner.ts';

// The worker's half, against the memory store: jobs queued and run under their locks, the
// preview's refusals as answers (they cross the worker boundary as data, not as exceptions).

const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;
const quickKdf: KdfParams = {
  algorithm: 'argon2id',
  memoryKiB: 256,
  iterations: 1,
  parallelism: 1,
};
const DEVICE = 'device-a';

function setup(openLocked?: () => Promise<LockedSource>) {
  const store = createMemoryLocalStore();
  const locks = localJobLocks();
  let id = 0;
  let now = Date.UTC(2026, 10, 22, 8, 0, 0);
  const runner = createFullBackupRunner({
    store,
    crypto: webCrypto,
    locks,
    deviceId: () => Promise.resolve(DEVICE),
    now: () => (now += 1000),
    newId: () => `id-${++id}`,
    kdf: quickKdf,
    onError: (error) => {
      throw error;
    },
    ...(openLocked === undefined ? {} : { openLocked }),
  });
  const context = { store, deviceId: DEVICE, now: () => now, newId: () => `tag-${++id}` };
  /** Waits for a job's lock to be let go: the job has finished, one way or the other. */
  const finished = async (jobId: string): Promise<Job | undefined> => {
    await locks.hold(jobLockName(jobId), () => Promise.resolve());
    return store.read(['jobs'], (tx) => tx.get('jobs', jobId));
  };
  /** The job entries of the trace, oldest first, as "kind status label". */
  const tracedJobs = async (): Promise<string[]> =>
    (await store.read(['trace'], (tx) => tx.all('trace')))
      .filter((entry) => entry.kind === 'job')
      .map(
        (entry) =>
          `${String(entry.details.job)} ${String(entry.details.status)} ${String(entry.details.subject)}`,
      );
  return { store, runner, context, finished, tracedJobs };
}

describe('the full-backup runner', () => {
  it('makes an encrypted backup, previews it with its passphrase and restores it', async () => {
    const { store, runner, context, finished, tracedJobs } = setup();
    await createTag(context, { name: 'Housing', color: '#cc0000' });

    const refused = await runner.create({ name: 'Trip', passphrase: 'a', confirmation: 'b' });
    expect(refused).toEqual({
      ok: false,
      code: 'invalid-input',
      message: 'The two passphrases are not the same.',
    });

    const created = await runner.create({
      name: ' Trip ',
      passphrase: 'pass',
      confirmation: 'pass',
    });
    if (!created.ok) throw new Error(created.message);
    expect(await finished(created.jobId)).toMatchObject({
      kind: 'full-backup',
      status: 'done',
      label: 'Trip',
    });
    expect(await tracedJobs()).toEqual(['full-backup done Trip']);
    const [stored] = await store.read(['fullBackups'], (tx) => tx.all('fullBackups'));
    expect(stored).toMatchObject({ name: 'Trip', encrypted: true });
    const source: FullBackupSource = { kind: 'stored', id: stored?.id ?? '' };

    expect(await runner.preview(source, '')).toMatchObject({ ok: false, code: 'needs-passphrase' });
    expect(await runner.preview(source, 'nope')).toMatchObject({
      ok: false,
      code: 'wrong-passphrase',
    });
    const preview = await runner.preview(source, 'pass');
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.preview).toMatchObject({ encrypted: true, thisDevice: true, version: 2 });
    expect(preview.preview.manifest.tables.tags).toBe(1);

    await createTag(context, { name: 'Made later', color: '#cc0000' });
    const restoring = await runner.restore(source, 'pass', 'replace');
    if (!restoring.ok) throw new Error(restoring.message);
    expect(await finished(restoring.jobId)).toMatchObject({
      kind: 'full-backup-restore',
      status: 'done',
      label: 'Trip',
    });
    const tags = await store.read(['tags'], (tx) => tx.all('tags'));
    expect(tags.map((tag) => tag.name)).toEqual(['Housing']);
    // The device's trace stays (the file's entries, here the same one, join it), with the
    // restore's end and that of the safety copy it made first.
    expect(await tracedJobs()).toEqual([
      'full-backup done Trip',
      expect.stringMatching(/^full-backup done Before restoring "Trip"/),
      'full-backup-restore done Trip',
    ]);
    const backups = await store.read(['fullBackups'], (tx) => tx.all('fullBackups'));
    expect(backups).toHaveLength(2);
  });

  it('merges a backup into the device: what was made since stays, what it lacks comes back', async () => {
    const { store, runner, finished, context } = setup();
    await createTag(context, { name: 'Housing', color: '#cc0000' });
    const created = await runner.create({ name: 'Plain', passphrase: '', confirmation: '' });
    if (!created.ok) throw new Error(created.message);
    await finished(created.jobId);
    const [stored] = await store.read(['fullBackups'], (tx) => tx.all('fullBackups'));
    const source: FullBackupSource = { kind: 'stored', id: stored?.id ?? '' };
    await store.write(['tags', 'syncState'], async (tx) => {
      await tx.deleteMany('tags', await tx.keys('tags'));
      await tx.deleteMany('syncState', await tx.keys('syncState'));
    });
    await createTag(context, { name: 'Made later', color: '#cc0000' });
    const preview = await runner.preview(source, '');
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.preview.merge.kinds.tags).toEqual({ added: 1, changed: 0 });
    expect(preview.preview.replaceLoss).toEqual({ removed: 1, madeElsewhereSince: 0 });
    const merging = await runner.restore(source, '', 'merge');
    if (!merging.ok) throw new Error(merging.message);
    expect(await finished(merging.jobId)).toMatchObject({ status: 'done', result: { added: 1 } });
    const tags = await store.read(['tags'], (tx) => tx.all('tags'));
    expect(tags.map((tag) => tag.name).sort()).toEqual(['Housing', 'Made later']);
  });

  it('answers a picked file that is not a full backup, or a stored one that is gone', async () => {
    const { runner } = setup();
    const file = {
      arrayBuffer: () => Promise.resolve(new TextEncoder().encode('not a backup').buffer),
    } as unknown as Blob;
    expect(await runner.preview({ kind: 'file', file, name: 'notes.txt' }, '')).toEqual({
      ok: false,
      code: 'not-a-backup',
      message: 'This file is not a Docket full backup.',
    });
    expect(await runner.preview({ kind: 'stored', id: 'gone' }, '')).toMatchObject({
      ok: false,
      code: 'not-found',
    });
  });

  it('does not restore while an import is running', async () => {
    const { store, runner, finished, tracedJobs } = setup();
    const created = await runner.create({ name: 'Plain', passphrase: '', confirmation: '' });
    if (!created.ok) throw new Error(created.message);
    await finished(created.jobId);
    const [stored] = await store.read(['fullBackups'], (tx) => tx.all('fullBackups'));
    const running: Job = {
      id: 'import-1',
      kind: 'import',
      subjectId: 'dataset-1',
      status: 'running',
      createdAt: '2026-11-22T08:00:00.000Z',
      startedAt: '2026-11-22T08:00:00.000Z',
      finishedAt: null,
      progress: { recordsRead: 0, written: 0, skipped: 0, total: null },
      result: null,
      errors: [],
      message: null,
    };
    await store.write(['jobs'], (tx) => tx.put('jobs', running));
    const restoring = await runner.restore({ kind: 'stored', id: stored?.id ?? '' }, '', 'replace');
    if (!restoring.ok) throw new Error(restoring.message);
    expect(await finished(restoring.jobId)).toMatchObject({
      status: 'failed',
      message: 'Another job is still running. Wait for it to finish (see Jobs), then restore.',
    });
    // A refused job is traced like any other.
    expect(await tracedJobs()).toEqual([
      'full-backup done Plain',
      'full-backup-restore failed Plain',
    ]);
  });

  it("backs up a locked account's database as stored, and opens it only with that account's password", async () => {
    // Reporter X's tag, as X's locked database stores it: sealed under X's vault.
    const source = createMemoryLocalStore();
    const made = { store: source, deviceId: DEVICE, now: () => 0, newId: () => 'tag-x' };
    await createTag(made, { name: 'Whistleblower J.D.', color: '#cc0000' });
    const vault = await createDeviceVault(webCrypto, 'x password 1234', 'account-x', quickKdf);
    const rowKey = await deviceRowKey(webCrypto, vault.keyBytes);
    const tags = await source.read(['tags'], (tx) => tx.all('tags'));
    const locked: LocalStore = createMemoryLocalStore();
    const sealed = await Promise.all(tags.map((tag) => sealRow(webCrypto, rowKey, 'tags', tag)));
    await locked.write(['tags'], (tx) => tx.putMany('tags', sealed as never[]));
    let closed = false;
    const { store, runner, finished } = setup(() =>
      Promise.resolve({
        store: locked,
        account: { accountId: 'account-x', vault: vault.material },
        close: () => {
          closed = true;
        },
      }),
    );

    const created = await runner.createLocked(
      { name: 'Locked account 1', passphrase: '', confirmation: '' },
      { database: 'docket-x', accountId: 'account-x' },
    );
    if (!created.ok) throw new Error(created.message);
    expect(await finished(created.jobId)).toMatchObject({ status: 'done' });
    expect(closed).toBe(true);
    const [backup] = await store.read(['fullBackups'], (tx) => tx.all('fullBackups'));
    // Its id names the account's database: it goes when the account is removed.
    expect(lockedBackupDatabase(backup?.id ?? '')).toBe('docket-x');
    const file: FullBackupSource = { kind: 'stored', id: backup?.id ?? '' };

    expect(await runner.preview(file, '')).toMatchObject({
      ok: false,
      code: 'needs-account-password',
    });
    expect(await runner.preview(file, '', 'not x password')).toMatchObject({
      ok: false,
      code: 'wrong-account-password',
    });
    const preview = await runner.preview(file, '', 'x password 1234');
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.preview.manifest.lockedAccount?.accountId).toBe('account-x');
    const restoring = await runner.restore(file, '', 'replace', 'x password 1234');
    if (!restoring.ok) throw new Error(restoring.message);
    expect(await finished(restoring.jobId)).toMatchObject({ status: 'done' });
    const restored = await store.read(['tags'], (tx) => tx.all('tags'));
    expect(restored.map((tag) => tag.name)).toEqual(['Whistleblower J.D.']);
  });
});

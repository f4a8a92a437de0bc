import { describe, expect, it } from 'vitest';
import { advanceBackupJob, finishBackupJob, startBackupJob } from './backup-job.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';

const at = '2025-01-15T12:00:00.000Z';

describe('backup jobs', () => {
  it('run with a label and steps, and end done or failed with the reason', async () => {
    const store = createMemoryLocalStore();
    await startBackupJob(store, { id: 'j1', kind: 'backup', subjectId: 'b1', label: 'Weekly', at });
    await advanceBackupJob(store, 'j1', 2);
    let job = await store.read(['jobs'], (tx) => tx.get('jobs', 'j1'));
    expect(job).toMatchObject({ kind: 'backup', label: 'Weekly', status: 'running' });
    expect(job?.progress).toMatchObject({ recordsRead: 2, total: 3 });
    await finishBackupJob(store, 'j1', { status: 'done', at, message: 'Saved.' });
    job = await store.read(['jobs'], (tx) => tx.get('jobs', 'j1'));
    expect(job).toMatchObject({ status: 'done', finishedAt: at, message: 'Saved.' });
    expect(job?.progress.recordsRead).toBe(3);

    await startBackupJob(store, { id: 'j2', kind: 'restore', subjectId: 'b1', label: 'W', at });
    await finishBackupJob(store, 'j2', { status: 'failed', at, message: 'Offline.' });
    job = await store.read(['jobs'], (tx) => tx.get('jobs', 'j2'));
    expect(job).toMatchObject({ status: 'failed', errors: [{ record: null, reason: 'Offline.' }] });
    // A finished job does not move any more.
    await advanceBackupJob(store, 'j2', 1);
    expect((await store.read(['jobs'], (tx) => tx.get('jobs', 'j2')))?.progress.recordsRead).toBe(
      0,
    );
  });
});

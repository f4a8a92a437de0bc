import { checkPassphrase } from './full-backup-crypto.ts';
import {
  FullBackupError,
  fullBackupSummary,
  type FullBackupLockedAccount,
  type FullBackupSummary,
} from './full-backup-format.ts';
import { openFullBackup, type OpenedFullBackup } from './full-backup-reader.ts';
import { busyJobs, restoreFullBackup, type RestoreSummary } from './full-backup-restore.ts';
import { writeFullBackup } from './full-backup-writer.ts';
import {
  mergeFullBackup,
  type FullBackupMergeSummary,
  type MergeKindCount,
} from './full-backup-merge.ts';
import type { FullBackup, Job, SyncedTable } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { KdfParams } from '../crypto/sync-crypto.ts';
import type { WebCryptoPort } from '../crypto/web-crypto.ts';

// Making and restoring a full backup as jobs (kinds 'full-backup' and 'full-backup-restore'),
// so the jobs screen shows them with their progress: rows packed of the store's rows, rows
// checked of the backup's. A restore first saves what is on the device as a full backup of its
// own, so it can be undone, then replaces the data, or merges the backup into it, in one
// transaction.

export interface FullBackupJobContext {
  readonly store: LocalStore;
  readonly crypto: WebCryptoPort;
  readonly deviceId: string;
  /** Wall-clock milliseconds. */
  readonly now: () => number;
  readonly newId: () => string;
  /** Argon2id parameters for new files; the cloud password's by default. */
  readonly kdf?: KdfParams;
}

export interface FullBackupRequest {
  readonly name: string;
  readonly passphrase: string;
  readonly confirmation: string;
}

/** Checks the form; returns the trimmed name, or throws with what to fix. */
export function checkFullBackupRequest(request: FullBackupRequest): { name: string } {
  const name = request.name.trim();
  if (name === '') throw new FullBackupError('invalid-input', 'Give the full backup a name.');
  if (name.length > 200) {
    throw new FullBackupError('invalid-input', 'A name is at most 200 characters.');
  }
  if (request.passphrase !== '') {
    checkPassphrase(request.passphrase);
    if (request.passphrase !== request.confirmation) {
      throw new FullBackupError('invalid-input', 'The two passphrases are not the same.');
    }
  } else if (request.confirmation !== '') {
    throw new FullBackupError(
      'invalid-input',
      'Enter the passphrase in both fields, or leave both empty.',
    );
  }
  return { name };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function queueFullBackupJob(
  store: LocalStore,
  job: {
    id: string;
    kind: 'full-backup' | 'full-backup-restore';
    subjectId: string;
    label: string;
  },
  nowMs: number,
): Promise<Job> {
  const row: Job = {
    id: job.id,
    kind: job.kind,
    subjectId: job.subjectId,
    label: job.label.slice(0, 300),
    status: 'queued',
    createdAt: new Date(nowMs).toISOString(),
    startedAt: null,
    finishedAt: null,
    progress: { recordsRead: 0, written: 0, skipped: 0, total: null },
    result: null,
    errors: [],
    message: null,
  };
  await store.write(['jobs'], (tx) => tx.put('jobs', row));
  return row;
}

async function updateJob(
  store: LocalStore,
  jobId: string,
  change: (job: Job) => Job,
): Promise<void> {
  await store.write(['jobs'], async (tx) => {
    const job = await tx.get('jobs', jobId);
    if (job !== undefined) await tx.put('jobs', change(job));
  });
}

async function failJob(context: FullBackupJobContext, jobId: string, error: unknown) {
  const at = new Date(context.now()).toISOString();
  await updateJob(context.store, jobId, (job) => ({
    ...job,
    status: 'failed',
    finishedAt: at,
    message: message(error),
    errors: [{ record: null, reason: message(error) }],
  }));
}

/** Runs a queued 'full-backup' job: writes the file and keeps it in the device's list. */
export async function runFullBackupJob(
  context: FullBackupJobContext,
  request: {
    jobId: string;
    backupId: string;
    name: string;
    passphrase?: string;
    reason?: string;
    /** Jobs left out of the file besides this one. */
    excludeJobIds?: readonly string[];
    /**
     * A locked account's database, read as stored, backed up instead of the context's store
     * (which keeps the job and the file); its private rows stay sealed under `lockedAccount`.
     */
    locked?: { readonly source: LocalStore; readonly account: FullBackupLockedAccount };
  },
): Promise<FullBackupSummary> {
  const { store } = context;
  const startedAt = new Date(context.now()).toISOString();
  await updateJob(store, request.jobId, (job) => ({ ...job, status: 'running', startedAt }));
  try {
    const written = await writeFullBackup(request.locked?.source ?? store, {
      name: request.name,
      nowMs: context.now(),
      reason: request.reason ?? 'manual',
      crypto: context.crypto,
      deviceId: context.deviceId,
      excludeJobIds: [request.jobId, ...(request.excludeJobIds ?? [])],
      ...(request.passphrase === undefined ? {} : { passphrase: request.passphrase }),
      ...(context.kdf === undefined ? {} : { kdf: context.kdf }),
      ...(request.locked === undefined ? {} : { lockedAccount: request.locked.account }),
      onProgress: ({ written, total }) =>
        updateJob(store, request.jobId, (job) => ({
          ...job,
          progress: { ...job.progress, recordsRead: written, written, total },
        })),
    });
    const backup: FullBackup = {
      id: request.backupId,
      name: request.name,
      createdAt: written.manifest.createdAt,
      encrypted: written.encrypted,
      size: written.bytes.length,
      bytes: written.bytes,
    };
    const rows = Object.values(written.manifest.tables).reduce((sum, count) => sum + count, 0);
    const finishedAt = new Date(context.now()).toISOString();
    await store.write(['fullBackups', 'jobs'], async (tx) => {
      await tx.put('fullBackups', backup);
      const job = await tx.get('jobs', request.jobId);
      if (job !== undefined) {
        await tx.put('jobs', {
          ...job,
          status: 'done',
          finishedAt,
          progress: { ...job.progress, written: rows },
          message: null,
        });
      }
    });
    return fullBackupSummary(backup);
  } catch (error) {
    await failJob(context, request.jobId, error);
    throw error;
  }
}

export interface RestoreJobResult {
  readonly summary: RestoreSummary;
  /** The full backup of what was on the device before. */
  readonly before: FullBackupSummary;
}

interface RestoreJobRequest {
  jobId: string;
  bytes: Uint8Array;
  passphrase?: string;
  /** The password of the account whose locked work the file holds, when it holds one. */
  accountPassword?: string;
  label: string;
  /** Replace (the backup becomes the data) or merge (full-backup-merge.ts); replace unless said. */
  mode?: 'replace' | 'merge';
}

/**
 * Runs a queued 'full-backup-restore' job: checks the whole file, saves the device's data as a
 * full backup, then restores. Refused while another job (an import) is writing the store.
 */
export async function runRestoreJob(
  context: FullBackupJobContext,
  request: RestoreJobRequest,
): Promise<RestoreJobResult> {
  const { store } = context;
  const startedAt = new Date(context.now()).toISOString();
  try {
    const opened = await checkRestoreFile(context, request, startedAt);
    const { before, safetyJobId } = await saveBeforeRestore(context, request);
    const summary = await applyRestore(context, request, opened, safetyJobId);
    const finishedAt = new Date(context.now()).toISOString();
    await updateJob(store, request.jobId, (job) => ({
      ...job,
      status: 'done',
      finishedAt,
      progress: { ...job.progress, written: summary.written },
      result: {
        added: summary.added,
        updated: summary.updated,
        unchanged: summary.unchanged,
        removed: summary.removed,
      },
      message: `What was here before is in the full backup "${before.name}".`,
    }));
    return { summary, before };
  } catch (error) {
    await failJob(context, request.jobId, error);
    throw error;
  }
}

/** The restore's first step: the job marked running, the whole file opened and checked. */
async function checkRestoreFile(
  context: FullBackupJobContext,
  request: RestoreJobRequest,
  startedAt: string,
): Promise<OpenedFullBackup> {
  const { store } = context;
  const busy = await busyJobs(store, [request.jobId]);
  if (busy.length > 0) {
    throw new FullBackupError(
      'busy',
      'Another job is still running. Wait for it to finish (see Jobs), then restore.',
    );
  }
  await updateJob(store, request.jobId, (job) => ({
    ...job,
    status: 'running',
    startedAt,
    message: 'Checking the backup…',
  }));
  return openFullBackup(request.bytes, {
    crypto: context.crypto,
    ...(request.passphrase === undefined ? {} : { passphrase: request.passphrase }),
    ...(request.accountPassword === undefined ? {} : { accountPassword: request.accountPassword }),
    onProgress: ({ checked, total }) =>
      updateJob(store, request.jobId, (job) => ({
        ...job,
        progress: { ...job.progress, recordsRead: checked, total },
      })),
  });
}

/** What is on the device saved as a full backup of its own (a job beside the restore's). */
async function saveBeforeRestore(
  context: FullBackupJobContext,
  request: RestoreJobRequest,
): Promise<{ before: FullBackupSummary; safetyJobId: string }> {
  const { store } = context;
  await updateJob(store, request.jobId, (job) => ({
    ...job,
    message: 'Saving what is on this device first…',
  }));
  const safetyJobId = context.newId();
  const createdAt = new Date(context.now()).toISOString();
  const name = `Before restoring "${request.label}", ${createdAt.slice(0, 16).replace('T', ' ')} UTC`;
  await queueFullBackupJob(
    store,
    { id: safetyJobId, kind: 'full-backup', subjectId: safetyJobId, label: name },
    context.now(),
  );
  const before = await runFullBackupJob(context, {
    jobId: safetyJobId,
    backupId: context.newId(),
    name: name.slice(0, 200),
    reason: 'before-restore',
    excludeJobIds: [request.jobId],
  });
  return { before, safetyJobId };
}

/** The checked backup replaces the device's data, or is merged into it, in one transaction. */
async function applyRestore(
  context: FullBackupJobContext,
  request: RestoreJobRequest,
  opened: OpenedFullBackup,
  safetyJobId: string,
): Promise<RestoreSummary> {
  const merge = request.mode === 'merge';
  const { store } = context;
  await updateJob(store, request.jobId, (job) => ({
    ...job,
    message: merge
      ? 'Merging the backup into the data on this device…'
      : 'Replacing the data on this device…',
  }));
  return merge
    ? mergeSummary(
        await mergeFullBackup(store, opened, {
          deviceId: context.deviceId,
          nowMs: context.now(),
        }),
      )
    : await restoreFullBackup(store, opened, {
        deviceId: context.deviceId,
        nowMs: context.now(),
        keepJobIds: [request.jobId, safetyJobId],
      });
}

/** A merge's counts in a restore's terms: it adds and changes, never removes. */
function mergeSummary(merged: FullBackupMergeSummary): RestoreSummary {
  const kinds = Object.entries(merged.kinds) as [SyncedTable, MergeKindCount][];
  const added = kinds.reduce((sum, [, count]) => sum + count.added, 0) + merged.billsAdded;
  const updated = kinds.reduce((sum, [, count]) => sum + count.changed, 0);
  return {
    written: added + updated + merged.filesAdded,
    added,
    updated,
    unchanged: 0,
    removed: 0,
    tables: kinds.filter(([, count]) => count.added + count.changed > 0).map(([table]) => table),
  };
}

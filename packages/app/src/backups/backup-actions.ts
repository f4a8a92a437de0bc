import {
  buildBackupContents,
  countBackup,
  type BackupContents,
} from '@docket/core/backup-contents';
import {
  backupErrorMessage,
  openBackupContents,
  openBackupMetadata,
  sealBackup,
  type BackupMetadata,
} from '@docket/core/backup-crypto';
import { advanceBackupJob, finishBackupJob, startBackupJob } from '@docket/core/backup-job';
import { applyRestore, type RestoreMode, type RestoreResult } from '@docket/core/backup-restore';
import type { LocalStore } from '@docket/core/local-store';
import type { BackupSummary } from '@docket/protocol/backups';
import { ApiRequestError, type ApiClient } from '../api/api-client.ts';
import { billCommandContext, pageLocalStore } from '../bills/bill-command-services.ts';
import { browserCrypto } from '../sync/browser-crypto.ts';
import type { DeviceCloudKeys } from '../sync/cloud-keys-store.ts';
import { traceJobEnd } from '../trace/trace-events.ts';
import { fetchBackup, listBackups, uploadBackup, uploadBackupMetadata } from './backups-api.ts';

// What the backup screens do, each step in core or on the server: reading the user's work,
// sealing it with the sync data key, uploading; listing and opening; restoring as a job.

export interface BackupListEntry {
  readonly summary: BackupSummary;
  /** The decrypted name, description and counts; null when they cannot be opened. */
  readonly metadata: BackupMetadata | null;
  /** Why it cannot be opened, for the user; null when it can. */
  readonly problem: string | null;
}

export const OLD_EPOCH_PROBLEM =
  'Made before the cloud password was reset: it was encrypted with the old key, which no device has any more, so it cannot be opened. You can delete it.';

function keyContext(userId: string, summary: { id: string; epoch: number }) {
  return { userId, backupId: summary.id, epoch: summary.epoch };
}

function problemOf(keys: DeviceCloudKeys, summary: BackupSummary): string | null {
  if (summary.epoch < keys.keyEpoch) return OLD_EPOCH_PROBLEM;
  if (summary.epoch > keys.keyEpoch) {
    return 'Made with a newer cloud password than this device has. Enter the current cloud password under More, then try again.';
  }
  return null;
}

export async function loadBackupList(
  api: ApiClient,
  userId: string,
  keys: DeviceCloudKeys,
): Promise<BackupListEntry[]> {
  const summaries = await listBackups(api);
  return Promise.all(
    summaries.map(async (summary): Promise<BackupListEntry> => {
      const problem = problemOf(keys, summary);
      if (problem !== null) return { summary, metadata: null, problem };
      try {
        const metadata = await openBackupMetadata(
          browserCrypto,
          keys.dataKey,
          summary.metadata,
          keyContext(userId, summary),
        );
        return { summary, metadata, problem: null };
      } catch (error) {
        return { summary, metadata: null, problem: backupErrorMessage(error) };
      }
    }),
  );
}

export interface OpenedBackup {
  readonly summary: BackupSummary;
  readonly metadata: BackupMetadata;
  readonly contents: BackupContents;
}

/** Downloads and opens one backup; throws an Error whose message is for the user. */
export async function openBackup(
  api: ApiClient,
  userId: string,
  keys: DeviceCloudKeys,
  id: string,
): Promise<OpenedBackup> {
  const backup = await fetchBackup(api, id);
  const problem = problemOf(keys, backup);
  if (problem !== null) throw new Error(problem);
  try {
    const context = keyContext(userId, backup);
    const [metadata, contents] = await Promise.all([
      openBackupMetadata(browserCrypto, keys.dataKey, backup.metadata, context),
      openBackupContents(browserCrypto, keys.dataKey, backup.ciphertext, context),
    ]);
    return { summary: backup, metadata, contents };
  } catch (error) {
    throw new Error(backupErrorMessage(error));
  }
}

function messageOf(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  if (error instanceof Error && error.message !== '') return error.message;
  return 'Something went wrong.';
}

/** Ends a backup or restore job, and writes its end to the trace as every job's end is. */
async function endJob(
  store: LocalStore,
  jobId: string,
  outcome: Parameters<typeof finishBackupJob>[2],
): Promise<void> {
  await finishBackupJob(store, jobId, outcome);
  // The row as stored, so the trace says what the jobs screen says.
  const job = await store.read(['jobs'], (tx) => tx.get('jobs', jobId));
  if (job !== undefined) await traceJobEnd(store, job);
}

/** Makes a backup as a 'backup' job; resolves with the backup's id once it is on the server. */
export async function createBackup(input: {
  api: ApiClient;
  userId: string;
  keys: DeviceCloudKeys;
  name: string;
  description: string;
}): Promise<string> {
  const store = await pageLocalStore();
  const backupId = crypto.randomUUID();
  const job = await startBackupJob(store, {
    id: crypto.randomUUID(),
    kind: 'backup',
    subjectId: backupId,
    label: input.name,
    at: new Date().toISOString(),
  });
  try {
    const contents = await buildBackupContents(store, new Date().toISOString());
    await advanceBackupJob(store, job.id, 1);
    const epoch = input.keys.keyEpoch;
    const sealed = await sealBackup(
      browserCrypto,
      input.keys.dataKey,
      contents,
      { name: input.name, description: input.description, counts: countBackup(contents) },
      { userId: input.userId, backupId, epoch },
    );
    await advanceBackupJob(store, job.id, 2);
    await uploadBackup(input.api, {
      id: backupId,
      epoch,
      metadata: sealed.metadata,
      ciphertext: sealed.ciphertext,
    });
    await endJob(store, job.id, {
      status: 'done',
      at: new Date().toISOString(),
      message: 'Saved on the server, encrypted.',
    });
    return backupId;
  } catch (error) {
    await endJob(store, job.id, {
      status: 'failed',
      at: new Date().toISOString(),
      message: messageOf(error),
    });
    throw new Error(messageOf(error));
  }
}

/** A new name and description for a backup, sealed again under the backup's own epoch. */
export async function renameBackup(input: {
  api: ApiClient;
  userId: string;
  keys: DeviceCloudKeys;
  backup: OpenedBackup;
  name: string;
  description: string;
}): Promise<void> {
  const { summary, contents } = input.backup;
  const sealed = await sealBackup(
    browserCrypto,
    input.keys.dataKey,
    contents,
    { name: input.name, description: input.description, counts: countBackup(contents) },
    keyContext(input.userId, summary),
  );
  await uploadBackupMetadata(input.api, summary.id, sealed.metadata);
}

/** Restores (or imports) contents as a 'restore' job, after a safety copy of this device's work. */
export async function restoreContents(input: {
  contents: BackupContents;
  mode: RestoreMode;
  subjectId: string;
  label: string;
}): Promise<RestoreResult> {
  const context = await billCommandContext();
  const store = context.store;
  const job = await startBackupJob(store, {
    id: crypto.randomUUID(),
    kind: 'restore',
    subjectId: input.subjectId,
    label: input.label,
    at: new Date().toISOString(),
  });
  try {
    await advanceBackupJob(store, job.id, 1);
    const result = await applyRestore(store, input.contents, input.mode, {
      deviceId: context.deviceId,
      nowMs: Date.now(),
      safetyCopyId: crypto.randomUUID(),
      backupName: input.label,
    });
    const kinds = Object.values(result.summary.kinds);
    await endJob(store, job.id, {
      status: 'done',
      at: new Date().toISOString(),
      message: `${input.mode === 'replace' ? 'Replaced' : 'Merged'}. Your data from before is kept as the full backup “${result.safetyCopy.name}”.`,
      result: {
        added: kinds.reduce((sum, kind) => sum + kind.added, 0) + result.summary.billsAdded,
        updated: kinds.reduce((sum, kind) => sum + kind.changed, 0),
        unchanged: 0,
        removed: kinds.reduce((sum, kind) => sum + kind.removed, 0),
      },
    });
    return result;
  } catch (error) {
    await endJob(store, job.id, {
      status: 'failed',
      at: new Date().toISOString(),
      message: messageOf(error),
    });
    throw new Error(messageOf(error));
  }
}

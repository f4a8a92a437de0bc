import {
  backupErrorMessage,
  type BackupContents,
  type BackupMetadata,
  BackupOpenError,
  countBackup,
  openBackupMetadata,
  PublicLinkKeyError,
  type RestoreMode,
  type RestoreResult,
  sealBackupMetadata,
  type SharedLink,
} from '@docket/core/backups';
import type { BackupSummary } from '@docket/protocol/backups';
import { proxy } from 'comlink';
import { ApiRequestError, type ApiClient } from '../api/api-client.ts';
import { userDataWorker } from '../user-data-worker/user-data-client.ts';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import type { DeviceCloudKeys } from '../sync/cloud-keys-store.ts';
import type { RestorePlans } from '../user-data-worker/backup-runner.ts';
import { activeWorkspaceId } from '../local-store/account-databases.ts';
import { fetchBackup, listBackups, uploadBackup, uploadBackupMetadata } from './backups-api.ts';

// What the backup screens do, each step in core or on the server: reading the user's work,
// sealing it with the sync data key, uploading; listing and opening; restoring as a job. The
// heavy steps (reading the store, sealing, opening contents, planning and applying a restore)
// run in the user-data worker (backup-runner.ts), which also writes the jobs' rows; the page
// keeps the calls to the server, whose client carries the platform's credentials.

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

/**
 * The account's backups of the space the page works in (a backup says, sealed, which space it was
 * made in), and how many belong to its other spaces. One that cannot be opened cannot say: it is
 * listed in every space, where it can be deleted.
 */
export async function loadBackupList(
  api: ApiClient,
  userId: string,
  keys: DeviceCloudKeys,
): Promise<{ readonly entries: BackupListEntry[]; readonly elsewhere: number }> {
  const all = await openBackupList(api, userId, keys);
  const here = all.filter((entry) => entry.metadata === null || isOfThisSpace(entry.metadata));
  return { entries: here, elsewhere: all.length - here.length };
}

/** Whether a backup was made in the space the page works in. */
export function isOfThisSpace(metadata: BackupMetadata): boolean {
  return (metadata.workspaceId ?? null) === activeWorkspaceId();
}

/** Why a backup of another space is not opened here (a restore would write it into this one). */
export function otherSpaceProblem(metadata: BackupMetadata): string {
  const where =
    metadata.workspaceId === undefined
      ? 'your personal space: open it from More, Workspaces, “Open personal space”,'
      : activeWorkspaceId() === null
        ? 'a team workspace’s space: open that workspace from More, Workspaces,'
        : 'another workspace’s space: open it from More, Workspaces,';
  return `This backup was made in ${where} to preview, restore or publish it. Restored here, its work would land in the wrong space.`;
}

async function openBackupList(
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
  let opened;
  try {
    opened = await userDataWorker().openBackup(backup, userId, keys.dataKey);
  } catch (error) {
    throw new Error(backupErrorMessage(error));
  }
  if (!opened.ok) throw new Error(opened.message);
  if (!isOfThisSpace(opened.metadata)) throw new Error(otherSpaceProblem(opened.metadata));
  return { summary: backup, metadata: opened.metadata, contents: opened.contents };
}

function messageOf(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  if (error instanceof Error && error.message !== '') return error.message;
  return 'Something went wrong.';
}

/** Makes a backup as a 'backup' job; resolves with the backup's id once it is on the server. */
export async function createBackup(input: {
  api: ApiClient;
  userId: string;
  keys: DeviceCloudKeys;
  name: string;
  description: string;
}): Promise<string> {
  try {
    return await userDataWorker().createBackup(
      {
        userId: input.userId,
        epoch: input.keys.keyEpoch,
        dataKey: input.keys.dataKey,
        name: input.name,
        description: input.description,
        workspaceId: activeWorkspaceId(),
      },
      proxy(async (body) => {
        await uploadBackup(input.api, body);
      }),
    );
  } catch (error) {
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
  // Only the metadata is sent, so only it is sealed: the contents stay as they are.
  const metadata = await sealBackupMetadata(
    browserCrypto,
    input.keys.dataKey,
    {
      name: input.name,
      description: input.description,
      counts: countBackup(contents),
      // A rename keeps the space the backup was made in.
      workspaceId: input.backup.metadata.workspaceId,
    },
    keyContext(input.userId, summary),
  );
  await uploadBackupMetadata(input.api, summary.id, metadata);
}

/** Opens a public link; throws what the link screen tells its viewer. */
export async function openLink(
  ciphertext: string,
  fragmentKey: string,
  linkId: string,
): Promise<SharedLink> {
  const opened = await userDataWorker().openLink(ciphertext, fragmentKey, linkId);
  if (opened.ok) return opened.link;
  if (opened.keyProblem !== null) throw new PublicLinkKeyError(opened.keyProblem);
  throw new BackupOpenError(opened.code, opened.message);
}

/** What Replace and Merge would change on this device; writes nothing. */
export function planRestores(contents: BackupContents): Promise<RestorePlans> {
  return userDataWorker().planRestore(contents);
}

/** Restores (or imports) contents as a 'restore' job, after a safety copy of this device's work. */
export async function restoreContents(input: {
  contents: BackupContents;
  mode: RestoreMode;
  subjectId: string;
  label: string;
}): Promise<RestoreResult> {
  try {
    return await userDataWorker().restoreContents(input);
  } catch (error) {
    throw new Error(messageOf(error));
  }
}

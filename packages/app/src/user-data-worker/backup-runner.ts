import type { BillCommandContext } from '@docket/core/commands';
import {
  advanceBackupJob,
  applyRestore,
  backupErrorMessage,
  type BackupContents,
  type BackupMetadata,
  BackupOpenError,
  type BackupOpenErrorCode,
  buildBackupContents,
  countBackup,
  countLink,
  finishBackupJob,
  type LinkChoices,
  type LinkCounts,
  type LinkKeyProblem,
  makeListLinkPayload,
  openBackupContents,
  openBackupMetadata,
  openLinkContents,
  planRestore,
  PublicLinkKeyError,
  type RestoreMode,
  type RestorePlanSummary,
  type RestoreResult,
  sealBackup,
  sealLinkContents,
  type SharedLink,
  startBackupJob,
} from '@docket/core/backups';
import type { OpaqueCryptoKey } from '@docket/core/crypto';
import type { LocalStore } from '@docket/core/store';
import type { BackupResponse, CreateBackupRequest } from '@docket/protocol/backups';
import type { CreateLinkRequest } from '@docket/protocol/public-links';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import { traceJobEnd } from '../trace/trace-events.ts';

// What the backup screens ask of the user-data worker, written against a command context so it
// runs the same in the worker and in unit tests: reading the user's work and sealing it,
// opening (decrypting, decompressing, checking) a backup or a shared link, working out and
// applying a restore. With tens of thousands of bills each of these freezes a page; here it
// does not. The server is the page's to call (its API client carries the platform's
// credentials): a backup is uploaded through the function the page passes in.

export interface NewBackup {
  readonly userId: string;
  readonly epoch: number;
  /** The sync data key (non-extractable; a CryptoKey crosses to a worker by structured clone). */
  readonly dataKey: OpaqueCryptoKey;
  readonly name: string;
  readonly description: string;
  /** The team workspace whose space the page works in (its data is what is read); null: personal. */
  readonly workspaceId: string | null;
}

/** What a new backup's list entry says: its name, description, counts and space. */
function metadataOf(request: NewBackup, contents: BackupContents): BackupMetadata {
  return {
    name: request.name,
    description: request.description,
    counts: countBackup(contents),
    ...(request.workspaceId === null ? {} : { workspaceId: request.workspaceId }),
  };
}

/** Sends a sealed backup to the server; rejects with a message for the user. */
export type UploadBackup = (body: CreateBackupRequest) => Promise<void>;

/** A list of the Tracked tab to share: a backup of its bills, published as a public link. */
export interface NewListShare extends NewBackup {
  /** The bills the list shows, in its order. */
  readonly billIds: readonly string[];
  /** Whether the link carries the sharer's notes on those bills. */
  readonly notes: boolean;
  /** The team workspace's name when shared from its space: the link's page says it. */
  readonly workspace?: string | undefined;
}

/** Sends a sealed link to the server; rejects with a message for the user. */
export type PublishLink = (body: CreateLinkRequest) => Promise<void>;

/** A list shared: its backup and link, the link's key (for its address only) and what it holds. */
export interface SharedList {
  readonly backupId: string;
  readonly linkId: string;
  readonly fragmentKey: string;
  readonly choices: LinkChoices;
  readonly counts: LinkCounts;
}

export type BackupOpening =
  | { readonly ok: true; readonly metadata: BackupMetadata; readonly contents: BackupContents }
  | { readonly ok: false; readonly message: string };

export type LinkOpening =
  | { readonly ok: true; readonly link: SharedLink }
  | {
      readonly ok: false;
      /** What is wrong with the fragment's key, or null when the key was fine. */
      readonly keyProblem: LinkKeyProblem | null;
      readonly code: BackupOpenErrorCode;
      readonly message: string;
    };

export interface RestorePlans {
  readonly replace: RestorePlanSummary;
  readonly merge: RestorePlanSummary;
}

export interface RestoreRequest {
  readonly contents: BackupContents;
  readonly mode: RestoreMode;
  readonly subjectId: string;
  readonly label: string;
}

export interface BackupsApi {
  /** Makes a backup as a 'backup' job; resolves with its id once `upload` has put it on the server. */
  createBackup(request: NewBackup, upload: UploadBackup): Promise<string>;
  /**
   * Shares a list as one 'backup' job: a backup of exactly its bills, uploaded, then a public
   * link of it sealed under a fresh key and published; the key comes back, never sent.
   */
  shareList(request: NewListShare, upload: UploadBackup, publish: PublishLink): Promise<SharedList>;
  /** Opens a backup the server sent; touches nothing local. */
  openBackup(
    backup: BackupResponse,
    userId: string,
    dataKey: OpaqueCryptoKey,
  ): Promise<BackupOpening>;
  /** Opens a public link (its name, choices and contents) with the key of its fragment. */
  openLink(ciphertext: string, fragmentKey: string | null, linkId: string): Promise<LinkOpening>;
  /** What Replace and Merge would change; writes nothing. */
  planRestore(contents: BackupContents): Promise<RestorePlans>;
  /** Restores (or imports) contents as a 'restore' job, after a safety copy of this device's work. */
  restoreContents(request: RestoreRequest): Promise<RestoreResult>;
}

function messageOf(error: unknown): string {
  // An error from the page's upload arrives as a plain Error carrying the API's message.
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

/**
 * A backup as a 'backup' job: read (everything, or `only` the listed bills), sealed, uploaded;
 * then `finish`, in the same job, whose message ends it and whose result is returned.
 */
async function backUp<Result>(
  context: () => Promise<BillCommandContext>,
  request: NewBackup,
  upload: UploadBackup,
  only: { readonly billIds: readonly string[] } | null,
  finish: (
    backupId: string,
    contents: BackupContents,
  ) => Promise<{ readonly message: string; readonly result: Result }>,
): Promise<Result> {
  const { store, now } = await context();
  const at = () => new Date(now()).toISOString();
  const backupId = crypto.randomUUID();
  const job = await startBackupJob(store, {
    id: crypto.randomUUID(),
    kind: 'backup',
    subjectId: backupId,
    label: request.name,
    at: at(),
  });
  try {
    const contents = await buildBackupContents(store, at(), only ?? undefined);
    await advanceBackupJob(store, job.id, 1);
    const keyContext = { userId: request.userId, backupId, epoch: request.epoch };
    const sealed = await sealBackup(
      browserCrypto,
      request.dataKey,
      contents,
      metadataOf(request, contents),
      keyContext,
    );
    await advanceBackupJob(store, job.id, 2);
    await upload({
      id: backupId,
      epoch: request.epoch,
      metadata: sealed.metadata,
      ciphertext: sealed.ciphertext,
    });
    const { message, result } = await finish(backupId, contents);
    await endJob(store, job.id, { status: 'done', at: at(), message });
    return result;
  } catch (error) {
    await endJob(store, job.id, { status: 'failed', at: at(), message: messageOf(error) });
    throw new Error(messageOf(error));
  }
}

/** A restore (or a shared link's import) as a 'restore' job, after a safety copy of this device's work. */
async function restoreAsJob(
  context: () => Promise<BillCommandContext>,
  request: RestoreRequest,
): Promise<RestoreResult> {
  // This device's id and clock as every command of the page has them: the outbox entries
  // the restore writes are this device's.
  const { store, deviceId, now } = await context();
  const at = () => new Date(now()).toISOString();
  const job = await startBackupJob(store, {
    id: crypto.randomUUID(),
    kind: 'restore',
    subjectId: request.subjectId,
    label: request.label,
    at: at(),
  });
  try {
    await advanceBackupJob(store, job.id, 1);
    const result = await applyRestore(store, request.contents, request.mode, {
      deviceId,
      nowMs: now(),
      safetyCopyId: crypto.randomUUID(),
      backupName: request.label,
    });
    const kinds = Object.values(result.summary.kinds);
    await endJob(store, job.id, {
      status: 'done',
      at: at(),
      message: `${request.mode === 'replace' ? 'Replaced' : 'Merged'}. Your data from before is kept as the full backup “${result.safetyCopy.name}”.`,
      result: {
        added: kinds.reduce((sum, kind) => sum + kind.added, 0) + result.summary.billsAdded,
        updated: kinds.reduce((sum, kind) => sum + kind.changed, 0),
        unchanged: 0,
        removed: kinds.reduce((sum, kind) => sum + kind.removed, 0),
      },
    });
    return result;
  } catch (error) {
    await endJob(store, job.id, { status: 'failed', at: at(), message: messageOf(error) });
    throw new Error(messageOf(error));
  }
}

export function createBackupRunner(context: () => Promise<BillCommandContext>): BackupsApi {
  return {
    async createBackup(request, upload) {
      return backUp(context, request, upload, null, (backupId) =>
        Promise.resolve({ message: 'Saved on the server, encrypted.', result: backupId }),
      );
    },

    async shareList(request, upload, publish) {
      const only = { billIds: request.billIds };
      return backUp(context, request, upload, only, async (backupId, contents) => {
        const linkId = crypto.randomUUID();
        const payload = makeListLinkPayload(contents, request, { notes: request.notes });
        const sealed = await sealLinkContents(browserCrypto, payload, linkId);
        // Never expires, as a backup's link by default; revoked from the backup's link screen.
        await publish({ id: linkId, backupId, ciphertext: sealed.ciphertext, expiresAt: null });
        return {
          message: 'Saved on the server, encrypted, and shared as a public link.',
          result: {
            backupId,
            linkId,
            fragmentKey: sealed.fragmentKey,
            choices: payload.choices,
            counts: countLink(payload.contents),
          },
        };
      });
    },

    async openBackup(backup, userId, dataKey) {
      const keyContext = { userId, backupId: backup.id, epoch: backup.epoch };
      try {
        const [metadata, contents] = await Promise.all([
          openBackupMetadata(browserCrypto, dataKey, backup.metadata, keyContext),
          openBackupContents(browserCrypto, dataKey, backup.ciphertext, keyContext),
        ]);
        return { ok: true, metadata, contents };
      } catch (error) {
        return { ok: false, message: backupErrorMessage(error) };
      }
    },

    async openLink(ciphertext, fragmentKey, linkId) {
      try {
        const link = await openLinkContents(browserCrypto, ciphertext, fragmentKey, linkId);
        return { ok: true, link };
      } catch (error) {
        return {
          ok: false,
          keyProblem: error instanceof PublicLinkKeyError ? error.problem : null,
          code: error instanceof BackupOpenError ? error.code : 'invalid',
          message: error instanceof PublicLinkKeyError ? error.message : backupErrorMessage(error),
        };
      }
    },

    async planRestore(contents) {
      const { store } = await context();
      const [replace, merge] = await Promise.all([
        planRestore(store, contents, 'replace'),
        planRestore(store, contents, 'merge'),
      ]);
      return { replace, merge };
    },

    restoreContents: (request) => restoreAsJob(context, request),
  };
}

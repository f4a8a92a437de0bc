import type { SyncChange } from '@docket/protocol/sync-changes';
import {
  openEnvelope,
  sealEnvelope,
  SEALED_OVERHEAD_BYTES,
  SyncCryptoError,
} from '../crypto/sync-crypto.ts';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';
import {
  openWorkspaceChange,
  sealWorkspaceChange,
  WORKSPACE_CHANGE_OVERHEAD_BYTES,
  type WorkspaceKey,
} from '../crypto/workspace-keys.ts';
import { WorkspaceKeyError } from '../crypto/member-keys.ts';
import type { SyncedTable } from '../store/local-records.ts';
import { SyncEngineError } from './sync-errors.ts';
import type { SyncSession } from './sync-engine.ts';

// How one space's changes are sealed and opened, so one sync engine (sync-engine.ts) serves the
// personal space and each team workspace (issue 39) alike:
//
// - the personal space seals under the cloud data key of the current key epoch, bound to the
//   user, the epoch and the batch (sync-crypto.ts). A change of a newer epoch means the cloud
//   password was reset elsewhere; one of an older epoch is from before a reset this device
//   already followed, and is passed over.
// - a workspace seals under its key ring's newest key, bound to the workspace, the author and the
//   batch (workspace-keys.ts). A change under an older key version still opens with that
//   version's key (nothing a team wrote before a removal is lost); one under a newer version than
//   the ring holds means the workspace has a key this device has not fetched yet.

/** A member's API keys: each member's device fetches a team dataset with its own. */
const WORKSPACE_DEVICE_TABLES: ReadonlySet<SyncedTable> = new Set(['apiKeys']);

/** One space's sealing and opening, as the sync engine uses them. */
export interface SyncEnvelopes {
  /** The epoch a push names: the personal key epoch, or the workspace's key version. */
  readonly pushEpoch: number;
  /** Bytes sealing adds to a plaintext, so envelopes are packed under the server's cap. */
  readonly overheadBytes: number;
  /**
   * Whether the space's dataset files travel through the server: the personal space's do; a
   * workspace's datasets are shared as definitions, each member fetching the bills itself.
   */
  readonly datasetFiles: boolean;
  /**
   * Whether this account pushes to the space's log: a workspace's viewer only reads (the server
   * refuses its pushes), so its outbox stays on the device and the run only pulls.
   */
  readonly pushes: boolean;
  /**
   * Whether each pulled change names its author, bound by its seal: a workspace's do, and the
   * pull records who wrote what (change-authors.ts); the personal space's are all the account's.
   */
  readonly authored: boolean;
  /**
   * Synced tables whose rows stay on this device in this space: a workspace's API keys are each
   * member's own secret, never sent to the team (a pulled one is passed over).
   */
  readonly deviceTables: ReadonlySet<SyncedTable>;
  /** The sealed envelope, in base64 as the push carries it. */
  seal(plaintext: Uint8Array, batchId: string): Promise<string>;
  /**
   * Opens a pulled change, or says to pass over it (`'skip'`). A change that cannot be opened
   * throws a SyncEngineError naming it (`epoch-mismatch`, `missing-key`, `tampered`).
   */
  open(change: SyncChange): Promise<Uint8Array | 'skip'>;
}

/** The personal space: sealed under the cloud data key of the session's epoch. */
export function personalEnvelopes(
  crypto: WebCryptoPort,
  session: { readonly userId: string; readonly epoch: number; readonly dataKey: OpaqueCryptoKey },
): SyncEnvelopes {
  return {
    pushEpoch: session.epoch,
    overheadBytes: SEALED_OVERHEAD_BYTES,
    datasetFiles: true,
    pushes: true,
    authored: false,
    deviceTables: new Set(),
    seal: (plaintext, batchId) =>
      sealEnvelope(crypto, session.dataKey, plaintext, {
        userId: session.userId,
        epoch: session.epoch,
        batchId,
      }),
    open: async (change) => {
      if (change.epoch > session.epoch) {
        throw new SyncEngineError(
          'epoch-mismatch',
          'The cloud password was reset on another device: enter the new one to go on syncing.',
        );
      }
      if (change.epoch < session.epoch) return 'skip';
      try {
        return await openEnvelope(crypto, session.dataKey, change.ciphertext, {
          userId: session.userId,
          epoch: change.epoch,
          batchId: change.batchId,
        });
      } catch (error) {
        if (error instanceof SyncCryptoError) throw tampered(change, 'your key');
        throw error;
      }
    },
  };
}

/** A workspace's change as pulled: the log's change and the member who pushed it. */
export type PulledWorkspaceChange = SyncChange & { readonly authorUserId: string };

/**
 * A team workspace: sealed under the newest key of `keyring`, bound to the author (this
 * account); each pulled change opened with the key of the version it names, bound to the author
 * the server says pushed it (so a server that moves a change to another member is caught).
 */
export function workspaceEnvelopes(
  crypto: WebCryptoPort,
  input: {
    readonly workspaceId: string;
    /** This account: the author of what it pushes. */
    readonly userId: string;
    /** Every key version this account was given, the newest sealing. */
    readonly keyring: readonly WorkspaceKey[];
    /** A viewer: the run pulls and pushes nothing. */
    readonly readOnly?: boolean;
  },
): SyncEnvelopes {
  const ring = input.keyring.filter((key) => key.workspaceId === input.workspaceId);
  const newest = newestKey(ring);
  return {
    pushEpoch: newest.version,
    overheadBytes: WORKSPACE_CHANGE_OVERHEAD_BYTES,
    datasetFiles: false,
    pushes: input.readOnly !== true,
    authored: true,
    deviceTables: WORKSPACE_DEVICE_TABLES,
    seal: async (plaintext, batchId) =>
      encodeBase64(
        await sealWorkspaceChange(crypto, newest, plaintext, {
          workspaceId: input.workspaceId,
          authorUserId: input.userId,
          batchId,
        }),
      ),
    open: async (change) => {
      const authorUserId = (change as Partial<PulledWorkspaceChange>).authorUserId;
      if (typeof authorUserId !== 'string') {
        throw new SyncEngineError(
          'protocol',
          `The server sent workspace change ${change.seqno} without its author.`,
        );
      }
      if (change.epoch > newest.version) {
        throw new SyncEngineError(
          'epoch-mismatch',
          'The workspace has a new key this device has not fetched yet: fetch the workspace’s keys and sync again.',
        );
      }
      const sealed = decodeBase64(change.ciphertext);
      if (sealed === null) throw tampered(change, 'the workspace’s key');
      try {
        return await openWorkspaceChange(crypto, ring, sealed, {
          workspaceId: input.workspaceId,
          authorUserId,
          batchId: change.batchId,
        });
      } catch (error) {
        if (!(error instanceof WorkspaceKeyError)) throw error;
        if (error.code === 'missing-key-version') {
          throw new SyncEngineError(
            'missing-key',
            `Change ${change.seqno} is sealed under key version ${change.epoch} of the workspace, which this account was never given. Nothing from it was applied.`,
            change.seqno,
          );
        }
        throw tampered(change, 'the workspace’s key');
      }
    },
  };
}

/** The newest key of a workspace's ring: the one new changes are sealed under. */
function newestKey(ring: readonly WorkspaceKey[]): WorkspaceKey {
  const newest = ring.reduce<WorkspaceKey | null>(
    (best, key) => (best === null || key.version > best.version ? key : best),
    null,
  );
  if (newest === null) {
    throw new SyncEngineError(
      'missing-key',
      'This device holds no key for the workspace yet: the owner has not confirmed you, or the key has not been fetched.',
    );
  }
  return newest;
}

function tampered(change: SyncChange, key: string): SyncEngineError {
  return new SyncEngineError(
    'tampered',
    `Change ${change.seqno} from device ${change.deviceId} failed its integrity check: it was altered, or was not made with ${key}. Nothing from it was applied.`,
    change.seqno,
  );
}

/**
 * What `runSync` needs to sync a workspace's own local database: the session (the pull cursor
 * under one epoch for good, so a key rotation does not send the device back to the log's start)
 * and the workspace's envelopes.
 */
export function workspaceSync(
  crypto: WebCryptoPort,
  input: {
    readonly workspaceId: string;
    readonly userId: string;
    readonly deviceId: string;
    readonly keyring: readonly WorkspaceKey[];
    /** A viewer: the run pulls and pushes nothing. */
    readonly readOnly?: boolean;
  },
): { session: SyncSession; envelopes: SyncEnvelopes } {
  const newest = newestKey(input.keyring.filter((key) => key.workspaceId === input.workspaceId));
  return {
    session: {
      userId: input.userId,
      deviceId: input.deviceId,
      epoch: WORKSPACE_CURSOR_EPOCH,
      // Workspaces carry no dataset files, which is all the session's key is for besides the
      // personal envelopes.
      dataKey: newest.key,
      epochStartSeqno: 0,
    },
    envelopes: workspaceEnvelopes(crypto, input),
  };
}

/** The epoch a workspace's pull cursor is kept under, whatever its key version. */
export const WORKSPACE_CURSOR_EPOCH = 0;

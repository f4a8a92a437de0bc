import type { SyncStatus, SyncTransport } from '@docket/core/sync';
import type { LocalStore } from '@docket/core/store';
import type { OpaqueCryptoKey, WebCryptoPort, WorkspaceKey } from '@docket/core/crypto';
import type { TraceInput } from '@docket/core/device';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import type { DeviceCloudKeys } from './cloud-keys-store.ts';
import type { BringBack } from './bring-back.ts';

// What the sync runner (sync-runner.ts) shows, holds and is given: the view the header and the
// More tab read, the state its subscribers see, and the dependencies the page (sync-service.ts)
// and the tests (sync-runner-harness.ts) build it with.

export type SyncView =
  /** Not signed in: nothing to show. */
  | { readonly kind: 'signed-out' }
  | { readonly kind: 'offline' }
  | { readonly kind: 'needs-password'; readonly mode: 'set' | 'enter' }
  /** This device could sync, but the user has not accepted the current terms of service. */
  | { readonly kind: 'needs-terms' }
  | {
      readonly kind: 'syncing';
      readonly phase: 'start' | 'push' | 'pull' | 'upload-files' | 'download-files';
      readonly done: number;
      readonly total: number | null;
      /** Dataset files: the bytes moved, and of how many when known. */
      readonly bytes?: { readonly done: number; readonly total: number | null };
    }
  | { readonly kind: 'up-to-date'; readonly at: string }
  | {
      readonly kind: 'error';
      readonly message: string;
      /** When the next try starts by itself; null when it waits for the user. */
      readonly retryAt: number | null;
      /** The repair on offer: the unreadable change the user may skip. */
      readonly skippable?: number;
      /** The repair on offer: the outbox entry that can never be sent, which the user may skip. */
      readonly unsendable?: string;
      /** The repair on offer: this device holds another account's work (sync-owner.ts). */
      readonly handOver?: true;
    };

export interface SyncRunnerState {
  readonly status: SyncStatus;
  readonly retrySeqno: number;
  readonly view: SyncView;
  /** The end of the last run that completed, ISO 8601. */
  readonly lastSyncedAt: string | null;
  /** Something the user must be told once (a revert after a reset), until they dismiss it. */
  readonly notice: string | null;
  /** With a revert's notice: the full backup whose work "Bring back my changes" merges back. */
  readonly bringBackFrom: string | null;
  /**
   * Whether the terms should be put in front of the user now: set when a run first stops for
   * them (once per user and page), cleared when the user answers or sets them aside.
   */
  readonly askTerms: boolean;
}

export interface SyncRunnerDeps {
  readonly store: () => Promise<LocalStore>;
  readonly deviceId: () => Promise<string>;
  readonly fetchSettings: () => Promise<SyncSettings>;
  readonly loadKeys: (userId: string) => Promise<DeviceCloudKeys | null>;
  readonly transport: SyncTransport;
  readonly crypto: WebCryptoPort;
  readonly trace: (entry: TraceInput) => Promise<void>;
  /** Runs the body while no other tab of this device syncs (Web Locks in the app). */
  readonly exclusive: <T>(body: () => Promise<T>) => Promise<T>;
  readonly now: () => number;
  readonly random: () => number;
  /** A fresh id for a full backup. */
  readonly newId: () => string;
  readonly setTimer: (callback: () => void, ms: number) => unknown;
  readonly clearTimer: (handle: unknown) => void;
  /** After a run that completed: start the imports of datasets that came from other devices. */
  readonly importSyncedDatasets?: () => Promise<number>;
  /**
   * Whether the user accepted the current terms of service (the server's record). Nothing syncs
   * until they have; absent, the terms are taken as accepted.
   */
  readonly termsAccepted?: () => Promise<boolean>;
  /** "Bring back my changes" after a revert (bring-back.ts); absent, the revert only tells. */
  readonly bringBack?: BringBack;
  /**
   * The team workspace whose database the page opened (local-store/space-databases.ts), as sync
   * needs it, given the account's cloud data key and its key epoch; null (or absent): the
   * personal space.
   */
  readonly workspace?: (
    userId: string,
    cloudKeys: { readonly dataKey: OpaqueCryptoKey; readonly keyEpoch: number },
  ) => Promise<WorkspaceSyncTarget | null>;
}

/** A team workspace's log, and the keys its changes are sealed under. */
export interface WorkspaceSyncTarget {
  readonly workspaceId: string;
  readonly transport: SyncTransport;
  /** Every key version this account holds, fetched and opened afresh. */
  readonly keyring: () => Promise<readonly WorkspaceKey[]>;
  /** The account is a viewer there: the run pulls and pushes nothing (the server refuses it). */
  readonly readOnly?: boolean;
}

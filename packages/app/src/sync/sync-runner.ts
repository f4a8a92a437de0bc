import type { LocalStore } from '@docket/core/store';
import {
  claimDeviceData,
  handOverDeviceData,
  checkRevert,
  revertToNewEpoch,
  runSync,
  skipUnreadableChange,
  skipUnsendableChange,
  SyncEngineError,
  type SyncRunReport,
  type SyncStatus,
  syncStatusMachine,
  syncStatusOf,
  type SyncTransport,
  workspaceSync,
} from '@docket/core/sync';
import type { OpaqueCryptoKey, WebCryptoPort, WorkspaceKey } from '@docket/core/crypto';
import type { TraceInput } from '@docket/core/device';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import { createActor } from 'xstate';
import { ApiRequestError } from '../api/api-client.ts';
import type { DeviceCloudKeys } from './cloud-keys-store.ts';
import { cloudPasswordMode } from './cloud-password-flow.ts';
import { bringBackCounts, broughtBackNotice, revertNotice, type BringBack } from './bring-back.ts';

// Runs sync for the signed-in user: when something changed here (the outbox grew), when the
// server says something changed elsewhere (a nudge), when the connection or the keys come back,
// and on a retry after a failure. One run at a time; a request during a run runs once more after
// it. The status follows spec §4 (core's sync-status-machine.ts):
//
//   no cloud password on the server yet   need password for sync up    waiting-for-password-sync-up
//   one exists, this device lacks it      need password for sync down  waiting-for-password-sync-dn
//   (the modal takes it; the next run finds the keys)
//   pushing the outbox                    has password for sync up     start-sync-up
//   pulling and merging                   has password for sync down   start-sync-dn
//   the run ended, well or not            sync complete                idle
//
// A failed run is followed by a retry (event "retry" with a true flag: retrySeqno counts them)
// after a back-off of 2 s doubling to 5 min, each with ±50 % jitter so that devices do not retry
// in step. A failure that another try cannot mend (a tampered or unreadable change, a change
// too large to send, a clock far off, a server on another protocol version, any refusal of the
// request itself) stops the retries and says so; "Sync now" tries again.
//
// Every run writes one 'sync' trace entry, however it ends: done, failed (with what it pushed
// and pulled before it failed), waiting for the password, stopped for another account's work,
// or abandoned because the user changed under it.

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
   * needs it, given the account's cloud data key; null (or absent): the personal space.
   */
  readonly workspace?: (
    userId: string,
    dataKey: OpaqueCryptoKey,
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

const FIRST_RETRY_MS = 2000;
const MAX_RETRY_MS = 5 * 60 * 1000;

/** How long before the n-th retry (n from 0), with jitter. */
export function retryDelay(attempt: number, random: () => number): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt, 20));
  return Math.round(base * (0.5 + random()));
}

/** 4xx answers that mean "later", not "never": a timeout, too early, too many requests. */
const TRANSIENT_CLIENT_ERRORS: ReadonlySet<number> = new Set([408, 425, 429]);

/**
 * Whether another try could not mend the failure: a tampered change will be tampered again, and
 * a server that refused the request itself (426 another protocol version, 413 too large, 400,
 * 409 a batch conflict…) refuses the same request again. 401 and the epoch change are handled
 * before this is asked.
 */
function isPermanent(error: unknown): boolean {
  if (error instanceof SyncEngineError) return error.code !== 'epoch-mismatch';
  return (
    error instanceof ApiRequestError &&
    error.status !== null &&
    error.status >= 400 &&
    error.status < 500 &&
    !TRANSIENT_CLIENT_ERRORS.has(error.status) &&
    error.code !== 'epoch-mismatch'
  );
}

const FOREIGN_DATA =
  'This device holds work synced with another account, so it does not sync it into this one. "Start afresh" saves that work as a full backup and brings this account\'s data instead; or sign out and sign in with the other account.';

function isEpochChange(error: unknown): boolean {
  return (
    (error instanceof SyncEngineError && error.code === 'epoch-mismatch') ||
    (error instanceof ApiRequestError && error.code === 'epoch-mismatch')
  );
}

function messageOf(error: unknown): string {
  if (error instanceof SyncEngineError || error instanceof ApiRequestError) return error.message;
  return 'Sync failed for a reason this app did not expect. It tries again by itself.';
}

/** How a run ended, for its trace entry. */
type RunEnd =
  | { readonly outcome: 'done'; readonly report: SyncRunReport }
  /** `report` is what it did before it failed; null when it failed before syncing anything. */
  | { readonly outcome: 'failed'; readonly error: unknown; readonly report: SyncRunReport | null }
  | { readonly outcome: 'needs-password'; readonly mode: 'set' | 'enter' }
  /** The terms of service wait for the user's acceptance. */
  | { readonly outcome: 'needs-terms' }
  /** This device holds another account's work (the "Start afresh" repair). */
  | { readonly outcome: 'other-account' }
  /** The user signed out or changed while the run started. */
  | { readonly outcome: 'abandoned' };

/** What the trace says of a failure: the message, and the code and row when there are. */
function failureDetails(error: unknown): Record<string, unknown> {
  const code =
    error instanceof SyncEngineError || error instanceof ApiRequestError ? error.code : null;
  const status = error instanceof ApiRequestError ? error.status : null;
  const entry = error instanceof SyncEngineError ? error.entry : null;
  return {
    error: messageOf(error),
    ...(code === null ? {} : { code }),
    ...(status === null ? {} : { status }),
    ...(entry === null ? {} : { table: entry.table, rowId: entry.rowId, entryId: entry.id }),
  };
}

export class SyncRunner {
  private readonly actor = createActor(syncStatusMachine);
  private userId: string | null = null;
  private online = true;
  private running = false;
  private again = false;
  private attempts = 0;
  private timer: unknown = null;
  private readonly listeners = new Set<() => void>();
  private state: SyncRunnerState;
  /** Where the user's log and settings stood at the last run, to tell a nudge that matters. */
  private known = { latestSeqno: -1, settingsVersion: -1 };
  /** The user known to have accepted the current terms (asked once per user and page). */
  private termsAcceptedBy: string | null = null;
  /** The user the terms were already put in front of, so they are asked once, not every run. */
  private termsAskedOf: string | null = null;
  /** The backup a revert in this run saved: told with "Bring back my changes" once it ends. */
  private reverted: { id: string; name: string } | null = null;

  constructor(private readonly deps: SyncRunnerDeps) {
    this.actor.start();
    this.state = {
      status: 'idle',
      retrySeqno: 0,
      view: { kind: 'signed-out' },
      lastSyncedAt: null,
      notice: null,
      bringBackFrom: null,
      askTerms: false,
    };
  }

  readonly get = (): SyncRunnerState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(view: SyncView, lastSyncedAt = this.state.lastSyncedAt): void {
    const snapshot = this.actor.getSnapshot();
    this.state = {
      status: syncStatusOf(snapshot),
      retrySeqno: snapshot.context.retrySeqno,
      view,
      lastSyncedAt,
      notice: this.state.notice,
      bringBackFrom: this.state.bringBackFrom,
      askTerms: this.state.askTerms,
    };
    for (const listener of this.listeners) listener();
  }

  private setAskTerms(askTerms: boolean): void {
    if (askTerms === this.state.askTerms) return;
    this.state = { ...this.state, askTerms };
    for (const listener of this.listeners) listener();
  }

  /** The signed-in user, or null after signing out (which stops everything). */
  setUser(userId: string | null): void {
    if (userId === this.userId) return;
    this.userId = userId;
    this.cancelRetry();
    this.attempts = 0;
    this.setAskTerms(false);
    if (userId === null) {
      this.actor.send({ type: 'sync-complete' });
      this.update({ kind: 'signed-out' }, null);
      return;
    }
    this.requestSync();
  }

  setOnline(online: boolean): void {
    if (online === this.online) return;
    this.online = online;
    if (!online) {
      this.cancelRetry();
      if (this.userId !== null) this.update({ kind: 'offline' });
      return;
    }
    this.requestSync();
  }

  /**
   * The connection is back (the browser's `online` event, which may come without the app having
   * seen itself offline, or the server answering again): a run waiting out a retry's back-off
   * starts now, so an error that came of the lost connection does not outstay it. An error that
   * another try cannot mend waits for "Sync now", as before.
   */
  connectionBack(): void {
    const { view } = this.state;
    if (view.kind === 'error' && view.retryAt !== null) this.syncNow();
  }

  /** Sync soon: after the run in progress, if there is one. */
  requestSync(): void {
    if (this.userId === null || !this.online) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.cancelRetry();
    this.running = true;
    this.loop()
      .catch((error: unknown) => {
        console.error('[docket] Sync runner failed:', error);
      })
      .finally(() => {
        this.running = false;
      });
  }

  /** A nudge from the server: sync when it says something moved since the last run. */
  nudged(nudge: { latestSeqno: number; settingsVersion: number }): void {
    if (
      nudge.latestSeqno > this.known.latestSeqno ||
      nudge.settingsVersion !== this.known.settingsVersion
    ) {
      this.requestSync();
    }
  }

  /**
   * The cloud password modal took a password, which is being checked against the settings'
   * verifier (spec §4's have-password: entered, held, not yet verified). Syncs nothing yet.
   */
  passwordHeld(password: string): void {
    this.actor.send({ type: 'password-entered', password });
    this.update(this.state.view);
  }

  /** The held password was not the cloud password: waiting for one again. */
  passwordRejected(): void {
    this.actor.send({ type: 'password-rejected' });
    this.update(this.state.view);
  }

  /**
   * The password was verified and this device now holds the keys it opens (a run uses them
   * next: has-password), or it was changed ("change password" stores it).
   */
  passwordEntered(password: string, change: boolean): void {
    this.actor.send(
      change ? { type: 'change-password', password } : { type: 'password-entered', password },
    );
    this.update(this.state.view);
    this.syncNow();
  }

  /** The user accepted the current terms of service: sync may start. */
  termsAccepted(): void {
    this.termsAcceptedBy = this.userId;
    this.setAskTerms(false);
    this.syncNow();
  }

  /** The user set the terms aside for now; "Sync now" puts them back in front of the user. */
  termsSetAside(): void {
    this.setAskTerms(false);
  }

  /** Puts the terms in front of the user again (they asked to sync while the terms wait). */
  askForTerms(): void {
    if (this.userId !== null) this.setAskTerms(true);
  }

  /** The user read the notice. */
  dismissNotice(): void {
    this.state = { ...this.state, notice: null, bringBackFrom: null };
    for (const listener of this.listeners) listener();
  }

  private tell(notice: string, bringBackFrom: string | null = null): void {
    this.state = { ...this.state, notice, bringBackFrom };
    for (const listener of this.listeners) listener();
  }

  /**
   * "Bring back my changes": merges the work the revert saved into the device's data (one step
   * under the sync lock, so no run writes meanwhile), traces it, says what came back and syncs.
   */
  async bringBackChanges(): Promise<void> {
    const backupId = this.state.bringBackFrom;
    const bringBack = this.deps.bringBack;
    if (backupId === null || bringBack === undefined) return;
    this.dismissNotice();
    try {
      const summary = await this.deps.exclusive(() => bringBack.apply(backupId));
      const counts = bringBackCounts(summary);
      await this.deps.trace({
        kind: 'sync-bring-back',
        durationMs: null,
        details: {
          rows: Object.values(summary.kinds).reduce((n, k) => n + k.added + k.changed, 0),
        },
      });
      this.tell(broughtBackNotice(counts));
    } catch (error) {
      console.error('[docket] Could not bring the changes back:', error);
      this.tell(
        `Your changes could not be brought back: ${messageOf(error)} They are still in the full backup; its Merge does the same.`,
      );
    }
    this.syncNow();
  }

  /** After a run that reverted: the notice, with what "Bring back my changes" would do. */
  private async offerBringBack(backup: { id: string; name: string }): Promise<void> {
    let counts: string | null | undefined;
    try {
      const summary = await this.deps.bringBack?.plan(backup.id);
      counts = summary === undefined ? undefined : bringBackCounts(summary);
    } catch (error) {
      console.error('[docket] Could not count the changes to bring back:', error);
    }
    this.tell(
      revertNotice(backup.name, counts),
      counts === null || counts === undefined ? null : backup.id,
    );
  }

  /** The repair for a change that cannot be read: pass over it, then sync on. */
  async skipChange(seqno: number): Promise<void> {
    const userId = this.userId;
    if (userId === null) return;
    await skipUnreadableChange(await this.deps.store(), userId, seqno);
    await this.deps.trace({ kind: 'sync-skip', durationMs: null, details: { seqno } });
    this.syncNow();
  }

  /**
   * The repair for an outbox entry too large ever to be sent: take it out of the outbox (the row
   * stays on this device), record which row in the trace, then sync on.
   */
  async skipUnsendable(entryId: string): Promise<void> {
    if (this.userId === null) return;
    const skipped = await skipUnsendableChange(await this.deps.store(), entryId);
    if (skipped !== null) {
      await this.deps.trace({
        kind: 'sync-skip',
        durationMs: null,
        details: {
          unsent: true,
          entryId: skipped.id,
          table: skipped.table,
          rowId: skipped.rowId,
          op: skipped.op,
        },
      });
    }
    this.syncNow();
  }

  /**
   * The repair for a device that holds another account's work: save it as a full backup, clear
   * it, and sync this account's data onto the device.
   */
  async handOverDevice(): Promise<void> {
    const userId = this.userId;
    if (userId === null) return;
    await this.deps.exclusive(async () => {
      const [settings, keys, store] = await Promise.all([
        this.deps.fetchSettings(),
        this.deps.loadKeys(userId),
        this.deps.store(),
      ]);
      // Without this account's keys there is nothing to start from yet; the run asks for them.
      if (keys === null || userId !== this.userId) return;
      // The account may own the device already (the repair ran in another tab, or was tapped
      // twice): its own work must not be saved away and cleared.
      if ((await claimDeviceData(store, userId)) === null) return;
      await this.saveAsideAndClear(handOverDeviceData, store, userId, keys.keyEpoch, settings, {
        kind: 'sync-hand-over',
        details: {},
        message: (backup) =>
          `This device now syncs this account's data. The work it held for the other account is saved as the full backup "${backup}" (More, Backups, Full backups).`,
      });
    });
    this.syncNow();
  }

  /**
   * The two repairs that replace a device's work (a hand-over to this account, a revert to the
   * epoch of a reset): the work is saved as a full backup and cleared in one step of core's, the
   * step is traced with the backup's name, and the user is told where the backup is.
   */
  private async saveAsideAndClear(
    clear: typeof revertToNewEpoch,
    store: LocalStore,
    userId: string,
    epoch: number,
    settings: { epochStartSeqno: number },
    said: {
      kind: 'sync-hand-over' | 'sync-revert';
      details: Record<string, number>;
      /** What the user is told at once; null when the caller tells them later. */
      message: ((backupName: string) => string) | null;
    },
  ): Promise<{ id: string; name: string }> {
    const backup = await clear(store, {
      userId,
      epoch,
      epochStartSeqno: settings.epochStartSeqno,
      nowMs: this.deps.now(),
      backupId: this.deps.newId(),
    });
    await this.deps.trace({
      kind: said.kind,
      durationMs: null,
      details: { backup: backup.name, ...said.details },
    });
    if (said.message !== null) this.tell(said.message(backup.name));
    return { id: backup.id, name: backup.name };
  }

  /** "Sync now": a run at once, also after a failure that stopped the retries. */
  syncNow(): void {
    this.attempts = 0;
    this.requestSync();
  }

  private cancelRetry(): void {
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      const userId = this.userId;
      if (userId === null || !this.online) return;
      await this.deps.exclusive(() => this.runOnce(userId));
    } while (this.isRequestedAgain());
  }

  /** Read through a method: the compiler would take `again` as still false after the await. */
  private isRequestedAgain(): boolean {
    return this.again;
  }

  private async runOnce(userId: string): Promise<void> {
    const started = this.deps.now();
    this.update({ kind: 'syncing', phase: 'start', done: 0, total: null });
    // What the run did until it failed, from the engine: the trace keeps it.
    let soFar: SyncRunReport | null = null;
    let end: RunEnd;
    try {
      end = await this.attempt(userId, (report) => {
        soFar = report;
      });
    } catch (error) {
      this.actor.send({ type: 'sync-complete' });
      if (userId === this.userId) {
        this.fail(error);
        end = { outcome: 'failed', error, report: soFar };
      } else {
        // Signed out (or another user signed in) during the run: its failure, often the 401 of
        // the ended session, is no news for whoever is here now.
        end = { outcome: 'abandoned' };
      }
    }
    await this.trace(end, started);
    const reverted = this.reverted;
    this.reverted = null;
    if (reverted !== null && userId === this.userId) await this.offerBringBack(reverted);
    if (end.outcome === 'done') await this.importSynced();
  }

  /** One run up to its end; throws when it fails. */
  private async attempt(
    userId: string,
    onFailure: (soFar: SyncRunReport) => void,
  ): Promise<RunEnd> {
    const [settings, keys, store, deviceId] = await Promise.all([
      this.deps.fetchSettings(),
      this.deps.loadKeys(userId),
      this.deps.store(),
      this.deps.deviceId(),
    ]);
    // Signed out, or another user signed in, while the settings were read.
    if (userId !== this.userId) return { outcome: 'abandoned' };
    this.known = { ...this.known, settingsVersion: settings.version };
    const mode = cloudPasswordMode(settings, keys);
    // Without the password nothing can sync yet; the cloud password flow asks for the terms
    // before it asks for the password. With it, the terms are asked here, before anything moves.
    if (mode === 'change' && keys !== null && this.termsAcceptedBy !== userId) {
      const accepted = await (this.deps.termsAccepted?.() ?? Promise.resolve(true));
      if (userId !== this.userId) return { outcome: 'abandoned' };
      if (!accepted) {
        this.actor.send({ type: 'sync-complete' });
        this.update({ kind: 'needs-terms' });
        if (this.termsAskedOf !== userId) {
          this.termsAskedOf = userId;
          this.setAskTerms(true);
        }
        this.attempts = 0;
        return { outcome: 'needs-terms' };
      }
      this.termsAcceptedBy = userId;
    }
    if (mode !== 'change' || keys === null) {
      const direction = mode === 'set' ? 'up' : 'dn';
      this.actor.send({ type: 'need-password', direction });
      const wanted = mode === 'set' ? 'set' : 'enter';
      this.update({ kind: 'needs-password', mode: wanted });
      this.attempts = 0;
      return { outcome: 'needs-password', mode: wanted };
    }
    if ((await claimDeviceData(store, userId)) !== null) {
      this.actor.send({ type: 'sync-complete' });
      this.update({ kind: 'error', message: FOREIGN_DATA, retryAt: null, handOver: true });
      this.attempts = 0;
      return { outcome: 'other-account' };
    }
    const workspace = (await this.deps.workspace?.(userId, keys.dataKey)) ?? null;
    if (userId !== this.userId) return { outcome: 'abandoned' };
    // A workspace's log is its own: a cloud-password reset of the account reverts nothing there.
    const revert = workspace === null ? await checkRevert(store, userId, keys.keyEpoch) : null;
    if (revert?.revert === true) {
      // The password was reset on another device and this one now has the new key: its own
      // state is saved first, then replaced by the reset device's.
      // The user is told once the run ends (runOnce), with what "Bring back my changes" adds.
      this.reverted = await this.saveAsideAndClear(
        revertToNewEpoch,
        store,
        userId,
        keys.keyEpoch,
        settings,
        {
          kind: 'sync-revert',
          details: { keyEpoch: keys.keyEpoch, cursorEpoch: revert.cursorEpoch ?? -1 },
          message: null,
        },
      );
    }
    const space =
      workspace === null
        ? {
            transport: this.deps.transport,
            session: {
              userId,
              deviceId,
              epoch: keys.keyEpoch,
              dataKey: keys.dataKey,
              epochStartSeqno: settings.epochStartSeqno,
            },
          }
        : {
            transport: workspace.transport,
            ...workspaceSync(this.deps.crypto, {
              workspaceId: workspace.workspaceId,
              userId,
              deviceId,
              keyring: await workspace.keyring(),
              readOnly: workspace.readOnly === true,
            }),
          };
    if (userId !== this.userId) return { outcome: 'abandoned' };
    const report = await runSync({
      store,
      crypto: this.deps.crypto,
      ...space,
      now: this.deps.now,
      onPhase: (phase) => {
        this.actor.send({ type: 'has-password', direction: phase === 'push' ? 'up' : 'dn' });
        if (userId === this.userId) this.update({ kind: 'syncing', phase, done: 0, total: null });
      },
      onProgress: (progress) => {
        if (userId === this.userId) this.update({ kind: 'syncing', ...progress });
      },
      onFailure,
    });
    this.known = { ...this.known, latestSeqno: report.latestSeqno };
    this.actor.send({ type: 'sync-complete' });
    if (userId !== this.userId) return { outcome: 'abandoned' };
    const at = new Date(this.deps.now()).toISOString();
    this.attempts = 0;
    this.update({ kind: 'up-to-date', at }, at);
    return { outcome: 'done', report };
  }

  /** After a failed run: ask again, stop with the reason and a repair, or retry later. */
  private fail(error: unknown): void {
    if (!this.online) {
      // The connection went while the run was out: that is why it failed. Offline is what the
      // user is told, and coming back online runs again (setOnline).
      this.update({ kind: 'offline' });
      return;
    }
    if (error instanceof ApiRequestError && error.status === 401) {
      this.update({ kind: 'error', message: error.message, retryAt: null });
      return;
    }
    if (isEpochChange(error) && this.attempts === 0) {
      // The password was reset elsewhere: the next run reads the new settings and asks.
      this.attempts++;
      this.again = true;
      return;
    }
    if (isPermanent(error)) {
      const seqno = error instanceof SyncEngineError ? error.seqno : null;
      const entry = error instanceof SyncEngineError ? error.entry : null;
      this.update({
        kind: 'error',
        message: `${messageOf(error)} Sync stopped; "Sync now" tries again.`,
        retryAt: null,
        ...(seqno === null ? {} : { skippable: seqno }),
        ...(entry === null ? {} : { unsendable: entry.id }),
      });
      return;
    }
    this.scheduleRetry(
      messageOf(error),
      error instanceof ApiRequestError ? error.retryAfterMs : null,
    );
  }

  private async importSynced(): Promise<void> {
    if (this.deps.importSyncedDatasets === undefined) return;
    try {
      const started = await this.deps.importSyncedDatasets();
      if (started > 0) {
        await this.deps.trace({ kind: 'sync-import', durationMs: null, details: { started } });
      }
    } catch (error) {
      // The datasets stay marked; the next run tries again.
      console.error('[docket] Could not start the imports of synced datasets:', error);
    }
  }

  private scheduleRetry(message: string, retryAfterMs: number | null = null): void {
    // Never sooner than the server asked (a 429's Retry-After), however early the back-off is.
    const delay = Math.max(retryDelay(this.attempts, this.deps.random), retryAfterMs ?? 0);
    this.attempts++;
    this.actor.send({ type: 'retry', flag: true });
    const retryAt = this.deps.now() + delay;
    this.update({ kind: 'error', message, retryAt });
    this.cancelRetry();
    this.timer = this.deps.setTimer(() => {
      this.timer = null;
      this.requestSync();
    }, delay);
  }

  /** The run's one trace entry, whichever way it ended. */
  private async trace(end: RunEnd, started: number): Promise<void> {
    const report = end.outcome === 'done' || end.outcome === 'failed' ? end.report : null;
    try {
      await this.deps.trace({
        kind: 'sync',
        durationMs: this.deps.now() - started,
        details: {
          outcome: end.outcome,
          ...(end.outcome === 'needs-password' ? { password: end.mode } : {}),
          ...(report === null
            ? {}
            : {
                pushed: report.pushed,
                pulled: report.pulled,
                rowsChanged: report.rowsChanged,
                bytesUp: report.bytesUp,
                bytesDown: report.bytesDown,
                cryptoMs: Math.round(report.cryptoMs),
                latestSeqno: report.latestSeqno,
                filesUp: report.filesUp,
                filesDown: report.filesDown,
                ...(report.fileProblems.length === 0 ? {} : { fileProblems: report.fileProblems }),
              }),
          ...(end.outcome === 'failed' ? failureDetails(end.error) : {}),
        },
      });
    } catch (traceError) {
      console.error('[docket] Could not write the trace:', traceError);
    }
  }
}

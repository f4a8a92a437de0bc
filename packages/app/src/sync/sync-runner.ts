import type { LocalStore } from '@docket/core/store';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import {
  claimDeviceData,
  handOverDeviceData,
  checkRevert,
  revertToNewEpoch,
  runSync,
  skipUnreadableChange,
  skipUnsendableChange,
  type SyncRunReport,
  syncStatusMachine,
  syncStatusOf,
} from '@docket/core/sync';
import { createActor } from 'xstate';
import type { DeviceCloudKeys } from './cloud-keys-store.ts';
import { cloudPasswordMode } from './cloud-password-flow.ts';
import { bringBackAndSay, revertOffer } from './bring-back.ts';
import { afterFailure, FOREIGN_DATA, retryDelay } from './sync-failure.ts';
import { runTraceEntry, type RunEnd } from './sync-run-trace.ts';
import { syncSpace } from './sync-run-space.ts';
import type { SyncRunnerDeps, SyncRunnerState, SyncView } from './sync-runner-types.ts';

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
// after a back-off, or stops the retries and says so (sync-failure.ts); "Sync now" tries again.
//
// Every run writes one 'sync' trace entry, however it ends: done, failed (with what it pushed
// and pulled before it failed), waiting for the password, stopped for another account's work,
// or abandoned because the user changed under it.
//
// Beside it: its view, state and dependencies (sync-runner-types.ts), what a failure means for the
// next try (sync-failure.ts), the log a run syncs with (sync-run-space.ts), the run's trace
// entry (sync-run-trace.ts) and what a revert offers to bring back (bring-back.ts).

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
   * "Bring back my changes": merges the work the revert saved into the device's data
   * (bring-back.ts), says what came back and syncs.
   */
  async bringBackChanges(): Promise<void> {
    const backupId = this.state.bringBackFrom;
    const bringBack = this.deps.bringBack;
    if (backupId === null || bringBack === undefined) return;
    this.dismissNotice();
    this.tell(await bringBackAndSay(bringBack, backupId, this.deps));
    this.syncNow();
  }

  /** After a run that reverted: the notice, with what "Bring back my changes" would do. */
  private async offerBringBack(backup: { id: string; name: string }): Promise<void> {
    const offer = await revertOffer(this.deps.bringBack, backup);
    this.tell(offer.notice, offer.bringBackFrom);
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
    const ready = await this.readyToSync(userId);
    if ('outcome' in ready) return ready;
    const { settings, keys, store, deviceId } = ready;
    const workspace = (await this.deps.workspace?.(userId, keys)) ?? null;
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
    const space = await syncSpace({
      crypto: this.deps.crypto,
      transport: this.deps.transport,
      workspace,
      userId,
      deviceId,
      keys,
      epochStartSeqno: settings.epochStartSeqno,
    });
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

  /**
   * What a run reads first, or what stops it before anything moves: the user changed meanwhile,
   * the terms wait for the user, the cloud password is missing here, or the device holds another
   * account's work.
   */
  private async readyToSync(userId: string): Promise<
    | RunEnd
    | {
        readonly settings: SyncSettings;
        readonly keys: DeviceCloudKeys;
        readonly store: LocalStore;
        readonly deviceId: string;
      }
  > {
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
      const stopped = await this.awaitTerms(userId);
      if (stopped !== null) return stopped;
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
    return { settings, keys, store, deviceId };
  }

  /**
   * Asks the server whether the user accepted the current terms (once per user and page): null
   * when they have and the run goes on, else how the run ends. The terms are put in front of the
   * user the first time a run stops for them, not on every run.
   */
  private async awaitTerms(userId: string): Promise<RunEnd | null> {
    const accepted = await (this.deps.termsAccepted?.() ?? Promise.resolve(true));
    if (userId !== this.userId) return { outcome: 'abandoned' };
    if (accepted) {
      this.termsAcceptedBy = userId;
      return null;
    }
    this.actor.send({ type: 'sync-complete' });
    this.update({ kind: 'needs-terms' });
    if (this.termsAskedOf !== userId) {
      this.termsAskedOf = userId;
      this.setAskTerms(true);
    }
    this.attempts = 0;
    return { outcome: 'needs-terms' };
  }

  /** After a failed run: ask again, stop with the reason and a repair, or retry later. */
  private fail(error: unknown): void {
    const next = afterFailure(error, { online: this.online, firstTry: this.attempts === 0 });
    if (next.step === 'show') {
      this.update(next.view);
    } else if (next.step === 'run-again') {
      this.attempts++;
      this.again = true;
    } else {
      this.scheduleRetry(next.message, next.retryAfterMs);
    }
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
    try {
      await this.deps.trace(runTraceEntry(end, this.deps.now() - started));
    } catch (traceError) {
      console.error('[docket] Could not write the trace:', traceError);
    }
  }
}

import { refreshable } from '@docket/core/commands';
import { CHANGE_FEED_TABLES, readChangeFeed } from '@docket/core/changes';
import { markAutoRefresh, readDevicePreferences } from '@docket/core/device';
import type { Job, LocalStore } from '@docket/core/store';
import { type ChangeAlert, changeAlertOf } from '../changes/change-alerts.ts';
import type { ImportRunnerApi } from '../import-worker/import-runner.ts';

// The refresh the service worker runs when the browser fires its periodic background sync (the
// tag BACKGROUND_REFRESH_TAG of changes/periodic-refresh.ts), with no page open: "Refresh all" as
// the import worker runs it (the same runner and Web Locks, so it never imports at the same time
// as a tab), then, with alerts on and allowed, a notification for each refresh that changed
// followed bills, worded as the page's alerts are. Written against injected pieces so it runs the
// same in unit tests.

export interface BackgroundRefreshDeps {
  /** Whether the device's database exists at all: a device never used holds nothing to refresh,
   *  and opening it would create it. */
  hasLocalData(): Promise<boolean>;
  openStore(): Promise<LocalStore>;
  /** Whether a user is signed in on this device (the server knows the session's cookie). */
  signedIn(): Promise<boolean>;
  createRunner(store: LocalStore): ImportRunnerApi;
  /** Settles once the job has ended and its context let go of it (its job lock is free). */
  jobEnded(jobId: string): Promise<void>;
  /** Whether the browser lets Docket show notifications. */
  alertsAllowed(): boolean;
  showAlert(alert: ChangeAlert & { tag: string }): Promise<void>;
  now(): string;
}

export type BackgroundRefreshOutcome =
  | { kind: 'nothing'; why: 'no local data' | 'refresh off' | 'no source' | 'signed out' }
  | { kind: 'refreshed'; jobIds: string[]; alerts: number };

export async function runBackgroundRefresh(
  deps: BackgroundRefreshDeps,
): Promise<BackgroundRefreshOutcome> {
  if (!(await deps.hasLocalData())) return { kind: 'nothing', why: 'no local data' };
  const store = await deps.openStore();
  const [preferences, datasets] = await store.read(['settings', 'datasets'], async (tx) => [
    await readDevicePreferences(tx),
    await tx.all('datasets'),
  ]);
  // The page unregisters the sync when the setting is turned off; a sync the browser fires
  // meanwhile, or one left by a signed-out tab, does nothing.
  if (preferences.autoRefreshHours === 0) return { kind: 'nothing', why: 'refresh off' };
  if (!datasets.some(refreshable)) return { kind: 'nothing', why: 'no source' };
  if (!(await deps.signedIn())) return { kind: 'nothing', why: 'signed out' };

  // Counted as the device's automatic refresh, so an open tab's timer waits its hours from here.
  await markAutoRefresh(store, deps.now());
  const runner = deps.createRunner(store);
  await runner.recoverInterrupted();
  const { jobIds } = await runner.refreshAll();
  for (const jobId of jobIds) await deps.jobEnded(jobId);

  if (!preferences.changeAlerts || !deps.alertsAllowed()) {
    return { kind: 'refreshed', jobIds, alerts: 0 };
  }
  const [jobs, feed] = await store.read(['jobs', ...CHANGE_FEED_TABLES], async (tx) => [
    await tx.getMany('jobs', jobIds),
    await readChangeFeed(tx),
  ]);
  let alerts = 0;
  for (const job of jobs) {
    if (!changedFollowed(job)) continue;
    const alert = changeAlertOf(feed.filter((entry) => entry.at === job.finishedAt));
    if (alert === null) continue;
    // The job's id as the tag, as the page uses: a tab that saw the job end shows the same one.
    await deps.showAlert({ ...alert, tag: job.id });
    alerts++;
  }
  return { kind: 'refreshed', jobIds, alerts };
}

function changedFollowed(job: Job | undefined): job is Job & { finishedAt: string } {
  return (
    job !== undefined &&
    job.status === 'done' &&
    (job.result?.changed ?? 0) > 0 &&
    job.finishedAt !== null
  );
}

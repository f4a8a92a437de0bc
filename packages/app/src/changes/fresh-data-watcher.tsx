import { CHANGE_FEED_TABLES, readChangeFeed } from '@docket/core/changes';
import {
  AUTO_REFRESH_AT_SETTING,
  autoRefreshDelay,
  DEVICE_PREFERENCES_SETTING,
  devicePreferencesOf,
  markAutoRefresh,
  openingRefreshDelay,
  staleBefore,
} from '@docket/core/device';
import { useEffect, useRef, useState } from 'react';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { importJobs } from '../import-worker/import-jobs-client.ts';
import { useSetting } from '../local-store/live-settings.ts';
import { useJobs } from '../local-store/live-jobs.ts';
import { liveLocalStore } from '../local-store/live-database.ts';
import { type AppServices, useAppServices } from '../services/app-services.ts';
import { changeAlertOf, jobsToHandle } from './change-alerts.ts';
import { keepBackgroundRefresh } from './periodic-refresh.ts';

// While the tabs are open: refreshes datasets from URLs and APIs when the app opens, if the last
// automatic refresh on this device is an hour old, then every few hours (the "Refresh datasets
// automatically" setting, 6 by default), each time only the datasets not looked at within the
// hour (the morning check, issue 40); and, with alerts on, shows a notification when
// an import or refresh that finished in this session found changes to followed bills. Where the
// browser offers periodic background sync, the service worker refreshes at the same interval
// while no tab is open (periodic-refresh.ts registers it here).

/**
 * Refreshes the datasets from URLs and APIs every `hours` (undefined while the preferences are
 * read), the first time after the app opened once the last automatic refresh is an hour old.
 */
function useAutoRefresh(hours: number | undefined) {
  // When the last automatic refresh started, on this device: undefined while loading.
  const lastSetting = useSetting(AUTO_REFRESH_AT_SETTING);
  const lastAt =
    lastSetting === undefined
      ? undefined
      : typeof lastSetting?.value === 'string'
        ? lastSetting.value
        : null;
  // The first schedule after the app opened uses the opening's shorter wait (an hour).
  const opening = useRef(true);
  useEffect(() => {
    if (hours === undefined || lastAt === undefined) return;
    const delay = (opening.current ? openingRefreshDelay : autoRefreshDelay)(
      hours,
      lastAt,
      Date.now(),
    );
    opening.current = false;
    if (delay === null) return;
    // Marking the start first moves `lastAt`, which schedules the next one `hours` later here and
    // in every other open tab, so tabs do not refresh the same sources one after another. Only
    // datasets not looked at within the hour are asked again.
    const timer = setTimeout(() => {
      const now = Date.now();
      pageLocalStore()
        .then((store) => markAutoRefresh(store, new Date(now).toISOString()))
        .then(() => importJobs().refreshAll({ staleBefore: staleBefore(now) }))
        .catch((error: unknown) => {
          console.error('[docket] The automatic refresh did not start:', error);
        });
    }, delay);
    return () => {
      clearTimeout(timer);
    };
  }, [hours, lastAt]);
}

/** The service worker's periodic background sync, at the same interval, where there is one. */
function useBackgroundRefresh(hours: number | undefined, usesServiceWorker: boolean) {
  // Mounted only while a user is signed in: the sign-out drops the registration (logout-screen).
  useEffect(() => {
    if (hours === undefined || !usesServiceWorker) return;
    keepBackgroundRefresh(hours).catch((error: unknown) => {
      console.error('[docket] Could not set up the background refresh:', error);
    });
  }, [hours, usesServiceWorker]);
}

/**
 * With alerts on, a notification for each import or refresh that finished in this session and
 * found changes to followed bills. Nothing is handled until the preferences are read.
 */
function useChangeAlerts(
  alerts: boolean,
  preferencesRead: boolean,
  deviceAlerts: AppServices['platform']['alerts'],
) {
  const jobs = useJobs();
  // When this page was loaded (not when this watcher, a lazy chunk, mounted): a refresh that
  // finished in between, started at once on a fresh page, is still this session's to alert.
  const [since] = useState(() => new Date(performance.timeOrigin).toISOString());
  /** Jobs this session alerted, or passed over with alerts off. */
  const handled = useRef(new Set<string>());
  useEffect(() => {
    // Until the preferences are read, whether alerts are on is not known: nothing is handled
    // (a job passed over now would never be alerted).
    if (jobs === undefined || !preferencesRead) return;
    const fresh = jobsToHandle(jobs, since, handled.current);
    for (const job of fresh) handled.current.add(job.id);
    if (!alerts) return;
    const changed = fresh.filter((job) => (job.result?.changed ?? 0) > 0);
    if (changed.length === 0) return;
    deviceAlerts
      .allowed()
      .then(async (allowed) => {
        if (!allowed) return;
        const feed = await liveLocalStore().read(CHANGE_FEED_TABLES, (tx) => readChangeFeed(tx));
        for (const job of changed) {
          const alert = changeAlertOf(feed.filter((entry) => entry.at === job.finishedAt));
          // The job id as the tag: another open tab's alert for the same refresh replaces this.
          if (alert !== null) await deviceAlerts.show({ ...alert, tag: job.id });
        }
      })
      .catch((error: unknown) => {
        console.error('[docket] Could not show the change alert:', error);
      });
  }, [jobs, alerts, preferencesRead, since, deviceAlerts]);
}

export function FreshDataWatcher() {
  const { alerts: deviceAlerts, usesServiceWorker } = useAppServices().platform;
  const setting = useSetting(DEVICE_PREFERENCES_SETTING);
  const preferences = setting === undefined ? undefined : devicePreferencesOf(setting?.value);
  const hours = preferences?.autoRefreshHours;
  const alerts = preferences?.changeAlerts === true;
  const preferencesRead = preferences !== undefined;

  useAutoRefresh(hours);
  useBackgroundRefresh(hours, usesServiceWorker);
  useChangeAlerts(alerts, preferencesRead, deviceAlerts);
  return null;
}

import { z } from 'zod';
import type { LocalReadTransaction, LocalStore } from '../store/local-store.ts';

// This device's own choices about fresh data: whether downloads may go through the Docket
// server's relay, how often datasets from URLs refresh themselves, and whether a refresh that
// finds changes to tracked bills raises a notification. A `device:` setting: never synced, since
// each is about this device (its browser's CORS, its notifications).

export const DEVICE_PREFERENCES_SETTING = 'device:preferences';

export const autoRefreshChoices = [0, 1, 6, 24] as const;
export type AutoRefreshHours = (typeof autoRefreshChoices)[number];

export const devicePreferencesSchema = z.object({
  /** Downloads a site refuses to the browser (CORS) go through the Docket server's relay. */
  sourceRelay: z.boolean(),
  /** Hours between automatic refreshes while the app is open; 0 is off. */
  autoRefreshHours: z.union(autoRefreshChoices.map((hours) => z.literal(hours))),
  /** A notification when a refresh finds changes to followed bills. */
  changeAlerts: z.boolean(),
});
export type DevicePreferences = z.infer<typeof devicePreferencesSchema>;

// The morning check without a hunt (issue 40): on by default, every 6 hours while open.
export const defaultDevicePreferences: DevicePreferences = {
  sourceRelay: true,
  autoRefreshHours: 6,
  changeAlerts: false,
};

/** The stored preferences over the defaults; a stored value that does not parse is ignored. */
export function devicePreferencesOf(value: unknown): DevicePreferences {
  const stored = typeof value === 'object' && value !== null ? value : {};
  const parsed = devicePreferencesSchema.safeParse({ ...defaultDevicePreferences, ...stored });
  return parsed.success ? parsed.data : defaultDevicePreferences;
}

export async function readDevicePreferences(tx: LocalReadTransaction): Promise<DevicePreferences> {
  return devicePreferencesOf((await tx.get('settings', DEVICE_PREFERENCES_SETTING))?.value);
}

/** Changes some preferences, checked, keeping the others; refuses a value it does not know. */
export async function saveDevicePreferences(
  store: LocalStore,
  change: Partial<DevicePreferences>,
): Promise<DevicePreferences> {
  const refused = new Error('That is not a choice Docket offers.');
  if (!devicePreferencesSchema.safeParse({ ...defaultDevicePreferences, ...change }).success) {
    throw refused;
  }
  return store.write(['settings'], async (tx) => {
    const next = devicePreferencesSchema.parse({ ...(await readDevicePreferences(tx)), ...change });
    await tx.put('settings', { key: DEVICE_PREFERENCES_SETTING, value: next });
    return next;
  });
}

/** When this device last started an automatic refresh (an ISO time; `device:`, never synced). */
export const AUTO_REFRESH_AT_SETTING = 'device:auto-refresh-at';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Milliseconds until the next automatic refresh is due: 0 when it is due now (never refreshed,
 * or the last one is `hours` old), null when automatic refresh is off. A last time in the future
 * (a clock set back) counts as due, so a wrong clock cannot stop refreshes for good.
 */
export function autoRefreshDelay(
  hours: number,
  lastAt: string | null,
  nowMs: number,
): number | null {
  if (hours <= 0) return null;
  const last = lastAt === null ? Number.NaN : Date.parse(lastAt);
  if (Number.isNaN(last) || last > nowMs) return 0;
  return Math.max(0, last + hours * HOUR_MS - nowMs);
}

/**
 * Opening the app refreshes sooner than the interval: what was last looked at more than an hour
 * ago is refreshed when the app opens (the morning check), then every `hours` while it is open.
 */
export const OPENING_REFRESH_HOURS = 1;

/**
 * Milliseconds until the next automatic refresh, as autoRefreshDelay, but on opening the app: due
 * when the last automatic refresh is `OPENING_REFRESH_HOURS` old (or the interval's, if shorter).
 */
export function openingRefreshDelay(
  hours: number,
  lastAt: string | null,
  nowMs: number,
): number | null {
  return autoRefreshDelay(
    hours <= 0 ? hours : Math.min(hours, OPENING_REFRESH_HOURS),
    lastAt,
    nowMs,
  );
}

/**
 * The time before which a dataset counts as stale for an automatic refresh started at `nowMs`:
 * one checked within the last hour (by hand, on another tab, by an import) is not asked again.
 */
export function staleBefore(nowMs: number): string {
  return new Date(nowMs - OPENING_REFRESH_HOURS * HOUR_MS).toISOString();
}

/** Notes that an automatic refresh started now, so other tabs and the next start wait for the
 *  next one. */
export async function markAutoRefresh(store: LocalStore, at: string): Promise<void> {
  await store.write(['settings'], (tx) =>
    tx.put('settings', { key: AUTO_REFRESH_AT_SETTING, value: at }),
  );
}

import type { Setting } from '@docket/core/store';
import { useLiveAccountRow, useLiveRow } from './live-database.ts';

// Live reads of the settings table (device-local rows such as `device:cloud-keys:<user>`).

/** One setting row: undefined while loading, null when there is none under that key. */
export function useSetting(key: string | null): Setting | null | undefined {
  return useLiveRow('settings', key);
}

/**
 * One setting row of the account's own database, whichever space the page works in (this
 * device's cloud keys are the account's, not a workspace's).
 */
export function useAccountSetting(key: string | null): Setting | null | undefined {
  return useLiveAccountRow('settings', key);
}

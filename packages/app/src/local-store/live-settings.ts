import type { Setting } from '@docket/core/store';
import { useLiveRow } from './live-database.ts';

// Live reads of the settings table (device-local rows such as `device:cloud-keys:<user>`).

/** One setting row: undefined while loading, null when there is none under that key. */
export function useSetting(key: string | null): Setting | null | undefined {
  return useLiveRow('settings', key);
}

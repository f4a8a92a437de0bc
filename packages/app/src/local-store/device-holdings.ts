import { readDeviceDataSummary, type DeviceDataSummary } from '@docket/core/device';
import {
  accountDatabaseNames,
  docketDatabaseNames,
  isBeingRemoved,
  unownedDatabaseName,
} from './account-databases.ts';
import { lockedBackupCount } from './database-contents.ts';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';

// What the sign-in page tells of the device (device-data-notice.tsx): how many accounts keep
// their work here, with counts only (what it is stays theirs), and what no account owns yet
// (less the full backups of locked accounts kept with it: locked-backups.ts).
// Each database is opened for the count and closed again, never kept: the page opens an
// account's database only once that account signed in (account-databases.ts).

export interface DeviceHoldings {
  /** One summary per account that keeps a database here. */
  readonly accounts: readonly DeviceDataSummary[];
  /** The data no account owns yet, or null when there is none. */
  readonly unowned: DeviceDataSummary | null;
}

async function summaryOf(name: string): Promise<DeviceDataSummary> {
  const store = await openIndexedDbLocalStore({ name });
  try {
    return await readDeviceDataSummary(store);
  } finally {
    store.close();
  }
}

export async function readDeviceHoldings(): Promise<DeviceHoldings> {
  const present = new Set(await docketDatabaseNames());
  const accounts: DeviceDataSummary[] = [];
  for (const name of accountDatabaseNames()) {
    if (present.has(name) && !isBeingRemoved(name)) accounts.push(await summaryOf(name));
  }
  const unowned = unownedDatabaseName();
  if (!present.has(unowned) || isBeingRemoved(unowned)) return { accounts, unowned: null };
  // Full backups of locked accounts kept there are theirs, not data no account owns.
  const summary = await summaryOf(unowned);
  const locked = await lockedBackupCount(unowned, [...present]);
  return { accounts, unowned: { ...summary, fullBackups: summary.fullBackups - locked } };
}

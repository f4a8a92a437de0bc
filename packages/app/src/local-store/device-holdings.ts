import { readDeviceDataSummary, type DeviceDataSummary } from '@docket/core/device';
import {
  accountDatabaseNames,
  docketDatabaseNames,
  isBeingRemoved,
  unownedDatabaseName,
} from './account-databases.ts';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';

// What the sign-in page tells of the device (device-data-notice.tsx): how many accounts keep
// their work here, with counts only (what it is stays theirs), and what no account owns yet.
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
  return {
    accounts,
    unowned: present.has(unowned) && !isBeingRemoved(unowned) ? await summaryOf(unowned) : null,
  };
}

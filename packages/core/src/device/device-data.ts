import type { LocalStore, TableName } from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';

// What a signed-out device still holds of the last person who used it, and emptying it. A device
// keeps everything after sign-out (work is local first; signing in again finds it). On a shared
// computer the next person must be told, and be able to save it as a full backup or clear it.

/** How many rows of the user's own kinds the device holds. */
export interface DeviceDataSummary {
  readonly bills: number;
  readonly datasets: number;
  readonly tags: number;
  readonly positions: number;
  readonly decisions: number;
  readonly annotations: number;
  readonly fullBackups: number;
  /** Changes made here that no server has acknowledged yet. */
  readonly unsynced: number;
}

const summaryTables = [
  'bills',
  'datasets',
  'tags',
  'positions',
  'decisions',
  'annotations',
  'fullBackups',
  'outbox',
] as const satisfies readonly TableName[];

export async function readDeviceDataSummary(store: LocalStore): Promise<DeviceDataSummary> {
  return store.read(summaryTables, async (tx) => ({
    bills: await tx.count('bills'),
    datasets: await tx.count('datasets'),
    tags: await tx.count('tags'),
    positions: await tx.count('positions'),
    decisions: await tx.count('decisions'),
    annotations: await tx.count('annotations'),
    fullBackups: await tx.count('fullBackups'),
    unsynced: await tx.count('outbox'),
  }));
}

/** Whether anything a person made or brought in is on the device. */
export function deviceHoldsData(summary: DeviceDataSummary): boolean {
  return Object.values(summary).some((count) => count > 0);
}

/**
 * Empties every table in one transaction: bills, the user's rows, jobs, full backups, the trace,
 * sync bookkeeping and every `device:` setting (its id, clock, keys and drafts too), so the device
 * is as a fresh one. Nothing is kept; the caller asks first.
 */
export async function clearDeviceData(store: LocalStore): Promise<void> {
  const tables = Object.keys(localTables) as TableName[];
  await store.write(tables, async (tx) => {
    for (const table of tables) await tx.deletePrefix(table, '');
  });
}

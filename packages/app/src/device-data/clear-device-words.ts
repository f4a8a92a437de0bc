import type { DeviceDataSummary } from '@docket/core/device';
import type { DeviceHoldings } from '../local-store/device-holdings.ts';
import { plural } from '../ui/formatting.ts';
import { deviceDataWords } from './device-data-words.ts';

/** The changes never synced, of every account's work here and of the data no account owns. */
export function unsyncedOf(holdings: DeviceHoldings): number {
  return [...holdings.accounts, ...(holdings.unowned === null ? [] : [holdings.unowned])].reduce(
    (sum, summary) => sum + summary.unsynced,
    0,
  );
}

/** "the work of 2 accounts". */
export function accountsWords(accounts: readonly DeviceDataSummary[]): string {
  return accounts.length === 1
    ? 'the work of 1 account'
    : `the work of ${accounts.length} accounts`;
}

/**
 * What "Clear this device?" says is deleted: every account's work and the data no account owns
 * (`unowned`, null when it holds nothing), the changes never synced that are lost with them, and
 * that what was synced stays on the server.
 */
export function clearDeviceMessage(
  holdings: DeviceHoldings,
  unowned: DeviceDataSummary | null,
): string {
  const unsynced = unsyncedOf(holdings);
  const everything = [
    holdings.accounts.length > 0 ? accountsWords(holdings.accounts) : null,
    unowned === null ? null : `data no account owns (${deviceDataWords(unowned)})`,
  ]
    .filter((part) => part !== null)
    .join(' and ');
  return (
    `Everything Docket keeps on this device is deleted: ${everything}, ` +
    'with their traces and drafts. ' +
    (unsynced > 0
      ? `${plural(unsynced, 'change was', 'changes were')} never synced and will be lost. `
      : '') +
    'What was synced stays on the server. This cannot be undone.'
  );
}

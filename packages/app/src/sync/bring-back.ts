import {
  mergeFullBackup,
  openFullBackup,
  planFullBackupMerge,
  type FullBackupMergeSummary,
} from '@docket/core/full-backups';
import type { LocalStore } from '@docket/core/store';
import type { WebCryptoPort } from '@docket/core/crypto';
import type { TraceInput } from '@docket/core/device';
import { mergeCounts } from '../full-backups/full-backup-words.ts';
import { messageOf } from './sync-failure.ts';

// "Bring back my changes" (issue 37): after a revert to a reset made elsewhere, the device's own
// work, saved as a full backup just before it was cleared, is merged into the new data by core's
// full-backup-merge.ts: every field whose saved clock is newer than the new data's comes back,
// as a change that syncs; nothing the new data holds is deleted. The merge is a join, so it
// gives the same whether the device pulled the new data before or after.

export interface BringBack {
  /** What bringing back the saved work would add and change now. */
  plan(backupId: string): Promise<FullBackupMergeSummary>;
  /** Brings it back; answers what it did. */
  apply(backupId: string): Promise<FullBackupMergeSummary>;
}

async function openStored(store: LocalStore, crypto: WebCryptoPort, backupId: string) {
  const stored = await store.read(['fullBackups'], (tx) => tx.get('fullBackups', backupId));
  if (stored === undefined) {
    throw new Error('The full backup saved before the revert is no longer on this device.');
  }
  return openFullBackup(stored.bytes, { crypto });
}

export function bringBackOn(deps: {
  readonly store: () => Promise<LocalStore>;
  readonly crypto: WebCryptoPort;
  readonly deviceId: () => Promise<string>;
  readonly now: () => number;
}): BringBack {
  return {
    async plan(backupId) {
      const store = await deps.store();
      return planFullBackupMerge(store, await openStored(store, deps.crypto, backupId));
    },
    async apply(backupId) {
      const store = await deps.store();
      const opened = await openStored(store, deps.crypto, backupId);
      return mergeFullBackup(store, opened, { deviceId: await deps.deviceId(), nowMs: deps.now() });
    },
  };
}

/** "2 tags and 1 position", what a bring-back adds and changes together, or null for nothing. */
export function bringBackCounts(summary: FullBackupMergeSummary): string | null {
  const kinds = Object.fromEntries(
    Object.entries(summary.kinds).map(([table, count]) => [
      table,
      { added: count.added + count.changed, changed: 0 },
    ]),
  ) as FullBackupMergeSummary['kinds'];
  return mergeCounts({ kinds }, 'added');
}

/**
 * The revert's notice: where the device's work went, and what "Bring back my changes" does;
 * `counts` is undefined when what it would do is not known.
 */
export function revertNotice(backupName: string, counts: string | null | undefined): string {
  const saved = `The cloud password was reset on another device, so this device now has that device's data. What this device had before is saved as the full backup "${backupName}" (More, Backups, Full backups).`;
  if (counts === undefined) return `${saved} Its Merge brings your changes back.`;
  return counts === null
    ? `${saved} Nothing of it is missing from the new data.`
    : `${saved} Of your own work, the new data lacks ${counts}. "Bring back my changes" adds it again and syncs it, keeping whichever value of a field is newer and deleting nothing.`;
}

/** Said once the work is back. */
export function broughtBackNotice(counts: string | null): string {
  return counts === null
    ? 'Nothing needed bringing back: the new data already holds your changes.'
    : `Your changes are back: ${counts}. They sync to your other devices now.`;
}

/**
 * "Bring back my changes": merges the work the revert saved into the device's data (one step
 * under the sync lock, so no run writes meanwhile), traces it, and answers what to say of it: what
 * came back, or why it could not and where the work still is.
 */
export async function bringBackAndSay(
  bringBack: BringBack,
  backupId: string,
  deps: {
    readonly exclusive: <T>(body: () => Promise<T>) => Promise<T>;
    readonly trace: (entry: TraceInput) => Promise<void>;
  },
): Promise<string> {
  try {
    const summary = await deps.exclusive(() => bringBack.apply(backupId));
    const counts = bringBackCounts(summary);
    await deps.trace({
      kind: 'sync-bring-back',
      durationMs: null,
      details: {
        rows: Object.values(summary.kinds).reduce((n, k) => n + k.added + k.changed, 0),
      },
    });
    return broughtBackNotice(counts);
  } catch (error) {
    console.error('[docket] Could not bring the changes back:', error);
    return `Your changes could not be brought back: ${messageOf(error)} They are still in the full backup; its Merge does the same.`;
  }
}

/**
 * After a run that reverted: the notice, with what "Bring back my changes" would do, and the
 * backup it would merge back (null when there is nothing to bring back, or it is not known).
 */
export async function revertOffer(
  bringBack: BringBack | undefined,
  backup: { readonly id: string; readonly name: string },
): Promise<{ readonly notice: string; readonly bringBackFrom: string | null }> {
  let counts: string | null | undefined;
  try {
    const summary = await bringBack?.plan(backup.id);
    counts = summary === undefined ? undefined : bringBackCounts(summary);
  } catch (error) {
    console.error('[docket] Could not count the changes to bring back:', error);
  }
  return {
    notice: revertNotice(backup.name, counts),
    bringBackFrom: counts === null || counts === undefined ? null : backup.id,
  };
}

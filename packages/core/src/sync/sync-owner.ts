import type { FullBackupSummary } from '../full-backups/full-backup-format.ts';
import type { LocalStore } from '../store/local-store.ts';
import { syncCursorSetting } from './sync-cursor.ts';
import { revertToNewEpoch, type NewEpochStart } from './sync-reset.ts';

// Whose work a device holds. The user-made tables are the device's, not an account's: work done
// before signing in belongs to the first account that syncs it. Another account signing in on the
// same device must not sync that work into its own (another person's tags and notes, encrypted
// with the wrong key, on the wrong account): the device says so, and the way on is to save that
// work as a full backup and start afresh for the new account, which the user chooses.

/** The settings row naming the account this device's synced data belongs to (never synced). */
export const SYNC_OWNER_SETTING = 'device:sync-owner';

/**
 * Claims the device's data for `userId` when no account has it yet. Returns the account that
 * holds it when that is another one (the caller must not sync), else null.
 */
export async function claimDeviceData(store: LocalStore, userId: string): Promise<string | null> {
  return store.write(['settings'], async (tx) => {
    let owner = (await tx.get('settings', SYNC_OWNER_SETTING))?.value;
    if (typeof owner !== 'string' || owner === '') {
      // A device that synced before owners were recorded: its cursors say for whom.
      const cursor = syncCursorSetting('');
      const synced = (await tx.keys('settings'))
        .filter((key) => key.startsWith(cursor))
        .map((key) => key.slice(cursor.length));
      if (synced.length > 0 && !synced.includes(userId)) {
        owner = synced[0];
        await tx.put('settings', { key: SYNC_OWNER_SETTING, value: owner });
      }
    }
    if (typeof owner === 'string' && owner !== '' && owner !== userId) return owner;
    if (owner !== userId) await tx.put('settings', { key: SYNC_OWNER_SETTING, value: userId });
    return null;
  });
}

/**
 * Hands the device to `userId`: the present user-made data, sync state and unsynced changes are
 * saved as a full backup and cleared, the pull starts where a new device of this account would,
 * and the account owns the device from now on. Returns the backup's index row.
 */
export async function handOverDeviceData(
  store: LocalStore,
  options: NewEpochStart,
): Promise<FullBackupSummary> {
  // The owner changes in the clearing's transaction: cleared work still owned by the other
  // account would have the next run offer the repair again.
  return revertToNewEpoch(store, {
    ...options,
    reason: { code: 'account-switch', name: 'Another account’s work on this device' },
    settings: [{ key: SYNC_OWNER_SETTING, value: options.userId }],
  });
}

import { requestDone } from './idb-request.ts';
import { lockedBackupDatabase } from './locked-backups.ts';

// What a device database holds, read with plain IndexedDB: whether it holds anything a person
// made, and the full backups of locked accounts kept in it (locked-backups.ts). Only sign-in and
// removal need it (account-databases.ts loads it then), so the first screens' script does not.

/** The tables that hold what a person made or brought in (core's device-data summary's). */
const PERSONAL_TABLES = [
  'bills',
  'datasets',
  'tags',
  'positions',
  'decisions',
  'annotations',
  'fullBackups',
  'outbox',
];

/** Whether a full backup's key is a locked account's backup (locked-backups.ts), not the database's. */
function isLockedBackupKey(key: IDBValidKey): key is string {
  return typeof key === 'string' && lockedBackupDatabase(key) !== null;
}

/**
 * Whether the database exists and holds anything a person made or brought in. A database opened
 * and left empty (a signed-out page reads the unowned one) is not worth giving to anyone; nor is
 * one holding only full backups of locked accounts: those are theirs (locked-backups.ts).
 */
export async function holdsData(name: string, present: readonly string[]): Promise<boolean> {
  if (!present.includes(name)) return false;
  const db = await requestDone(indexedDB.open(name));
  try {
    const tables = PERSONAL_TABLES.filter((table) => db.objectStoreNames.contains(table));
    if (tables.length === 0) return false;
    const tx = db.transaction(tables);
    const counts = await Promise.all(
      tables.map((table) =>
        table === 'fullBackups'
          ? requestDone(tx.objectStore(table).getAllKeys()).then(
              (keys) => keys.filter((key) => !isLockedBackupKey(key)).length,
            )
          : requestDone(tx.objectStore(table).count()),
      ),
    );
    return counts.some((count) => count > 0);
  } finally {
    db.close();
  }
}

/** How many of the database's full backups are locked accounts' (they are not its own data). */
export async function lockedBackupCount(name: string, present: readonly string[]): Promise<number> {
  if (!present.includes(name)) return 0;
  const db = await requestDone(indexedDB.open(name));
  try {
    if (!db.objectStoreNames.contains('fullBackups')) return 0;
    const keys = await requestDone(
      db.transaction('fullBackups').objectStore('fullBackups').getAllKeys(),
    );
    return keys.filter(isLockedBackupKey).length;
  } finally {
    db.close();
  }
}

/**
 * Deletes from the database the full backups made of the locked accounts whose databases `whose`
 * names, with their jobs; reads keys only, never a file.
 */
export async function deleteLockedBackups(
  name: string,
  whose: (database: string) => boolean,
): Promise<void> {
  const db = await requestDone(indexedDB.open(name));
  try {
    if (!db.objectStoreNames.contains('fullBackups')) return;
    const stores = db.objectStoreNames.contains('jobs') ? ['fullBackups', 'jobs'] : ['fullBackups'];
    const tx = db.transaction(stores, 'readwrite');
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => {
        resolve();
      };
      tx.onerror = tx.onabort = () => {
        reject(tx.error ?? new Error('IndexedDB refused the deletion'));
      };
    });
    const backups = tx.objectStore('fullBackups');
    const jobs = stores.includes('jobs') ? tx.objectStore('jobs') : null;
    const keys = (await requestDone(backups.getAllKeys())).filter(
      (key) => isLockedBackupKey(key) && whose(lockedBackupDatabase(key) ?? ''),
    );
    for (const key of keys) {
      backups.delete(key);
      if (jobs?.indexNames.contains('subjectId')) {
        for (const job of await requestDone(jobs.index('subjectId').getAllKeys(key))) {
          jobs.delete(job);
        }
      }
    }
    await done;
  } finally {
    db.close();
  }
}

/** Deletes, from every other database of this browser, the full backups made of these databases. */
export async function deleteLockedBackupsOf(
  databases: readonly string[],
  present: readonly string[],
): Promise<void> {
  for (const name of present) {
    if (databases.includes(name)) continue;
    await deleteLockedBackups(name, (database) => databases.includes(database));
  }
}

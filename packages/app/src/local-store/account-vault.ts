import { sealedTables, type SealedTable } from '@docket/core/store';
import { openVaultAtSignIn } from './device-vault.ts';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';

// What a sign-in with the account's password does to the account's database on this browser
// (issue 38): its vault is opened, or made the first time, and rows written in clear before it
// existed (the account's work from an earlier version, or the data nobody owned that this
// account takes) are sealed at once. Loaded only then: the sign-in page's first script has no
// Argon2id and no Dexie.

const SEAL_BATCH = 500;

async function sealTable(database: string, table: SealedTable): Promise<void> {
  const store = await openIndexedDbLocalStore({ name: database });
  try {
    const keys = await store.read([table], (tx) => tx.keys(table));
    for (let start = 0; start < keys.length; start += SEAL_BATCH) {
      const batch = keys.slice(start, start + SEAL_BATCH);
      // Read and written again in one transaction: the store seals every row it writes.
      await store.write([table], async (tx) => {
        const rows = (await tx.getMany(table, batch)).filter((row) => row !== undefined);
        await tx.putMany(table, rows);
      });
    }
  } finally {
    store.close();
  }
}

/** Seals every private row of the database that is still in clear (its vault must be open). */
export async function sealRowsInClear(database: string): Promise<void> {
  for (const table of sealedTables) await sealTable(database, table);
}

/**
 * At sign-in: the database's vault opened with the password, or made (and what was in clear
 * sealed). 'earlier-password' when the vault was locked under a password the account no longer
 * has (reset since): the caller sets that database aside.
 */
export async function openAccountVault(
  database: string,
  accountId: string,
  password: string,
): Promise<'open' | 'earlier-password'> {
  const opening = await openVaultAtSignIn(database, accountId, password);
  if (opening === 'created') await sealRowsInClear(database);
  return opening === 'wrong-password' ? 'earlier-password' : 'open';
}

import { localTables, type TableName } from './local-store.ts';

// Rows sealed at rest (issue 38). The tables below hold a person's own words or secrets: tag
// names, positions and their Why, notes and highlights, drafts and other settings, the trace,
// backups' names and full backups' bytes, jobs (a backup's job is labelled with its name), API
// keys, what waits to sync and what sync knows of each row, a bill's History. On a device whose
// account has a vault (crypto/device-vault-crypto.ts) each of their rows is stored as its key
// and its indexed fields in clear (what IndexedDB must see to look rows up: ids, dates, kinds,
// never words) and the whole row sealed; a field holding bytes (a full backup's file) is sealed
// apart, as bytes. Bills, datasets, decisions and the rest are public data or bare ids, and stay
// as they are.
//
// A row that is not sealed (written before the account had a vault, or in the database nobody
// owns) is read as it is; the store seals every row of these tables as soon as a vault exists.

export const sealedTables = [
  'tags',
  'positions',
  'annotations',
  'backups',
  'fullBackups',
  'jobs',
  'trace',
  'settings',
  'outbox',
  'syncState',
  'apiKeys',
  'billHistory',
] as const satisfies readonly TableName[];
export type SealedTable = (typeof sealedTables)[number];

/** Where a sealed row keeps the rest of the row, sealed. */
export const SEALED_FIELD = '$sealed';
/** Where a sealed row keeps its fields of bytes, each sealed apart. */
export const SEALED_BYTES_FIELD = '$sealedBytes';

export function isSealedTable(table: TableName): table is SealedTable {
  return (sealedTables as readonly string[]).includes(table);
}

/** The fields a sealed row keeps in clear: its key and the plain fields it is looked up by. */
export function clearFieldsOf(table: SealedTable): readonly string[] {
  const spec = localTables[table];
  const indexed = (spec.indexes as readonly string[])
    .filter((index) => !index.startsWith('['))
    .map((index) => index.replace(/^\*/, ''));
  return [spec.key, ...indexed];
}

/** Whether a stored value is a sealed row (rather than a row written in clear). */
export function isSealedRow(stored: unknown): stored is Record<string, unknown> {
  return (
    typeof stored === 'object' &&
    stored !== null &&
    (stored as Record<string, unknown>)[SEALED_FIELD] instanceof Uint8Array
  );
}

import { openDeviceValue, sealDeviceValue } from '../crypto/device-vault-crypto.ts';
import { SyncCryptoError } from '../crypto/sync-crypto.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import { localTables, type LocalRows } from './local-store.ts';
import {
  clearFieldsOf,
  isSealedRow,
  SEALED_BYTES_FIELD,
  SEALED_FIELD,
  type SealedTable,
} from './sealed-tables.ts';

// A private row sealed and opened (which tables, and what stays in clear: sealed-tables.ts).
// Kept apart from that list so a reader that only asks whether a row is sealed loads no crypto.

/** Marks bytes nested inside a sealed row's JSON (a setting's value can hold some). */
const BYTES_TAG = '\u0000bytes';
/** Marks, inside the JSON, a value that is not data (a WebCrypto key handle) kept beside it. */
const KEPT_TAG = '\u0000kept';
/** Where a sealed row keeps the values JSON cannot carry, as IndexedDB stores them. */
const KEPT_FIELD = '$kept';

function isPlainData(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/**
 * The row as JSON bytes to seal, and what JSON cannot carry: a WebCrypto key handle (the cloud
 * password's keys, which the device keeps non-extractable, so they cannot be sealed as bytes),
 * or any other value that is not plain data (a Date), is kept as it is, beside the sealed part,
 * as IndexedDB stores it, and its place in the JSON marked.
 */
function encodeRow(row: Record<string, unknown>): { bytes: Uint8Array; kept: unknown[] } {
  const kept: unknown[] = [];
  const bytes = encodeUtf8(
    JSON.stringify(row, function (this: unknown, key: string, value: unknown) {
      // The value as it is, before a `toJSON` (a Date's) turned it into something else.
      const original = (this as Record<string, unknown>)[key];
      if (original instanceof Uint8Array) return { [BYTES_TAG]: encodeBase64(original) };
      if (typeof original === 'object' && original !== null && !isPlainData(original)) {
        kept.push(original);
        return { [KEPT_TAG]: kept.length - 1 };
      }
      return value;
    }),
  );
  return { bytes, kept };
}

function decodeRow(bytes: Uint8Array, kept: readonly unknown[]): Record<string, unknown> {
  const parsed: unknown = JSON.parse(decodeUtf8(bytes), (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const fields = value as Record<string, unknown>;
      if (Object.keys(fields).length === 1) {
        const tagged = fields[BYTES_TAG];
        if (typeof tagged === 'string') return decodeBase64(tagged) ?? value;
        const index = fields[KEPT_TAG];
        if (typeof index === 'number') {
          if (!Number.isInteger(index) || index < 0 || index >= kept.length) {
            throw new Error('a kept value is missing');
          }
          return kept[index];
        }
      }
    }
    return value;
  });
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SyncCryptoError('tampered', 'A sealed row of this device is not a row.');
  }
  return parsed as Record<string, unknown>;
}

function keyOf(table: SealedTable, row: Record<string, unknown>): string {
  const key = row[localTables[table].key];
  if (typeof key !== 'string') {
    throw new SyncCryptoError('invalid-input', `A ${table} row has no key to seal it under.`);
  }
  return key;
}

/** The row as it is stored: its clear fields, the rest sealed under the vault's row key. */
export async function sealRow<N extends SealedTable>(
  crypto: WebCryptoPort,
  rowKey: OpaqueCryptoKey,
  table: N,
  row: LocalRows[N],
): Promise<Record<string, unknown>> {
  const fields = row as unknown as Record<string, unknown>;
  const key = keyOf(table, fields);
  const stored: Record<string, unknown> = {};
  for (const field of clearFieldsOf(table)) {
    if (fields[field] !== undefined) stored[field] = fields[field];
  }
  const rest: Record<string, unknown> = {};
  const bytes: Record<string, Uint8Array> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (value instanceof Uint8Array) bytes[field] = value;
    else rest[field] = value;
  }
  const encoded = encodeRow(rest);
  stored[SEALED_FIELD] = await sealDeviceValue(crypto, rowKey, encoded.bytes, [table, key]);
  if (encoded.kept.length > 0) stored[KEPT_FIELD] = encoded.kept;
  const sealedBytes: Record<string, Uint8Array> = {};
  for (const [field, value] of Object.entries(bytes)) {
    sealedBytes[field] = await sealDeviceValue(crypto, rowKey, value, [table, key, field]);
  }
  if (Object.keys(sealedBytes).length > 0) stored[SEALED_BYTES_FIELD] = sealedBytes;
  return stored;
}

/**
 * The row a stored value holds: a row in clear as it is, a sealed one opened. A sealed row moved
 * to another key or table, changed bytes, or clear fields that disagree with the sealed row are
 * refused as tampered. `bytes: false` leaves the fields holding bytes out (a list of full backups
 * needs their names, not their files).
 */
export async function openRow<N extends SealedTable>(
  crypto: WebCryptoPort,
  rowKey: OpaqueCryptoKey,
  table: N,
  stored: unknown,
  options: { readonly bytes?: boolean } = {},
): Promise<LocalRows[N]> {
  if (!isSealedRow(stored)) return stored as LocalRows[N];
  const key = stored[localTables[table].key];
  if (typeof key !== 'string') {
    throw new SyncCryptoError('tampered', `A sealed ${table} row of this device has no key.`);
  }
  let row: Record<string, unknown>;
  try {
    const kept = stored[KEPT_FIELD];
    row = decodeRow(
      await openDeviceValue(crypto, rowKey, stored[SEALED_FIELD] as Uint8Array, [table, key]),
      Array.isArray(kept) ? kept : [],
    );
    const sealedBytes = stored[SEALED_BYTES_FIELD];
    if (options.bytes !== false && typeof sealedBytes === 'object' && sealedBytes !== null) {
      for (const [field, value] of Object.entries(sealedBytes as Record<string, unknown>)) {
        if (!(value instanceof Uint8Array)) throw new Error('not bytes');
        row[field] = await openDeviceValue(crypto, rowKey, value, [table, key, field]);
      }
    }
  } catch {
    throw new SyncCryptoError(
      'tampered',
      `A ${table} row on this device does not open with this account’s key: it was changed or damaged.`,
    );
  }
  for (const field of clearFieldsOf(table)) {
    if (stored[field] !== row[field]) {
      throw new SyncCryptoError(
        'tampered',
        `A ${table} row on this device was changed outside Docket (its ${field} disagrees).`,
      );
    }
  }
  return row as unknown as LocalRows[N];
}

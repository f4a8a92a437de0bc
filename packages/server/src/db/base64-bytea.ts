import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

// Bytes cross the driver boundary as base64 text and are converted by PostgreSQL itself. PGlite
// encodes and decodes bytea parameters and results in JavaScript, a hundred times slower than
// decode()/encode() inside the database (5 × 256 KiB: 2.6 s against 0.03 s); node-postgres is
// fast either way, so one path serves both.

/** A bytea value from base64 text, for insert values. */
export function fromBase64(base64: string): SQL {
  return sql`decode(${base64}, 'base64')`;
}

/** A bytea column as one line of base64 (encode() breaks lines every 76 characters). */
export function base64Of(column: AnyColumn): SQL<string> {
  return sql<string>`translate(encode(${column}, 'base64'), E'\\n', '')`;
}

/** A nullable (or outer-joined) bytea column as base64, null where there are no bytes. */
export function nullableBase64Of(column: AnyColumn): SQL<string | null> {
  return sql<string | null>`translate(encode(${column}, 'base64'), E'\\n', '')`;
}

import type { Table } from 'dexie';

/**
 * The distinct string values of an index, in order, reading one key per value: the first key,
 * then the first key above it, and so on. Dexie's `uniqueKeys()` asks IndexedDB for a
 * `nextunique` cursor, and Chromium's walks every duplicate to find the next value: on 50,000
 * bills in a dozen jurisdictions one `continue()` took 767 ms and held up the deck's first card
 * (bench/cold-start-bench.ts). A dozen seeks cost a dozen short reads whatever the row count.
 * Keys that are not strings (a row without the field is not in the index at all) are skipped.
 */
export async function distinctIndexKeys<Row>(
  table: Table<Row, string>,
  index: string,
): Promise<string[]> {
  const keys: string[] = [];
  let next = (await table.orderBy(index).limit(1).keys())[0];
  while (next !== undefined) {
    if (typeof next === 'string') keys.push(next);
    next = (await table.where(index).above(next).limit(1).keys())[0];
  }
  return keys;
}

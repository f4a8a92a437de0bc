import { z } from 'zod';
import { fnv1a64HexOfText } from '../bills/canonical-hash.ts';
import type { LocalReadTransaction, LocalStore } from '../store/local-store.ts';
import { LegiscanApiError } from './legiscan-api.ts';

// LegiScan's public API key is "limited to 30,000 queries per month" (legiscan.com/legiscan,
// "LegiScan API Services": the Public API). Every operation is one query, whatever it returns.
// This device counts the queries it sends for each key, per calendar month in UTC, in a `device:`
// setting (never synced: another device's queries are its own to count; LegiScan's own count is
// the truth, and it does not tell it). A refresh stops before it would go past the quota, saying
// so, having changed nothing. The key is never kept here, only a hash of it to tell keys apart.

export const LEGISCAN_MONTHLY_QUERIES = 30_000;
export const LEGISCAN_QUERIES_SETTING = 'device:legiscan-queries';

const storedSchema = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  counts: z.record(z.string(), z.number().int().nonnegative()),
});

/** How queries of a key are told apart from another key's, without keeping the key. */
export function legiscanKeyId(key: string): string {
  return fnv1a64HexOfText(`legiscan-key:${key}`);
}

/** The UTC calendar month of an ISO time: "2026-11". */
export function queryMonth(at: string): string {
  return at.slice(0, 7);
}

/** The queries counted for a key in a month, from the setting's stored value. */
export function legiscanQueriesIn(value: unknown, keyId: string, month: string): number {
  const parsed = storedSchema.safeParse(value);
  if (!parsed.success || parsed.data.month !== month) return 0;
  return parsed.data.counts[keyId] ?? 0;
}

export async function readLegiscanQueries(
  tx: LocalReadTransaction,
  keyId: string,
  month: string,
): Promise<number> {
  return legiscanQueriesIn(
    (await tx.get('settings', LEGISCAN_QUERIES_SETTING))?.value,
    keyId,
    month,
  );
}

/** Counts `queries` more for a key this month (an older month's counts are dropped); gives the
 *  new total. */
export async function countLegiscanQueries(
  store: LocalStore,
  keyId: string,
  month: string,
  queries = 1,
): Promise<number> {
  return store.write(['settings'], async (tx) => {
    const parsed = storedSchema.safeParse(
      (await tx.get('settings', LEGISCAN_QUERIES_SETTING))?.value,
    );
    const counts = parsed.success && parsed.data.month === month ? parsed.data.counts : {};
    const total = (counts[keyId] ?? 0) + queries;
    await tx.put('settings', {
      key: LEGISCAN_QUERIES_SETTING,
      value: { month, counts: { ...counts, [keyId]: total } },
    });
    return total;
  });
}

/** "LegiScan queries this month: 1,234 of 30,000", as Settings shows it. */
export function legiscanQueriesWords(used: number, limit = LEGISCAN_MONTHLY_QUERIES): string {
  return `LegiScan queries this month: ${used.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')}`;
}

/**
 * Null when `needed` more queries fit in the month's quota after `used`; else the error that
 * stops the refresh before it sends them.
 */
export function legiscanQuotaRefusal(
  used: number,
  needed: number,
  limit = LEGISCAN_MONTHLY_QUERIES,
): LegiscanApiError | null {
  if (used + needed <= limit) return null;
  const fmt = (value: number) => value.toLocaleString('en-US');
  return new LegiscanApiError(
    'over-quota',
    `This refresh needs ${needed === 1 ? 'another LegiScan query' : `${fmt(needed)} more LegiScan queries`}, and this device has already sent ${fmt(used)} of the ${fmt(limit)} a LegiScan key may send this month. Nothing was changed; refresh again next month.`,
  );
}

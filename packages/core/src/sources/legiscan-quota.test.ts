import { describe, expect, it } from 'vitest';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import {
  countLegiscanQueries,
  LEGISCAN_MONTHLY_QUERIES,
  LEGISCAN_QUERIES_SETTING,
  legiscanKeyId,
  legiscanQueriesWords,
  legiscanQuotaRefusal,
  queryMonth,
  readLegiscanQueries,
} from './legiscan-quota.ts';

describe("LegiScan's monthly quota", () => {
  it('is the public key’s 30,000 queries a month, said in words', () => {
    expect(LEGISCAN_MONTHLY_QUERIES).toBe(30_000);
    expect(legiscanQueriesWords(1234)).toBe('LegiScan queries this month: 1,234 of 30,000');
  });

  it('counts queries per key and per month, never keeping the key', async () => {
    const store = createMemoryLocalStore();
    const a = legiscanKeyId('key-a-secret');
    const b = legiscanKeyId('key-b-secret');
    expect(a).not.toBe(b);
    const month = queryMonth('2026-11-27T00:05:00.000Z');
    expect(month).toBe('2026-11');
    expect(await countLegiscanQueries(store, a, month)).toBe(1);
    expect(await countLegiscanQueries(store, a, month, 2)).toBe(3);
    expect(await countLegiscanQueries(store, b, month)).toBe(1);
    const used = (key: string, at: string) =>
      store.read(['settings'], (tx) => readLegiscanQueries(tx, key, at));
    expect(await used(a, month)).toBe(3);
    expect(await used(b, month)).toBe(1);
    const stored = await store.read(['settings'], (tx) =>
      tx.get('settings', LEGISCAN_QUERIES_SETTING),
    );
    expect(JSON.stringify(stored)).not.toContain('secret');
    // A new month starts from nothing, and the old month's counts go.
    expect(await used(a, '2026-12')).toBe(0);
    expect(await countLegiscanQueries(store, b, '2026-12')).toBe(1);
    expect(await used(a, month)).toBe(0);
  });

  it('refuses, in words, queries that would go past the quota, and allows the last ones', () => {
    expect(legiscanQuotaRefusal(29_998, 2)).toBeNull();
    expect(legiscanQuotaRefusal(29_998, 3)?.message).toBe(
      'This refresh needs 3 more LegiScan queries, and this device has already sent 29,998 of the 30,000 a LegiScan key may send this month. Nothing was changed; refresh again next month.',
    );
    expect(legiscanQuotaRefusal(30_000, 1)?.code).toBe('over-quota');
    expect(legiscanQuotaRefusal(30_000, 1)?.message).toContain('needs another LegiScan query');
  });
});

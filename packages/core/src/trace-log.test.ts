import { describe, expect, it } from 'vitest';
import { createMemoryLocalStore } from './memory-local-store.ts';
import { appendTrace } from './trace-log.ts';

describe('the trace log', () => {
  it('keeps entries in time order and drops the oldest beyond the cap', async () => {
    const store = createMemoryLocalStore();
    for (let n = 0; n < 5; n++) {
      await appendTrace(
        store,
        { kind: 'sync', durationMs: n, details: { run: n } },
        Date.UTC(2026, 0, 1, 0, 0, n),
        { cap: 3 },
      );
    }
    const rows = await store.read(['trace'], (tx) => tx.all('trace'));
    expect(rows.map((row) => row.details.run)).toEqual([2, 3, 4]);
    expect(rows[0]?.at).toBe('2026-01-01T00:00:02.000Z');
  });

  it('refuses an entry without a kind, writing nothing', async () => {
    const store = createMemoryLocalStore();
    await expect(
      appendTrace(store, { kind: '', durationMs: null, details: {} }, 0),
    ).rejects.toThrow();
    expect(await store.read(['trace'], (tx) => tx.count('trace'))).toBe(0);
  });
});

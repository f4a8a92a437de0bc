import { describe, expect, it } from 'vitest';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import {
  allTrace,
  appendTrace,
  readTrace,
  traceDetailLines,
  traceExportJson,
  traceKinds,
  type TraceFilter,
} from './trace-log.ts';

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

describe('reading the trace log', () => {
  const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
  const HOUR = 60 * 60 * 1000;

  async function filled() {
    const store = createMemoryLocalStore();
    const writes: [string, number][] = [
      ['sync', NOW - 8 * 24 * HOUR],
      ['job', NOW - 2 * 24 * HOUR],
      ['sync', NOW - 3 * HOUR],
      ['connectivity', NOW - 30 * 60 * 1000],
      ['sync', NOW - 60 * 1000],
    ];
    for (const [kind, at] of writes) {
      await appendTrace(store, { kind, durationMs: null, details: { at } }, at);
    }
    return store;
  }

  it('filters by kind and by time, newest first', async () => {
    const store = await filled();
    const kinds = async (filter: TraceFilter) =>
      (await readTrace(store, filter, NOW)).map((entry) => entry.kind);
    expect(await kinds(allTrace)).toEqual(['sync', 'connectivity', 'sync', 'job', 'sync']);
    expect(await kinds({ kind: 'sync', window: 'all' })).toEqual(['sync', 'sync', 'sync']);
    expect(await kinds({ kind: null, window: 'hour' })).toEqual(['sync', 'connectivity']);
    expect(await kinds({ kind: null, window: 'day' })).toEqual(['sync', 'connectivity', 'sync']);
    expect(await kinds({ kind: 'job', window: 'week' })).toEqual(['job']);
    expect(traceKinds(await readTrace(store, allTrace, NOW))).toEqual([
      'connectivity',
      'job',
      'sync',
    ]);
  });

  it('shows details as text, whatever they hold', () => {
    expect(
      traceDetailLines({
        error: '<img src=x onerror=alert(1)>',
        pushed: 3,
        ok: true,
        none: null,
        nested: { a: [1, 2] },
        long: 'x'.repeat(3000),
      }).map(
        ([key, value]) =>
          `${key}: ${value.length > 30 ? `${value.slice(0, 5)}…(${value.length})` : value}`,
      ),
    ).toEqual([
      'error: <img src=x onerror=alert(1)>',
      'pushed: 3',
      'ok: true',
      'none: —',
      'nested: {"a":[1,2]}',
      'long: xxxxx…(2001)',
    ]);
  });

  it('exports the filtered entries as JSON', async () => {
    const store = await filled();
    const filter: TraceFilter = { kind: 'sync', window: 'day' };
    const entries = await readTrace(store, filter, NOW);
    const file = JSON.parse(traceExportJson(entries, filter, new Date(NOW).toISOString())) as {
      format: string;
      filter: TraceFilter;
      entries: unknown[];
    };
    expect(file.format).toBe('docket-trace');
    expect(file.filter).toEqual(filter);
    expect(file.entries).toEqual(entries);
  });
});

import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { createMemoryLocalStore, type LocalStore } from '@docket/core/store';
import { storedBill } from '@docket/core/test-support/bill-command-harness';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillList } from './use-bill-list.ts';
import { useListPrint } from './use-list-print.ts';

// "Print" on the Tracked tab against core's memory store as the page's store.
const state = vi.hoisted((): { store: unknown } => ({ store: null }));
vi.mock('../bills/bill-command-services.ts', () => ({
  pageLocalStore: () => Promise.resolve(state.store),
}));

function listOf(resultId: number, ids: readonly string[]): BillList {
  return {
    total: ids.length,
    resultId,
    status: null,
    jurisdictions: [],
    sessions: [],
    decisionCounts: null,
    row: () => undefined,
    load: () => undefined,
    allIds: () => Promise.resolve([...ids]),
    error: null,
  };
}

describe('useListPrint', () => {
  let printed: number;
  beforeEach(async () => {
    const store: LocalStore = createMemoryLocalStore();
    await store.write(['bills'], (tx) =>
      tx.putMany(
        'bills',
        [1, 2, 3].map((n) => storedBill(n)),
      ),
    );
    state.store = store;
    printed = 0;
    vi.spyOn(window, 'print').mockImplementation(() => {
      printed += 1;
    });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('reads every bill of the list, in its order, then asks the browser to print once', async () => {
    const list = listOf(1, ['us/119/hr-3', 'us/119/hr-1', 'us/119/hr-2']);
    const { result } = renderHook(() => useListPrint(list));
    expect(result.current.state.phase).toBe('idle');
    act(() => {
      result.current.print();
    });
    expect(result.current.state.phase).toBe('preparing');
    await waitFor(() => {
      expect(printed).toBe(1);
    });
    const shown = result.current.state;
    expect(shown.phase === 'ready' && shown.entries.map((entry) => entry.bill.identifier)).toEqual([
      'H.R. 3',
      'H.R. 1',
      'H.R. 2',
    ]);
  });

  it('lets the report go after printing, or when the list shows another result', async () => {
    let list = listOf(1, ['us/119/hr-1']);
    const { result, rerender } = renderHook(() => useListPrint(list));
    act(() => {
      result.current.print();
    });
    await waitFor(() => {
      expect(result.current.state.phase).toBe('ready');
    });
    list = listOf(2, ['us/119/hr-2']);
    rerender();
    expect(result.current.state.phase).toBe('idle');

    act(() => {
      result.current.print();
    });
    await waitFor(() => {
      expect(result.current.state.phase).toBe('ready');
    });
    act(() => {
      window.dispatchEvent(new Event('afterprint'));
    });
    expect(result.current.state.phase).toBe('idle');
  });
});

import { describe, expect, it } from 'vitest';
import {
  billChamber,
  compileDeckFilter,
  DECK_FILTER_SETTING,
  deckFilterIsActive,
  emptyDeckFilter,
  foldText,
  parseDeckFilter,
  readDeckFilter,
  saveDeckFilter,
} from './bill-deck-filter.ts';
import type { DeckFilter } from './bill-deck-filter.ts';
import type { StoredBill } from '../store/local-records.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { rowsOf, storedBill } from '../test-support/bill-command-harness.ts';

const filter = (changes: Partial<DeckFilter>): DeckFilter => ({ ...emptyDeckFilter, ...changes });

function stateBill(identifier: string, extra: Partial<StoredBill> = {}): StoredBill {
  return { ...storedBill(1), type: identifier, ...extra };
}

describe('billChamber', () => {
  it('reads the chamber from the bill type', () => {
    expect(billChamber(stateBill('hr'))).toBe('lower');
    expect(billChamber(stateBill('hjres'))).toBe('lower');
    expect(billChamber(stateBill('ab'))).toBe('lower');
    expect(billChamber(stateBill('sjres'))).toBe('upper');
    expect(billChamber(stateBill('sb'))).toBe('upper');
    expect(billChamber(stateBill('lb'))).toBe('legislature');
  });

  it('falls back to the first action naming a chamber, else null', () => {
    const actions = [
      { date: '2024-01-02', text: 'Prefiled', chamber: null },
      { date: '2024-01-03', text: 'Introduced', chamber: 'upper' as const },
      { date: '2024-01-04', text: 'Passed', chamber: 'lower' as const },
    ];
    expect(billChamber(stateBill('b', { actions }))).toBe('upper');
    expect(billChamber(stateBill('b', { actions: [] }))).toBeNull();
  });
});

describe('compileDeckFilter', () => {
  const bill = storedBill(7, {
    title: 'A bill about Rural Crossings and Café permits',
    summary: 'Funds gates and lights.',
    subjects: ['Transportation safety', 'Railroads'],
    sponsors: [{ name: 'Eleanor Marsh', role: 'primary', party: 'D', externalId: null }],
    status: 'in-committee',
  });

  it('puts dataset, jurisdiction and status on indexes and the rest on the bill', () => {
    const compiled = compileDeckFilter(
      filter({ datasetId: 'd1', jurisdiction: 'us', status: 'enacted' }),
    );
    expect(compiled.indexed).toEqual([
      { index: 'datasetIds', value: 'd1' },
      { index: 'jurisdiction', value: 'us' },
      { index: 'status', value: 'enacted' },
    ]);
    expect(compiled.needsBills).toBe(false);
    expect(compileDeckFilter(filter({ search: 'x' })).needsBills).toBe(true);
    expect(compileDeckFilter(filter({ subject: 'x' })).needsBills).toBe(true);
    expect(compileDeckFilter(filter({ chamber: 'upper' })).needsBills).toBe(true);
    expect(compileDeckFilter(filter({ search: '   ' })).needsBills).toBe(false);
  });

  it("puts a session on the id range its bills share, in place of the jurisdiction's index", () => {
    const compiled = compileDeckFilter(
      filter({
        jurisdiction: 'us-wa',
        session: 'us-wa:2025-2026 Regular Session',
        status: 'enacted',
      }),
    );
    expect(compiled.indexed).toEqual([
      { index: 'idPrefix', value: 'us-wa/2025-2026-regular-session/' },
      { index: 'status', value: 'enacted' },
    ]);
    expect(compiled.needsBills).toBe(false);
    const wa = storedBill(1, { jurisdiction: 'us-wa', session: '2025-2026 Regular Session' });
    expect(
      compileDeckFilter(filter({ session: 'us-wa:2025-2026 Regular Session' })).matches(wa),
    ).toBe(true);
    expect(
      compileDeckFilter(filter({ session: 'us-wa:2023-2024 Regular Session' })).matches(wa),
    ).toBe(false);
    // A session of another jurisdiction than the one chosen matches nothing.
    expect(
      compileDeckFilter(
        filter({ jurisdiction: 'us', session: 'us-wa:2025-2026 Regular Session' }),
      ).matches(wa),
    ).toBe(false);
  });

  it('matches every criterion', () => {
    const matches = (changes: Partial<DeckFilter>) =>
      compileDeckFilter(filter(changes)).matches(bill);
    expect(matches({})).toBe(true);
    expect(matches({ datasetId: 'dataset-1' })).toBe(true);
    expect(matches({ datasetId: 'other' })).toBe(false);
    expect(matches({ jurisdiction: 'us' })).toBe(true);
    expect(matches({ jurisdiction: 'us-ca' })).toBe(false);
    expect(matches({ status: 'in-committee' })).toBe(true);
    expect(matches({ status: 'enacted' })).toBe(false);
    expect(matches({ chamber: 'lower' })).toBe(true);
    expect(matches({ chamber: 'upper' })).toBe(false);
    expect(matches({ subject: 'rail' })).toBe(true);
    expect(matches({ subject: 'health' })).toBe(false);
  });

  it('searches all words in identifier, title, summary, subjects and sponsors, folding case and accents', () => {
    const matches = (search: string) => compileDeckFilter(filter({ search })).matches(bill);
    expect(matches('rural CAFE')).toBe(true);
    expect(matches('gates marsh')).toBe(true);
    expect(matches('H.R. 7')).toBe(true);
    expect(matches('hr7')).toBe(true);
    expect(matches('railroads')).toBe(true);
    expect(matches('rural bridges')).toBe(false);
  });

  it('treats a blank filter as inactive and "include later" as no narrowing', () => {
    expect(deckFilterIsActive(emptyDeckFilter)).toBe(false);
    expect(deckFilterIsActive(filter({ search: '  ', includeLater: true }))).toBe(false);
    expect(deckFilterIsActive(filter({ chamber: 'upper' }))).toBe(true);
    expect(foldText('  Ça   Va ')).toBe('ca va');
  });
});

describe('the stored filter', () => {
  it('round-trips through a device setting and writes no outbox entry', async () => {
    const store = createMemoryLocalStore();
    expect(await readDeckFilter(store)).toEqual(emptyDeckFilter);
    const saved = await saveDeckFilter(store, filter({ status: 'enacted', search: 'rail' }));
    expect(await readDeckFilter(store)).toEqual(saved);
    expect(await rowsOf(store, 'settings')).toEqual([{ key: DECK_FILTER_SETTING, value: saved }]);
    expect(DECK_FILTER_SETTING.startsWith('device:')).toBe(true);
    expect(await rowsOf(store, 'outbox')).toEqual([]);
  });

  it('keeps the readable fields of a damaged or newer filter', () => {
    expect(parseDeckFilter(null)).toEqual(emptyDeckFilter);
    expect(parseDeckFilter('nonsense')).toEqual(emptyDeckFilter);
    expect(
      parseDeckFilter({ status: 'enacted', chamber: 'moon', search: 42, future: true }),
    ).toEqual(filter({ status: 'enacted' }));
  });

  it('refuses what is not a filter and clips long text', async () => {
    const store = createMemoryLocalStore();
    const saved = await saveDeckFilter(store, filter({ search: 'x'.repeat(500) }));
    expect(saved.search).toHaveLength(200);
    await expect(
      saveDeckFilter(store, filter({ status: 'sideways' as DeckFilter['status'] })),
    ).rejects.toThrow();
  });
});

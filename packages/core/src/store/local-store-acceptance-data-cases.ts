import { billDeckOrderKeys } from './deck-order-keys.ts';
import {
  datasetFileSchema,
  localRowSchemas,
  storedBillSchema,
  type StoredBill,
} from './local-records.ts';
import type { LocalStoreCase } from './local-store-acceptance.ts';
import {
  hostileStrings,
  billRow,
  richBill,
  datasetFileRow,
  sampleRows,
  tableNames,
  keyOf,
  indexLookups,
  byCodeUnit,
  putAll,
  getOne,
  allOf,
} from './local-store-acceptance-rows.ts';

// The acceptance suite's cases about what a store keeps (local-store-acceptance.ts runs them):
// rows come back equal and valid, as copies, bytes intact, keys in UTF-16 code-unit order, found
// by every index, bills with the deck's keys their decision gives them, and every method on every
// table. Each case gets a fresh, empty store.

export const localStoreDataCases: readonly LocalStoreCase[] = [
  {
    name: 'has sample rows that pass their schemas (so the suite tests real rows)',
    run: ({ expect }) => {
      for (const table of tableNames) {
        for (const n of [0, 1]) {
          expect(localRowSchemas[table].safeParse(sampleRows[table](n)).success).toBe(true);
        }
      }
      expect(storedBillSchema.safeParse(richBill()).success).toBe(true);
    },
  },
  {
    name: 'puts and gets back an equal row in every table, still valid for its schema',
    run: async ({ store, expect }) => {
      for (const table of tableNames) {
        const row = sampleRows[table](7);
        await store.write([table], (tx) => tx.put(table, row));
        const back = await getOne(store, table, keyOf(table, row));
        expect(back).toEqual(row);
        expect(localRowSchemas[table].safeParse(back).success).toBe(true);
      }
    },
  },
  {
    name: 'keeps a bill with its keys in the deck’s recent order, however it was written',
    run: async ({ store, expect }) => {
      const bill = billRow(8);
      delete bill.deckKeys;
      const moved = { ...billRow(9), deckKeys: ['stale'] };
      await store.write(['bills'], async (tx) => {
        await tx.put('bills', bill);
        await tx.putMany('bills', [moved]);
      });
      expect((await getOne(store, 'bills', bill.id))?.deckKeys).toEqual(billDeckOrderKeys(bill));
      expect((await getOne(store, 'bills', moved.id))?.deckKeys).toEqual(billDeckOrderKeys(moved));
    },
  },
  {
    name: 'keeps a bill’s keys in the deck’s order as its decision has them, whoever writes the bill or the decision',
    run: async ({ store, expect }) => {
      const keysOf = async (n: number) => (await getOne(store, 'bills', billRow(n).id))?.deckKeys;
      const decision = (n: number, kind: 'track' | 'dismiss' | 'later') => ({
        billId: billRow(n).id,
        decision: kind,
        decidedAt: '2026-11-27T10:00:00.000Z',
      });
      await putAll(
        store,
        'bills',
        [1, 2, 3, 4, 5].map((n) => billRow(n)),
      );
      // Each write names decisions alone: the store takes the bills into the transaction itself.
      await store.write(['decisions'], async (tx) => {
        await tx.put('decisions', decision(1, 'track'));
        await tx.putMany('decisions', [decision(2, 'dismiss'), decision(3, 'later')]);
      });
      expect(await keysOf(1)).toEqual([]);
      expect(await keysOf(2)).toEqual([]);
      expect(await keysOf(3)).toEqual(billDeckOrderKeys(billRow(3), 'later'));

      // A bill written again (an import, a sync) keeps the keys its decision gives it.
      const renamed = { ...billRow(1), title: 'Renamed' };
      await store.write(['bills'], (tx) => tx.put('bills', renamed));
      await store.write(['bills'], (tx) => tx.putMany('bills', [billRow(2)]));
      expect(await keysOf(1)).toEqual([]);
      expect(await keysOf(2)).toEqual([]);

      // Undone, changed, or cleared: back in the order.
      await store.write(['decisions'], (tx) => tx.delete('decisions', billRow(1).id));
      expect(await keysOf(1)).toEqual(billDeckOrderKeys(renamed));
      await store.write(['decisions'], (tx) => tx.put('decisions', decision(2, 'later')));
      expect(await keysOf(2)).toEqual(billDeckOrderKeys(billRow(2), 'later'));
      await store.write(['decisions'], async (tx) => {
        await tx.putMany('decisions', [decision(4, 'track'), decision(5, 'dismiss')]);
      });
      await store.write(['decisions'], (tx) => tx.deleteMany('decisions', [billRow(4).id]));
      expect(await keysOf(4)).toEqual(billDeckOrderKeys(billRow(4)));
      expect(await keysOf(5)).toEqual([]);
      await store.write(['decisions'], (tx) => tx.deletePrefix('decisions', ''));
      expect(await keysOf(5)).toEqual(billDeckOrderKeys(billRow(5)));

      // A decision for a bill not stored (yet) writes no bill; the bill gets its keys on arrival.
      await store.write(['decisions'], (tx) => tx.put('decisions', decision(6, 'track')));
      expect(await getOne(store, 'bills', billRow(6).id)).toBeUndefined();
      await putAll(store, 'bills', [billRow(6)]);
      expect(await keysOf(6)).toEqual([]);

      // A body that throws leaves the decision and the bill's keys as they were.
      await expect(
        store.write(['decisions'], async (tx) => {
          await tx.put('decisions', decision(3, 'track'));
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      // (Bill 3 is undecided since the decisions were cleared above.)
      expect(await keysOf(3)).toEqual(billDeckOrderKeys(billRow(3)));
    },
  },
  {
    name: 'supports every method on every table',
    run: async ({ store, expect }) => {
      for (const table of tableNames) {
        const rows = [3, 0, 2, 1].map((n) => sampleRows[table](n));
        const keys = rows.map((row) => keyOf(table, row)).sort(byCodeUnit);
        await putAll(store, table, rows);
        await store.read([table], async (tx) => {
          expect(await tx.count(table)).toBe(4);
          expect(await tx.keys(table)).toEqual(keys);
          expect((await tx.all(table)).map((row) => keyOf(table, row))).toEqual(keys);
          expect((await tx.all(table, { limit: 2 })).map((row) => keyOf(table, row))).toEqual(
            keys.slice(0, 2),
          );
          const [k0 = '', k1 = '', k2 = '', k3 = ''] = keys;
          expect(await tx.keysBetween(table, k1, k2, 10)).toEqual([k1, k2]);
          expect(await tx.keysBetween(table, '', `${k3}\uffff`, 3)).toEqual([k0, k1, k2]);
          expect(await tx.keysBetween(table, `${k0}\u0000`, k3, 10)).toEqual([k1, k2, k3]);
          expect(await tx.keysBetween(table, `${k3}\u0000`, `${k3}\uffff`, 10)).toEqual([]);
          expect(await tx.keysBetween(table, k2, k1, 10)).toEqual([]);
          expect(await tx.keysBetween(table, k0, k3, 0)).toEqual([]);
          expect(await tx.getMany(table, [keys[2] ?? '', 'missing', keys[0] ?? ''])).toEqual([
            rows.find((row) => keyOf(table, row) === keys[2]),
            undefined,
            rows.find((row) => keyOf(table, row) === keys[0]),
          ]);
          for (const row of rows) {
            for (const { index, value } of indexLookups(table, row)) {
              const found = (await tx.where(table, index, value)).map((r) => keyOf(table, r));
              expect(found.includes(keyOf(table, row))).toBe(true);
              expect(found).toEqual([...found].sort(byCodeUnit));
            }
          }
        });
        await store.write([table], async (tx) => {
          await tx.delete(table, keys[0] ?? '');
          await tx.deleteMany(table, [keys[1] ?? '', keys[2] ?? '', 'missing']);
        });
        expect(await store.read([table], (tx) => tx.keys(table))).toEqual([keys[3]]);
      }
    },
  },
  {
    name: 'round-trips a bill with nested lists, unicode and hostile strings',
    run: async ({ store, expect }) => {
      const bill = richBill();
      await store.write(['bills'], (tx) => tx.put('bills', bill));
      expect(await getOne(store, 'bills', bill.id)).toEqual(bill);
      expect(storedBillSchema.safeParse(await getOne(store, 'bills', bill.id)).success).toBe(true);
    },
  },
  {
    name: 'round-trips hostile strings as keys and as values',
    run: async ({ store, expect }) => {
      const rows = hostileStrings.map((text, n) => ({
        key: `${text}#${n}`,
        value: { text, nested: [text, { text }] },
      }));
      await putAll(store, 'settings', rows);
      for (const row of rows) expect(await getOne(store, 'settings', row.key)).toEqual(row);
      // An own '__proto__' property, as JSON.parse makes from a hostile file, stays data.
      const parsed = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as unknown;
      await store.write(['settings'], (tx) => tx.put('settings', { key: 'parsed', value: parsed }));
      const back = await getOne(store, 'settings', 'parsed');
      expect(back?.value).toEqual(parsed);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  },
  {
    name: 'keeps bytes as a Uint8Array with every byte intact',
    run: async ({ store, expect }) => {
      const file = datasetFileRow(70_000);
      await store.write(['datasetFiles'], (tx) => tx.put('datasetFiles', file));
      const back = await getOne(store, 'datasetFiles', file.id);
      expect(back?.bytes).toBeInstanceOf(Uint8Array);
      expect(back?.bytes.length).toBe(file.bytes.length);
      expect(Array.from(back?.bytes ?? [])).toEqual(Array.from(file.bytes));
      expect(datasetFileSchema.safeParse(back).success).toBe(true);
    },
  },
  {
    name: 'gives undefined for a missing key, and getMany keeps the order asked for',
    run: async ({ store, expect }) => {
      await putAll(store, 'tags', [sampleRows.tags(1), sampleRows.tags(2)]);
      await store.read(['tags'], async (tx) => {
        expect(await tx.get('tags', 'nope')).toBeUndefined();
        expect(await tx.getMany('tags', [])).toEqual([]);
        expect(
          (await tx.getMany('tags', ['tag-2', 'nope', 'tag-1', 'tag-2'])).map((row) => row?.id),
        ).toEqual(['tag-2', undefined, 'tag-1', 'tag-2']);
      });
    },
  },
  {
    name: 'finds rows by a plain index, exactly and in key order, skipping null fields',
    run: async ({ store, expect }) => {
      const bills = [12, 3, 40].map((n) => billRow(n));
      const [a, b, c] = bills as [StoredBill, StoredBill, StoredBill];
      a.status = 'enacted';
      a.statusDate = '2025-01-01';
      c.status = 'enacted';
      c.jurisdiction = 'us';
      await putAll(store, 'bills', bills);
      await store.read(['bills'], async (tx) => {
        const enacted = await tx.where('bills', 'status', 'enacted');
        expect(enacted.map((row) => row.id)).toEqual([a.id, c.id].sort(byCodeUnit));
        expect(await tx.where('bills', 'status', 'Enacted')).toEqual([]);
        expect(await tx.where('bills', 'status', 'vetoed')).toEqual([]);
        expect((await tx.where('bills', 'statusDate', '2025-01-01')).map((r) => r.id)).toEqual([
          a.id,
        ]);
        expect((await tx.where('bills', 'jurisdiction', 'us')).map((row) => row.id)).toEqual(
          bills.map((row) => row.id).sort(byCodeUnit),
        );
      });
      expect(b.statusDate).toBe(null);
    },
  },
  {
    name: 'finds bills by any of their datasets through the multiEntry index',
    run: async ({ store, expect }) => {
      await putAll(store, 'bills', [
        billRow(1, ['d-a', 'd-b']),
        billRow(2, ['d-b']),
        billRow(3, []),
        billRow(10, ['d-b', 'd-c', 'd-b']),
      ]);
      await store.read(['bills'], async (tx) => {
        const ids = async (dataset: string) =>
          (await tx.where('bills', 'datasetIds', dataset)).map((row) => row.id);
        // Key order is string order: 'us/118/hr-10' sorts before 'us/118/hr-2'.
        expect(await ids('d-b')).toEqual(['us/118/hr-1', 'us/118/hr-10', 'us/118/hr-2']);
        expect(await ids('d-a')).toEqual(['us/118/hr-1']);
        expect(await ids('d-c')).toEqual(['us/118/hr-10']);
        expect(await ids('d-')).toEqual([]);
      });
      // Removing a dataset from a bill takes it out of that dataset's lookup.
      await store.write(['bills'], (tx) => tx.put('bills', billRow(1, ['d-a'])));
      expect(
        (await store.read(['bills'], (tx) => tx.where('bills', 'datasetIds', 'd-b'))).map(
          (row) => row.id,
        ),
      ).toEqual(['us/118/hr-10', 'us/118/hr-2']);
    },
  },
  {
    name: 'lists rows and keys in UTF-16 code-unit order, and limit keeps the first',
    run: async ({ store, expect }) => {
      const keys = ['b', 'a', 'B', 'é', '😀', '\uFFFF', 'a\u0000', '10', '9', 'aa', ' '];
      await putAll(
        store,
        'settings',
        keys.map((key) => ({ key, value: key })),
      );
      // A surrogate pair (😀 is \uD83D\uDE00) sorts before \uFFFF: code units, not code points.
      const expected = [' ', '10', '9', 'B', 'a', 'a\u0000', 'aa', 'b', 'é', '😀', '\uFFFF'];
      await store.read(['settings'], async (tx) => {
        expect(await tx.keys('settings')).toEqual(expected);
        expect((await tx.all('settings')).map((row) => row.key)).toEqual(expected);
        expect((await tx.all('settings', { limit: 3 })).map((row) => row.key)).toEqual(
          expected.slice(0, 3),
        );
        expect(await tx.all('settings', { limit: 0 })).toEqual([]);
        expect(await tx.all('settings', { limit: 1000 })).toHaveLength(expected.length);
        expect(await tx.count('settings')).toBe(expected.length);
      });
    },
  },
  {
    name: 'counts and lists an empty table',
    run: async ({ store, expect }) => {
      await store.read(['annotations'], async (tx) => {
        expect(await tx.count('annotations')).toBe(0);
        expect(await tx.keys('annotations')).toEqual([]);
        expect(await tx.all('annotations')).toEqual([]);
        expect(await tx.where('annotations', 'billId', 'x')).toEqual([]);
      });
    },
  },
  {
    name: 'replaces a row put again under the same key',
    run: async ({ store, expect }) => {
      await putAll(store, 'tags', [sampleRows.tags(1)]);
      await putAll(store, 'tags', [{ ...sampleRows.tags(1), name: 'Renamed' }]);
      await store.read(['tags'], async (tx) => {
        expect((await tx.get('tags', 'tag-1'))?.name).toBe('Renamed');
        expect(await tx.count('tags')).toBe(1);
        expect((await tx.all('tags')).map((row) => row.name)).toEqual(['Renamed']);
      });
    },
  },
  {
    name: 'puts 5 000 bills in one transaction',
    run: async ({ store, expect }) => {
      const bills = Array.from({ length: 5_000 }, (_, n) => billRow(n, ['bulk', `d-${n % 10}`]));
      await putAll(store, 'bills', bills);
      await store.read(['bills'], async (tx) => {
        expect(await tx.count('bills')).toBe(5_000);
        expect(await tx.get('bills', 'us/118/hr-4999')).toEqual(bills[4999]);
        expect(await tx.where('bills', 'datasetIds', 'd-3')).toHaveLength(500);
        expect(await tx.keys('bills')).toEqual(bills.map((row) => row.id).sort(byCodeUnit));
      });
      await store.write(['bills'], (tx) =>
        tx.deleteMany(
          'bills',
          bills.map((row) => row.id),
        ),
      );
      expect(await store.read(['bills'], (tx) => tx.count('bills'))).toBe(0);
    },
    timeout: 60_000,
  },
  {
    name: 'deletes by key prefix exactly the keys that start with it',
    run: async ({ store, expect }) => {
      const keys = [
        'job',
        'job|',
        'job|a',
        'job|\uffff',
        'job|\uffff\uffffz',
        'job|\ud834\udd1e',
        'job}',
        'jo',
        'job-2|a',
        'a\uffff',
        'a\uffff\uffff',
        'b',
      ];
      const rows = keys.map((key) => ({ key, value: key }));
      const remaining = async () => store.read(['settings'], (tx) => tx.keys('settings'));
      await putAll(store, 'settings', rows);
      await store.write(['settings'], (tx) => tx.deletePrefix('settings', 'job|'));
      expect(await remaining()).toEqual(
        keys.filter((key) => !key.startsWith('job|')).sort(byCodeUnit),
      );
      await store.write(['settings'], (tx) => tx.deletePrefix('settings', 'a\uffff'));
      expect(await remaining()).toEqual(['b', 'jo', 'job', 'job-2|a', 'job}']);
      await store.write(['settings'], (tx) => tx.deletePrefix('settings', 'nothing'));
      expect(await remaining()).toHaveLength(5);
      await expect(
        store.write(['settings'], async (tx) => {
          await tx.deletePrefix('settings', 'jo');
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await remaining()).toHaveLength(5);
      await store.write(['settings'], (tx) => tx.deletePrefix('settings', ''));
      expect(await remaining()).toEqual([]);
    },
  },
  {
    name: 'stores copies: changing a row after put, or a row read back, changes nothing stored',
    run: async ({ store, expect }) => {
      const bill = billRow(5, ['d-1']);
      const original = billRow(5, ['d-1']);
      await store.write(['bills'], async (tx) => {
        await tx.put('bills', bill);
        bill.title = 'changed after put';
        bill.datasetIds.push('d-2');
        const inside = await tx.get('bills', bill.id);
        if (inside) inside.title = 'changed inside';
        expect(await tx.get('bills', bill.id)).toEqual(original);
      });
      const read = await getOne(store, 'bills', original.id);
      expect(read).toEqual(original);
      if (read) {
        read.title = 'changed after read';
        read.datasetIds.length = 0;
      }
      const [fromAll] = await allOf(store, 'bills');
      if (fromAll)
        fromAll.sponsors.push({ name: 'x', role: 'primary', party: null, externalId: null });
      expect(await getOne(store, 'bills', original.id)).toEqual(original);
      expect(await store.read(['bills'], (tx) => tx.where('bills', 'datasetIds', 'd-2'))).toEqual(
        [],
      );
      const file = datasetFileRow(1);
      await store.write(['datasetFiles'], (tx) => tx.put('datasetFiles', file));
      file.bytes[0] = 99;
      const back = await getOne(store, 'datasetFiles', file.id);
      expect(back?.bytes[0]).toBe(0);
      if (back) back.bytes[1] = 99;
      expect((await getOne(store, 'datasetFiles', file.id))?.bytes[1]).toBe(1);
    },
  },
];

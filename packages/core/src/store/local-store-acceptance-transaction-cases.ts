import type { LocalRows, LocalWriteTransaction } from './local-store.ts';
import type { LocalStoreCase } from './local-store-acceptance.ts';
import { sleep, billRow, sampleRows, putAll, getOne } from './local-store-acceptance-rows.ts';

// The acceptance suite's cases about transactions (local-store-acceptance.ts runs them): a
// throwing body writes nothing, readers never see half a write, writers take turns, a body sees
// only the tables it named and cannot write in a read, a transaction dies when its body awaits
// anything but the transaction, and a closed store refuses them all. Each case gets a fresh,
// empty store.

export const localStoreTransactionCases: readonly LocalStoreCase[] = [
  {
    name: 'writes nothing when the body throws after several writes, and the error reaches the caller',
    run: async ({ store, expect }) => {
      await putAll(store, 'tags', [sampleRows.tags(1), sampleRows.tags(2)]);
      const boom = new Error('boom');
      const attempt = store.write(['tags', 'bills'], async (tx) => {
        await tx.put('tags', sampleRows.tags(3));
        await tx.put('tags', { ...sampleRows.tags(1), name: 'Changed' });
        await tx.delete('tags', 'tag-2');
        await tx.putMany('bills', [billRow(1), billRow(2)]);
        expect(await tx.count('tags')).toBe(2);
        throw boom;
      });
      await expect(attempt).rejects.toBe(boom);
      await store.read(['tags', 'bills'], async (tx) => {
        expect(await tx.all('tags')).toEqual([sampleRows.tags(1), sampleRows.tags(2)]);
        expect(await tx.count('bills')).toBe(0);
      });
    },
  },
  {
    name: 'rolls back when a write fails on a row without a key',
    run: async ({ store, expect }) => {
      const noKey = { ...sampleRows.tags(9), id: undefined } as unknown as LocalRows['tags'];
      const attempt = store.write(['tags'], async (tx) => {
        await tx.put('tags', sampleRows.tags(1));
        await tx.put('tags', noKey);
      });
      await expect(attempt).rejects.toThrow();
      expect(await store.read(['tags'], (tx) => tx.count('tags'))).toBe(0);
    },
  },
  {
    name: 'writes a row and its outbox entry together or not at all',
    run: async ({ store, expect }) => {
      const position = sampleRows.positions(4);
      const entry = sampleRows.outbox(4);
      await expect(
        store.write(['positions', 'outbox'], async (tx) => {
          await tx.put('positions', position);
          await tx.put('outbox', entry);
          throw new Error('after both');
        }),
      ).rejects.toThrow('after both');
      await store.read(['positions', 'outbox'], async (tx) => {
        expect(await tx.count('positions')).toBe(0);
        expect(await tx.count('outbox')).toBe(0);
      });
      await store.write(['positions', 'outbox'], async (tx) => {
        await tx.put('positions', position);
        await tx.put('outbox', entry);
      });
      await store.read(['positions', 'outbox'], async (tx) => {
        expect(await tx.get('positions', position.billId)).toEqual(position);
        expect(await tx.where('outbox', 'table', 'positions')).toEqual([entry]);
      });
    },
  },
  {
    name: 'lets a read transaction see a completed write',
    run: async ({ store, expect }) => {
      await putAll(store, 'jobs', [sampleRows.jobs(1)]);
      await store.write(['jobs'], (tx) =>
        tx.put('jobs', { ...sampleRows.jobs(1), status: 'failed' }),
      );
      await store.read(['jobs'], async (tx) => {
        expect((await tx.get('jobs', 'job-1'))?.status).toBe('failed');
        expect((await tx.where('jobs', 'status', 'failed')).map((job) => job.id)).toEqual([
          'job-1',
        ]);
      });
    },
  },
  {
    name: 'never shows a reader half of a write',
    run: async ({ store, expect }) => {
      const rows = Array.from({ length: 50 }, (_, n) => sampleRows.trace(n));
      const seen: number[] = [];
      const writing = store.write(['trace'], async (tx) => {
        for (const row of rows) await tx.put('trace', row);
      });
      const readers = Array.from({ length: 5 }, () =>
        store.read(['trace'], async (tx) => {
          seen.push(await tx.count('trace'));
        }),
      );
      await Promise.all([writing, ...readers]);
      for (const count of seen) expect(count === 0 || count === rows.length).toBe(true);
      expect(await store.read(['trace'], (tx) => tx.count('trace'))).toBe(rows.length);
    },
  },
  {
    name: 'lands every one of several concurrent writes',
    run: async ({ store, expect }) => {
      await Promise.all([
        putAll(store, 'datasets', [sampleRows.datasets(1)]),
        putAll(store, 'datasets', [sampleRows.datasets(2)]),
        store.write(['datasets', 'jobs'], async (tx) => {
          await tx.put('datasets', sampleRows.datasets(3));
          await tx.put('jobs', sampleRows.jobs(3));
        }),
      ]);
      expect(await store.read(['datasets'], (tx) => tx.keys('datasets'))).toEqual([
        'dataset-1',
        'dataset-2',
        'dataset-3',
      ]);
    },
  },
  {
    name: 'runs writers one at a time, so read-modify-write does not lose updates',
    run: async ({ store, expect }) => {
      const increment = () =>
        store.write(['settings'], async (tx) => {
          const current = await tx.get('settings', 'counter');
          const value = typeof current?.value === 'number' ? current.value : 0;
          await tx.put('settings', { key: 'counter', value: value + 1 });
        });
      await Promise.all(Array.from({ length: 10 }, increment));
      expect((await getOne(store, 'settings', 'counter'))?.value).toBe(10);
    },
  },
  {
    name: 'returns what the body returns',
    run: async ({ store, expect }) => {
      await putAll(store, 'tags', [sampleRows.tags(1)]);
      expect(await store.read(['tags'], async (tx) => (await tx.get('tags', 'tag-1'))?.name)).toBe(
        'Água',
      );
      expect(await store.write(['tags'], async (tx) => (await tx.count('tags')) + 41)).toBe(42);
    },
  },
  {
    name: 'refuses a table the transaction did not name',
    run: async ({ store, expect }) => {
      await expect(store.read(['tags'], (tx) => tx.count('bills'))).rejects.toThrow();
      await expect(
        store.write(['tags'], async (tx) => {
          await tx.put('tags', sampleRows.tags(1));
          await tx.put('bills', billRow(1));
        }),
      ).rejects.toThrow();
      expect(
        await store.read(['tags', 'bills'], async (tx) => [
          await tx.count('tags'),
          await tx.count('bills'),
        ]),
      ).toEqual([0, 0]);
    },
  },
  {
    name: 'refuses writes in a read transaction',
    run: async ({ store, expect }) => {
      await expect(
        store.read(['tags'], (tx) => (tx as LocalWriteTransaction).put('tags', sampleRows.tags(1))),
      ).rejects.toThrow();
      expect(await store.read(['tags'], (tx) => tx.count('tags'))).toBe(0);
    },
  },
  {
    name: 'loses the transaction when the body awaits something else (IndexedDB auto-commits)',
    run: async ({ store, expect }) => {
      // The mistake this catches: awaiting a timer, a fetch or crypto.subtle inside a body.
      const attempt = store.write(['tags'], async (tx) => {
        await tx.put('tags', sampleRows.tags(1));
        await sleep(20);
        await tx.put('tags', sampleRows.tags(2));
      });
      await expect(attempt).rejects.toThrow();
      expect(await store.read(['tags'], (tx) => tx.get('tags', 'tag-2'))).toBeUndefined();
      // Even with no call after the await, the caller learns the body outlived its transaction.
      await expect(
        store.read(['tags'], async (tx) => {
          const count = await tx.count('tags');
          await sleep(20);
          return count;
        }),
      ).rejects.toThrow();
      // The store is still usable afterwards.
      await putAll(store, 'tags', [sampleRows.tags(3)]);
      expect(await store.read(['tags'], (tx) => tx.count('tags'))).not.toBe(0);
    },
  },
  {
    name: 'refuses transactions after close',
    run: async ({ store, expect }) => {
      store.close();
      await expect(store.read(['tags'], (tx) => tx.count('tags'))).rejects.toThrow();
      await expect(putAll(store, 'tags', [sampleRows.tags(1)])).rejects.toThrow();
    },
  },
];

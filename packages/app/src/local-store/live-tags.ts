import type { BillTag, Tag } from '@docket/core/store';
import { sortTagsByName } from '@docket/core/lists';
import { liveDatabase, useLiveRead } from './live-database.ts';

// Live reads of the tags and their assignments for the tag picker, the bill-tags screen, a
// bill's details, the Tracked tab and the export screen. Writes go through core's tag commands.

/** Every tag by name (core's tag-order.ts); undefined while loading. */
export function useTags(): Tag[] | undefined {
  return useLiveRead(
    async (store) => sortTagsByName(await store.read(['tags'], (tx) => tx.all('tags'))),
    [],
  );
}

/** How many bills carry each tag (tags on no bill are absent); undefined while loading. */
export function useTagBillCounts(): ReadonlyMap<string, number> | undefined {
  // Only the index is walked, through Dexie: a tag on 50,000 bills costs no row reads, which
  // core's store interface (rows by index value) cannot promise.
  return useLiveRead(async () => {
    const counts = new Map<string, number>();
    await liveDatabase()
      .table<BillTag, string>('billTags')
      .orderBy('tagId')
      .eachKey((tagId) => {
        if (typeof tagId === 'string') counts.set(tagId, (counts.get(tagId) ?? 0) + 1);
      });
    return counts;
  }, []);
}

/** The tags on one bill, by name; undefined while loading. */
export function useBillTags(billId: string | null): Tag[] | undefined {
  return useLiveRead(
    async (store) => {
      if (billId === null) return [];
      const tags = await store.read(['billTags', 'tags'], async (tx) => {
        const assignments = await tx.where('billTags', 'billId', billId);
        return tx.getMany(
          'tags',
          assignments.map((assignment) => assignment.tagId),
        );
      });
      return sortTagsByName(tags.filter((tag): tag is Tag => tag !== undefined));
    },
    [billId],
  );
}

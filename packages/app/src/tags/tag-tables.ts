import { useLiveQuery } from 'dexie-react-hooks';
import type { BillTag, Tag } from '@docket/core/store';
import { liveDatabase } from '../jobs/live-tables.ts';

// Live reads of the tags and their assignments for the tag picker, the bill-tags screen and a
// bill's details. Writes go through core's tag commands only.

const nameOrder = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Tags in the order people look for them: by name, ignoring case and accents. */
export function sortTagsByName(tags: readonly Tag[]): Tag[] {
  return [...tags].sort((a, b) => nameOrder.compare(a.name, b.name) || a.id.localeCompare(b.id));
}

/** Every tag by name; undefined while loading. */
export function useTags(): Tag[] | undefined {
  return useLiveQuery(
    async () => sortTagsByName(await liveDatabase().table<Tag, string>('tags').toArray()),
    [],
  );
}

/** How many bills carry each tag (tags on no bill are absent); undefined while loading. */
export function useTagBillCounts(): ReadonlyMap<string, number> | undefined {
  return useLiveQuery(async () => {
    const counts = new Map<string, number>();
    // Only the index is walked: a tag on 50,000 bills costs no row reads.
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
  return useLiveQuery(async () => {
    if (billId === null) return [];
    const database = liveDatabase();
    const assignments = await database
      .table<BillTag, string>('billTags')
      .where('billId')
      .equals(billId)
      .toArray();
    const tags = await database.table<Tag, string>('tags').bulkGet(assignments.map((a) => a.tagId));
    return sortTagsByName(tags.filter((tag): tag is Tag => tag !== undefined));
  }, [billId]);
}

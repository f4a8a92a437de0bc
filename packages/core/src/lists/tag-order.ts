import type { Tag } from '../store/local-records.ts';

// The one order tags are shown in, wherever a list of them is (the tag picker, the bill-tags
// screen, a bill's details, the Tracked tab's filter, the export screen's choice).

const nameOrder = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Tags in the order people look for them: by name, ignoring case and accents, numbers by value. */
export function sortTagsByName(tags: readonly Tag[]): Tag[] {
  return [...tags].sort((a, b) => nameOrder.compare(a.name, b.name) || a.id.localeCompare(b.id));
}

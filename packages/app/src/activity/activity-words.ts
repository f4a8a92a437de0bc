import type { ActivityItem } from '../local-store/live-activity.ts';

// What a teammate did, in words, for a workspace's Activity list: "tagged AB 1 Housing", after
// the member's name. A row keeps only its newest write, so each says what the row now is.

const POSITION_WORDS: Readonly<Record<string, string>> = {
  support: 'Support',
  oppose: 'Oppose',
  watch: 'Watch',
};

function billOf(item: ActivityItem): string {
  return item.bill?.identifier ?? 'a bill';
}

function tagOf(item: ActivityItem): string {
  return item.tagName === null ? 'a tag' : `the tag “${item.tagName}”`;
}

function decisionWords(item: ActivityItem): string {
  if (item.entry.deleted) return `undid the decision on ${billOf(item)}`;
  switch (item.entry.fields.decision) {
    case 'track':
      return `tracked ${billOf(item)}`;
    case 'dismiss':
      return `dismissed ${billOf(item)}`;
    case 'later':
      return `put ${billOf(item)} off for later`;
    default:
      return `decided on ${billOf(item)}`;
  }
}

function positionWords(item: ActivityItem): string {
  const position = POSITION_WORDS[String(item.entry.fields.position)];
  if (item.entry.deleted || position === undefined) {
    return `cleared the position on ${billOf(item)}`;
  }
  return `took the position ${position} on ${billOf(item)}`;
}

function tagWords(item: ActivityItem): string {
  if (item.entry.deleted) return 'deleted a tag';
  const { createdAt, updatedAt } = item.entry.fields;
  return createdAt !== undefined && createdAt === updatedAt
    ? `made ${tagOf(item)}`
    : `changed ${tagOf(item)}`;
}

/** What the member did to the row, without their name. */
export function activityWords(item: ActivityItem): string {
  switch (item.entry.table) {
    case 'decisions':
      return decisionWords(item);
    case 'positions':
      return positionWords(item);
    case 'billTags':
      if (item.entry.deleted) return `removed ${tagOf(item)} from ${billOf(item)}`;
      return item.tagName === null
        ? `tagged ${billOf(item)}`
        : `tagged ${billOf(item)} “${item.tagName}”`;
    case 'tags':
      return tagWords(item);
    case 'annotations':
      return item.entry.deleted ? 'removed a note' : `annotated ${billOf(item)}`;
  }
}

import type { TeamActivityEntry } from '@docket/core/sync';
import { describe, expect, it } from 'vitest';
import type { ActivityItem } from '../local-store/live-activity.ts';
import { activityWords } from './activity-words.ts';

// Each kind of teammate's write, said as the Activity list says it after the member's name.

function item(
  table: TeamActivityEntry['table'],
  fields: Record<string, unknown>,
  {
    deleted = false,
    bill = true,
    tagName = 'Housing',
  }: { deleted?: boolean; bill?: boolean; tagName?: string | null } = {},
): ActivityItem {
  return {
    entry: {
      table,
      rowId: 'row',
      userId: 'u',
      at: '2026-12-01T10:00:00.000Z',
      deleted,
      fields,
      billId: 'ca/ab-1',
      tagId: 'tag-1',
      unseen: true,
    },
    bill: bill ? { identifier: 'AB 1', title: 'Housing bill' } : null,
    tagName,
  };
}

describe('what a teammate did, in words', () => {
  it('says decisions, positions, tags and notes', () => {
    expect(activityWords(item('decisions', { decision: 'track' }))).toBe('tracked AB 1');
    expect(activityWords(item('decisions', { decision: 'dismiss' }))).toBe('dismissed AB 1');
    expect(activityWords(item('decisions', { decision: 'later' }))).toBe('put AB 1 off for later');
    expect(activityWords(item('decisions', {}, { deleted: true }))).toBe(
      'undid the decision on AB 1',
    );
    expect(activityWords(item('positions', { position: 'support' }))).toBe(
      'took the position Support on AB 1',
    );
    expect(activityWords(item('positions', { position: 'none' }))).toBe(
      'cleared the position on AB 1',
    );
    expect(activityWords(item('billTags', {}))).toBe('tagged AB 1 “Housing”');
    expect(activityWords(item('billTags', {}, { deleted: true }))).toBe(
      'removed the tag “Housing” from AB 1',
    );
    const at = '2026-12-01T09:00:00.000Z';
    expect(activityWords(item('tags', { createdAt: at, updatedAt: at }))).toBe(
      'made the tag “Housing”',
    );
    expect(activityWords(item('tags', { createdAt: at, updatedAt: 'later' }))).toBe(
      'changed the tag “Housing”',
    );
    expect(activityWords(item('tags', {}, { deleted: true }))).toBe('deleted a tag');
    expect(activityWords(item('annotations', { billId: 'ca/ab-1' }))).toBe('annotated AB 1');
    expect(activityWords(item('annotations', {}, { deleted: true }))).toBe('removed a note');
  });

  it('says “a bill” and “a tag” for what this device does not hold', () => {
    expect(activityWords(item('billTags', {}, { bill: false, tagName: null }))).toBe(
      'tagged a bill',
    );
    expect(activityWords(item('billTags', {}, { deleted: true, tagName: null }))).toBe(
      'removed a tag from AB 1',
    );
  });
});

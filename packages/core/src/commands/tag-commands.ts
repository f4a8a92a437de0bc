import type { BillCommandContext } from './bill-command-context.ts';
import {
  BillCommandError,
  commandTime,
  distinct,
  newRowId,
  parseHexColour,
  requireBills,
  withLabel,
  requireRow,
} from './bill-command-context.ts';
import type { BillTag, Tag } from '../store/local-records.ts';
import { billTagSchema, tagSchema } from '../store/local-records.ts';
import type { LocalReadTransaction } from '../store/local-store.ts';
import type { OutboxPut } from '../merge/outbox-changes.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';

// Tags and their assignments to bills. Every command writes the rows it changes and one outbox
// entry per row (format in outbox-changes.ts) in one transaction, and never touches `bills`.
// A merge or a delete says how many bills it touched; `tagUsage` tells the screen beforehand,
// and `deleteTag` can be told what the user was shown, so that nothing goes silently.

export const TAG_NAME_MAX = 100;

const tagTables = ['bills', 'tags', 'billTags', ...outboxTables] as const;

/** A bill carries a tag at most once: the assignment's id is made of the two. */
export function billTagId(billId: string, tagId: string): string {
  return `${billId}|${tagId}`;
}

const billCount = (count: number): string => (count === 1 ? '1 bill' : `${count} bills`);

/** Names are compared as people read them: case and Unicode composition do not matter. */
function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

function parseTagName(value: string): string {
  const name = value.trim();
  if (name === '') throw new BillCommandError('invalid-input', 'Enter a name for the tag.');
  if (name.length > TAG_NAME_MAX) {
    throw new BillCommandError(
      'invalid-input',
      `A tag name is at most ${TAG_NAME_MAX} characters; this one has ${name.length}.`,
    );
  }
  return name;
}

async function requireUniqueName(
  tx: LocalReadTransaction,
  name: string,
  exceptTagId: string | null,
): Promise<void> {
  const key = nameKey(name);
  const clash = (await tx.all('tags')).find(
    (tag) => tag.id !== exceptTagId && nameKey(tag.name) === key,
  );
  if (clash) {
    throw new BillCommandError(
      'duplicate-tag-name',
      `There is already a tag named "${clash.name}". Choose another name, or merge the tags.`,
    );
  }
}

export async function createTag(
  context: BillCommandContext,
  input: { name: string; color: string },
): Promise<Tag> {
  const name = parseTagName(input.name);
  const color = parseHexColour(input.color);
  const id = newRowId(context);
  const { nowMs, at } = commandTime(context);
  return context.store.write(tagTables, async (tx) => {
    await requireUniqueName(tx, name, null);
    if (await tx.get('tags', id)) throw new Error(`The new tag id ${id} is already taken.`);
    const tag = tagSchema.parse({ id, name, color, createdAt: at, updatedAt: at });
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.put('tags', { row: tag });
    await outbox.close();
    return tag;
  });
}

async function editTag(
  context: BillCommandContext,
  tagId: string,
  edit: { name: string } | { color: string },
): Promise<Tag> {
  const name = 'name' in edit ? parseTagName(edit.name) : null;
  const color = 'color' in edit ? parseHexColour(edit.color) : null;
  const { nowMs, at } = commandTime(context);
  return context.store.write(tagTables, async (tx) => {
    const tag = await requireRow(tx, 'tags', tagId);
    if (name !== null) {
      if (name === tag.name) return tag;
      await requireUniqueName(tx, name, tagId);
    }
    if (color !== null && color === tag.color) return tag;
    const changed: Tag = tagSchema.parse({
      ...tag,
      ...(name === null ? {} : { name }),
      ...(color === null ? {} : { color }),
      updatedAt: at,
    });
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.put('tags', {
      row: changed,
      changed: [name === null ? 'color' : 'name', 'updatedAt'],
    });
    await outbox.close();
    return changed;
  });
}

/** Renames a tag; changing only the case of its name is a rename too. */
export function renameTag(context: BillCommandContext, tagId: string, name: string): Promise<Tag> {
  return editTag(context, tagId, { name });
}

export function recolourTag(
  context: BillCommandContext,
  tagId: string,
  color: string,
): Promise<Tag> {
  return editTag(context, tagId, { color });
}

export interface TagUsage {
  tagId: string;
  /** Bills carrying the tag: what a delete or merge of it touches. */
  billCount: number;
}

/** How many bills carry a tag, for the question a screen asks before a delete or a merge. */
export async function tagUsage(
  context: Pick<BillCommandContext, 'store'>,
  tagId: string,
): Promise<TagUsage> {
  return context.store.read(['tags', 'billTags'], async (tx) => {
    await requireRow(tx, 'tags', tagId);
    return { tagId, billCount: (await tx.where('billTags', 'tagId', tagId)).length };
  });
}

export interface MergeTagsResult {
  /** Bills that carried the source tag: all of them carry the target now. */
  billsTouched: number;
  /** Of those, the ones that were given the target tag. */
  moved: number;
  /** Of those, the ones that already had the target tag (the duplicate was dropped). */
  alreadyTagged: number;
}

/**
 * Moves every assignment of `sourceId` to `targetId` and deletes the source tag. A bill with
 * both keeps one; a moved assignment keeps the time the bill was first tagged.
 */
export async function mergeTags(
  context: BillCommandContext,
  sourceId: string,
  targetId: string,
): Promise<MergeTagsResult> {
  if (sourceId === targetId) {
    throw new BillCommandError('invalid-input', 'A tag cannot be merged into itself.');
  }
  const { nowMs } = commandTime(context);
  return context.store.write(tagTables, async (tx) => {
    await requireRow(tx, 'tags', sourceId);
    await requireRow(tx, 'tags', targetId);
    const assignments = await tx.where('billTags', 'tagId', sourceId);
    const targetBills = new Set(
      (await tx.where('billTags', 'tagId', targetId)).map((assignment) => assignment.billId),
    );
    const moved: OutboxPut<'billTags'>[] = assignments
      .filter((assignment) => !targetBills.has(assignment.billId))
      .map((assignment) => ({
        row: billTagSchema.parse({
          id: billTagId(assignment.billId, targetId),
          billId: assignment.billId,
          tagId: targetId,
          createdAt: assignment.createdAt,
        }),
      }));
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.putMany('billTags', moved);
    await outbox.deleteMany(
      'billTags',
      assignments.map((assignment) => assignment.id),
    );
    await outbox.delete('tags', sourceId);
    await outbox.close();
    return {
      billsTouched: assignments.length,
      moved: moved.length,
      alreadyTagged: assignments.length - moved.length,
    };
  });
}

/**
 * Deletes a tag and takes it off every bill. With `expectedBillCount` (what the screen showed
 * from `tagUsage`), a tag that has reached other bills since is refused, so the user is asked
 * again rather than losing more than they agreed to.
 */
export async function deleteTag(
  context: BillCommandContext,
  tagId: string,
  options: { expectedBillCount?: number } = {},
): Promise<{ billsTouched: number }> {
  const { nowMs } = commandTime(context);
  return context.store.write(tagTables, async (tx) => {
    const tag = await requireRow(tx, 'tags', tagId);
    const assignments = await tx.where('billTags', 'tagId', tagId);
    const expected = options.expectedBillCount;
    if (expected !== undefined && expected !== assignments.length) {
      throw new BillCommandError(
        'usage-changed',
        `"${tag.name}" is now on ${billCount(assignments.length)}, not ${expected}. Check before deleting it.`,
      );
    }
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.deleteMany(
      'billTags',
      assignments.map((assignment) => assignment.id),
    );
    await outbox.delete('tags', tagId);
    await outbox.close();
    return { billsTouched: assignments.length };
  });
}

export interface TagBillsResult {
  /** Bills that got the tag now. */
  tagged: number;
  /** Bills that had it already: nothing written for them. */
  alreadyTagged: number;
}

/** Puts a tag on bills, one or many (the list's multi-select). */
export async function tagBills(
  context: BillCommandContext,
  billIds: readonly string[],
  tagId: string,
): Promise<TagBillsResult> {
  const ids = distinct(billIds);
  const { nowMs, at } = commandTime(context);
  return context.store.write(tagTables, async (tx) => {
    await requireRow(tx, 'tags', tagId);
    const labels = await requireBills(tx, ids);
    const existing = await tx.getMany(
      'billTags',
      ids.map((billId) => billTagId(billId, tagId)),
    );
    const added: OutboxPut<'billTags'>[] = [];
    ids.forEach((billId, index) => {
      if (existing[index] !== undefined) return;
      const row: BillTag = billTagSchema.parse({
        id: billTagId(billId, tagId),
        billId,
        tagId,
        createdAt: at,
        ...withLabel(labels.get(billId)),
      });
      added.push({ row });
    });
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.putMany('billTags', added);
    await outbox.close();
    return { tagged: added.length, alreadyTagged: ids.length - added.length };
  });
}

export interface UntagBillsResult {
  untagged: number;
  /** Bills that did not carry the tag. */
  notTagged: number;
}

/**
 * Takes a tag off bills. The bills need not be on this device any more: a bill its dataset no
 * longer provides can still be cleaned of tags.
 */
export async function untagBills(
  context: BillCommandContext,
  billIds: readonly string[],
  tagId: string,
): Promise<UntagBillsResult> {
  const ids = distinct(billIds);
  const { nowMs } = commandTime(context);
  return context.store.write(tagTables, async (tx) => {
    await requireRow(tx, 'tags', tagId);
    const assignmentIds = ids.map((billId) => billTagId(billId, tagId));
    const existing = await tx.getMany('billTags', assignmentIds);
    const present = assignmentIds.filter((_, index) => existing[index] !== undefined);
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.deleteMany('billTags', present);
    await outbox.close();
    return { untagged: present.length, notTagged: ids.length - present.length };
  });
}

import { describe, expect, it } from 'vitest';
import type { BillCommandErrorCode } from './bill-command-context.ts';
import { BillCommandError } from './bill-command-context.ts';
import {
  billTagId,
  createTag,
  deleteTag,
  mergeTags,
  recolourTag,
  renameTag,
  tagBills,
  tagUsage,
  untagBills,
} from './tag-commands.ts';
import type { TestContext } from '../test-support/bill-command-harness.ts';
import {
  billIdOf,
  billLabelOf,
  everything,
  fieldValue,
  newOutbox,
  outboxOf,
  rowsOf,
  storeWithBills,
  T0,
} from '../test-support/bill-command-harness.ts';

const iso = (ms: number) => new Date(ms).toISOString();

async function refused(
  attempt: Promise<unknown>,
  code: BillCommandErrorCode,
  message: RegExp,
): Promise<void> {
  const error: unknown = await attempt.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(BillCommandError);
  expect((error as BillCommandError).code).toBe(code);
  expect((error as BillCommandError).message).toMatch(message);
}

async function tagged(context: TestContext, tagId: string): Promise<string[]> {
  return (await rowsOf(context.store, 'billTags'))
    .filter((row) => row.tagId === tagId)
    .map((row) => row.billId);
}

describe('createTag', () => {
  it('stores the trimmed name and lower-case colour, with one outbox put of every field', async () => {
    const { store, context } = await storeWithBills(0);
    const tag = await createTag(context, { name: '  Water quality ', color: '#1A7F37' });
    expect(tag).toEqual({
      id: 'device-a-0001',
      name: 'Water quality',
      color: '#1a7f37',
      createdAt: iso(T0),
      updatedAt: iso(T0),
    });
    expect(await rowsOf(store, 'tags')).toEqual([tag]);
    const outbox = await outboxOf(store);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ table: 'tags', rowId: tag.id, op: 'put' });
    expect(Object.keys(outbox[0]?.fields ?? {}).sort()).toEqual([
      'color',
      'createdAt',
      'name',
      'updatedAt',
    ]);
    expect(fieldValue(outbox[0], 'name')).toBe('Water quality');
  });

  it('checks the name: 1 to 100 characters after trimming, unique whatever the case', async () => {
    const { store, context } = await storeWithBills(0);
    await createTag(context, { name: 'Water', color: '#000000' });
    const before = await everything(store);
    await refused(
      createTag(context, { name: '   ', color: '#000000' }),
      'invalid-input',
      /Enter a name/,
    );
    await refused(
      createTag(context, { name: 'x'.repeat(101), color: '#000000' }),
      'invalid-input',
      /at most 100 characters; this one has 101/,
    );
    await refused(
      createTag(context, { name: ' wATER ', color: '#000000' }),
      'duplicate-tag-name',
      /already a tag named "Water"/,
    );
    expect(await everything(store)).toEqual(before);
    // Composed and decomposed "é" are the same name to a reader.
    await createTag(context, { name: 'Caf\u00e9', color: '#000000' });
    await refused(
      createTag(context, { name: 'CAFE\u0301', color: '#000000' }),
      'duplicate-tag-name',
      /Café/,
    );
    expect(
      (await createTag(context, { name: 'y'.repeat(100), color: '#000000' })).name,
    ).toHaveLength(100);
  });

  it('checks the colour', async () => {
    const { context } = await storeWithBills(0);
    for (const color of ['red', '#12345', '#1234567', '#GGGGGG', '1a7f37', '']) {
      await refused(createTag(context, { name: 'T', color }), 'invalid-input', /#rrggbb/);
    }
  });

  it('keeps hostile names as text', async () => {
    const { context } = await storeWithBills(0);
    const name = '<img src=x onerror=alert(1)>';
    expect((await createTag(context, { name, color: '#ff0000' })).name).toBe(name);
  });
});

describe('renameTag and recolourTag', () => {
  it('sync only the field that changed, with updatedAt', async () => {
    const { store, context } = await storeWithBills(0);
    const tag = await createTag(context, { name: 'Water', color: '#000000' });
    context.setNow(T0 + 1_000);
    const renamed = await renameTag(context, tag.id, 'Clean water');
    expect(renamed).toEqual({ ...tag, name: 'Clean water', updatedAt: iso(T0 + 1_000) });
    const recoloured = await recolourTag(context, tag.id, '#FF8800');
    expect(recoloured.color).toBe('#ff8800');
    const [, rename, recolour] = await outboxOf(store);
    expect(rename?.fields).toEqual({
      name: { value: 'Clean water', hlc: rename?.id },
      updatedAt: { value: iso(T0 + 1_000), hlc: rename?.id },
    });
    expect(Object.keys(recolour?.fields ?? {})).toEqual(['color', 'updatedAt']);
  });

  it('writes nothing for no change, allows a change of case, refuses another tag’s name', async () => {
    const { store, context } = await storeWithBills(0);
    const water = await createTag(context, { name: 'Water', color: '#000000' });
    await createTag(context, { name: 'Energy', color: '#000000' });
    const before = await everything(store);
    await renameTag(context, water.id, ' Water ');
    await recolourTag(context, water.id, '#000000');
    expect(await everything(store)).toEqual(before);
    expect((await renameTag(context, water.id, 'WATER')).name).toBe('WATER');
    await refused(renameTag(context, water.id, 'energy'), 'duplicate-tag-name', /"Energy"/);
    await refused(renameTag(context, 'gone', 'X'), 'unknown-tag', /no tag "gone"/);
    await refused(recolourTag(context, 'gone', '#000000'), 'unknown-tag', /no tag/);
  });
});

describe('tagBills and untagBills', () => {
  it('tag several bills at once, skipping those already tagged and repeated ids', async () => {
    const { store, context } = await storeWithBills(3);
    const tag = await createTag(context, { name: 'Water', color: '#000000' });
    await tagBills(context, [billIdOf(2)], tag.id);
    const seen = (await outboxOf(store)).length;
    const result = await tagBills(
      context,
      [billIdOf(1), billIdOf(2), billIdOf(3), billIdOf(1)],
      tag.id,
    );
    expect(result).toEqual({ tagged: 2, alreadyTagged: 1 });
    expect((await tagged(context, tag.id)).sort()).toEqual([billIdOf(1), billIdOf(2), billIdOf(3)]);
    const entries = await newOutbox(store, seen);
    expect(entries.map((entry) => [entry.table, entry.rowId, entry.op])).toEqual([
      ['billTags', billTagId(billIdOf(1), tag.id), 'put'],
      ['billTags', billTagId(billIdOf(3), tag.id), 'put'],
    ]);
    expect(entries[0]?.fields).toEqual({
      billId: { value: billIdOf(1), hlc: entries[0]?.id },
      tagId: { value: tag.id, hlc: entries[0]?.id },
      createdAt: { value: iso(T0), hlc: entries[0]?.id },
      billLabel: { value: billLabelOf(1), hlc: entries[0]?.id },
    });
  });

  it('bulk-tag hundreds of bills with one entry each, in order, in one go', async () => {
    const { store, context } = await storeWithBills(500);
    const tag = await createTag(context, { name: 'All', color: '#000000' });
    const ids = Array.from({ length: 500 }, (_, index) => billIdOf(index + 1));
    expect(await tagBills(context, ids, tag.id)).toEqual({ tagged: 500, alreadyTagged: 0 });
    const entries = await newOutbox(store, 1);
    expect(entries).toHaveLength(500);
    expect(new Set(entries.map((entry) => entry.rowId)).size).toBe(500);
    // Within one millisecond the counter orders them; the outbox's key order is their order.
    expect(entries.map((entry) => entry.id)).toEqual(entries.map((entry) => entry.id).sort());
    // Past 64 bills only keys are read: the assignments keep no label.
    expect(entries[0]?.fields).not.toHaveProperty('billLabel');
  });

  it('refuse unknown bills (one or among many) and unknown tags, writing nothing', async () => {
    const { store, context } = await storeWithBills(100);
    const tag = await createTag(context, { name: 'Water', color: '#000000' });
    const before = await everything(store);
    await refused(tagBills(context, ['us/119/hr-999'], tag.id), 'unknown-bill', /no bill/);
    const many = [...Array.from({ length: 100 }, (_, i) => billIdOf(i + 1)), 'us/119/hr-998'];
    await refused(
      tagBills(context, many, tag.id),
      'unknown-bill',
      /no bill "us\/119\/hr-998" on this device/,
    );
    await refused(
      tagBills(context, ['us/119/hr-997', 'us/119/hr-998'], tag.id),
      'unknown-bill',
      /2 of these bills are not on this device/,
    );
    await refused(tagBills(context, [billIdOf(1)], 'nope'), 'unknown-tag', /no tag "nope"/);
    await refused(untagBills(context, [billIdOf(1)], 'nope'), 'unknown-tag', /no tag/);
    expect(await everything(store)).toEqual(before);
  });

  it('untag the bills that carry the tag, with a delete entry each', async () => {
    const { store, context } = await storeWithBills(3);
    const tag = await createTag(context, { name: 'Water', color: '#000000' });
    await tagBills(context, [billIdOf(1), billIdOf(2)], tag.id);
    const seen = (await outboxOf(store)).length;
    // A bill no longer on the device can still lose its tag.
    const result = await untagBills(context, [billIdOf(1), billIdOf(3), 'us/119/hr-404'], tag.id);
    expect(result).toEqual({ untagged: 1, notTagged: 2 });
    expect(await tagged(context, tag.id)).toEqual([billIdOf(2)]);
    expect(await newOutbox(store, seen)).toMatchObject([
      { table: 'billTags', rowId: billTagId(billIdOf(1), tag.id), op: 'delete', fields: null },
    ]);
  });
});

describe('mergeTags', () => {
  it('moves assignments, drops duplicates, deletes the source and counts the bills', async () => {
    const { store, context } = await storeWithBills(4);
    const source = await createTag(context, { name: 'H2O', color: '#000000' });
    const target = await createTag(context, { name: 'Water', color: '#0000ff' });
    await tagBills(context, [billIdOf(1), billIdOf(2), billIdOf(3)], source.id);
    context.setNow(T0 + 60_000);
    await tagBills(context, [billIdOf(3), billIdOf(4)], target.id);
    expect(await tagUsage(context, source.id)).toEqual({ tagId: source.id, billCount: 3 });
    const seen = (await outboxOf(store)).length;

    context.setNow(T0 + 120_000);
    expect(await mergeTags(context, source.id, target.id)).toEqual({
      billsTouched: 3,
      moved: 2,
      alreadyTagged: 1,
    });
    expect((await tagged(context, target.id)).sort()).toEqual([1, 2, 3, 4].map(billIdOf));
    expect(await tagged(context, source.id)).toEqual([]);
    expect((await rowsOf(store, 'tags')).map((tag) => tag.name)).toEqual(['Water']);
    // A moved assignment keeps when the bill was first tagged.
    const moved = (await rowsOf(store, 'billTags')).find(
      (row) => row.id === billTagId(billIdOf(1), target.id),
    );
    expect(moved?.createdAt).toBe(iso(T0));

    const entries = await newOutbox(store, seen);
    expect(entries.map((entry) => [entry.table, entry.op, entry.rowId])).toEqual([
      ['billTags', 'put', billTagId(billIdOf(1), target.id)],
      ['billTags', 'put', billTagId(billIdOf(2), target.id)],
      ['billTags', 'delete', billTagId(billIdOf(1), source.id)],
      ['billTags', 'delete', billTagId(billIdOf(2), source.id)],
      ['billTags', 'delete', billTagId(billIdOf(3), source.id)],
      ['tags', 'delete', source.id],
    ]);
  });

  it('refuses a merge into itself and unknown tags, writing nothing', async () => {
    const { store, context } = await storeWithBills(1);
    const tag = await createTag(context, { name: 'Water', color: '#000000' });
    const before = await everything(store);
    await refused(mergeTags(context, tag.id, tag.id), 'invalid-input', /into itself/);
    await refused(mergeTags(context, 'gone', tag.id), 'unknown-tag', /"gone"/);
    await refused(mergeTags(context, tag.id, 'gone'), 'unknown-tag', /"gone"/);
    expect(await everything(store)).toEqual(before);
  });
});

describe('deleteTag', () => {
  it('takes the tag off every bill and says how many, as tagUsage said before', async () => {
    const { store, context } = await storeWithBills(3);
    const tag = await createTag(context, { name: 'Water', color: '#000000' });
    const other = await createTag(context, { name: 'Energy', color: '#000000' });
    await tagBills(context, [billIdOf(1), billIdOf(2)], tag.id);
    await tagBills(context, [billIdOf(1)], other.id);
    const { billCount } = await tagUsage(context, tag.id);
    expect(billCount).toBe(2);
    const seen = (await outboxOf(store)).length;
    expect(await deleteTag(context, tag.id, { expectedBillCount: billCount })).toEqual({
      billsTouched: 2,
    });
    expect(await rowsOf(store, 'billTags')).toMatchObject([{ tagId: other.id }]);
    expect((await newOutbox(store, seen)).map((entry) => [entry.table, entry.op])).toEqual([
      ['billTags', 'delete'],
      ['billTags', 'delete'],
      ['tags', 'delete'],
    ]);
    await refused(tagUsage(context, tag.id), 'unknown-tag', /no tag/);
  });

  it('refuses when the tag reached other bills since the user was asked', async () => {
    const { store, context } = await storeWithBills(3);
    const tag = await createTag(context, { name: 'Water', color: '#000000' });
    await tagBills(context, [billIdOf(1)], tag.id);
    const { billCount } = await tagUsage(context, tag.id);
    await tagBills(context, [billIdOf(2), billIdOf(3)], tag.id);
    const before = await everything(store);
    await refused(
      deleteTag(context, tag.id, { expectedBillCount: billCount }),
      'usage-changed',
      /"Water" is now on 3 bills, not 1/,
    );
    expect(await everything(store)).toEqual(before);
    expect(await deleteTag(context, tag.id)).toEqual({ billsTouched: 3 });
  });
});

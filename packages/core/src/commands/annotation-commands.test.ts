import { describe, expect, it } from 'vitest';
import {
  createAnnotation,
  deleteAnnotation,
  NOTE_MAX,
  updateAnnotation,
} from './annotation-commands.ts';
import { annotationTargets, placeAnnotation } from '../text/annotation-targets.ts';
import { saveVersionText } from '../text/version-text-rows.ts';
import { BillCommandError } from './bill-command-context.ts';
import type { BillText } from '../bills/bill.ts';
import type { TestContext } from '../test-support/bill-command-harness.ts';
import {
  billIdOf,
  billLabelOf,
  everything,
  fieldValue,
  newOutbox,
  outboxOf,
  rowsOf,
  storedBill,
  storeWithBills,
  T0,
} from '../test-support/bill-command-harness.ts';

const iso = (ms: number) => new Date(ms).toISOString();

const billText = [
  'SECTION 1. SHORT TITLE.',
  'This Act may be cited as the "Clean Water Act of 2025".',
  'SEC. 2. REPORT.',
  'The Secretary shall submit a report to Congress not later than 90 days after enactment.',
].join('\n');

const version = (text: string | null): BillText => ({
  date: '2025-01-03',
  type: 'Introduced in House',
  url: null,
  mimeType: null,
  text,
});

/** Bill 1 has a text version; bill 2 has only a title and a summary. */
async function annotatedStore() {
  return storeWithBills(2, (number) =>
    number === 1
      ? { texts: [version(null), version(billText)] }
      : { summary: 'Requires <b>reports</b> on water.' },
  );
}

function selection(passage: string) {
  const start = billText.indexOf(passage);
  return { start, end: start + passage.length };
}

async function annotate(context: TestContext, passage = 'submit a report to Congress') {
  return createAnnotation(context, {
    billId: billIdOf(1),
    target: 'text:1',
    ...selection(passage),
    color: '#FFD700',
    note: 'Ask about the deadline.',
  });
}

describe('createAnnotation', () => {
  it('anchors the passage with W3C selectors from the stored text, with one outbox put', async () => {
    const { store, context } = await annotatedStore();
    const annotation = await annotate(context);
    expect(annotation).toEqual({
      id: 'device-a-0001',
      billId: billIdOf(1),
      quote: {
        exact: 'submit a report to Congress',
        prefix: ' 2. REPORT.\nThe Secretary shall ',
        suffix: ' not later than 90 days after en',
      },
      position: selection('submit a report to Congress'),
      target: 'text:1',
      color: '#ffd700',
      note: 'Ask about the deadline.',
      createdAt: iso(T0),
      updatedAt: iso(T0),
      billLabel: billLabelOf(1),
    });
    expect(annotation.quote.prefix.length).toBe(32);
    expect(await rowsOf(store, 'annotations')).toEqual([annotation]);
    const [entry, ...rest] = await outboxOf(store);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ table: 'annotations', rowId: annotation.id, op: 'put' });
    expect(Object.keys(entry?.fields ?? {}).sort()).toEqual([
      'billId',
      'billLabel',
      'color',
      'createdAt',
      'note',
      'position',
      'quote',
      'target',
      'updatedAt',
    ]);
    expect(fieldValue(entry, 'quote')).toEqual(annotation.quote);
  });

  it('annotates the title or summary of a bill without text', async () => {
    const { context } = await annotatedStore();
    const bill = storedBill(2, { summary: 'Requires <b>reports</b> on water.' });
    expect(annotationTargets(bill).map((target) => target.target)).toEqual(['title', 'summary']);
    const onSummary = await createAnnotation(context, {
      billId: billIdOf(2),
      target: 'summary',
      start: 9,
      end: 23,
      color: '#00ff00',
    });
    expect(onSummary.quote.exact).toBe('<b>reports</b>');
    expect(onSummary.note).toBe('');
  });

  it('annotates a version whose text this device fetched, not one fetched from another URL', async () => {
    const { context } = await storeWithBills(1, () => ({
      texts: [{ ...version(null), url: 'https://lis.example.gov/hb1.htm' }],
    }));
    const on = (url: string) =>
      saveVersionText(context.store, {
        billId: billIdOf(1),
        index: 0,
        url,
        format: 'html',
        text: { text: billText, headings: [] },
        fetchedAt: iso(T0),
      });
    const input = {
      billId: billIdOf(1),
      target: 'text:0',
      ...selection('submit a report'),
      color: '#FFD700',
    };
    await on('https://lis.example.gov/other.htm');
    await expect(createAnnotation(context, input)).rejects.toThrow(/no such text version/);
    await on('https://lis.example.gov/hb1.htm');
    const annotation = await createAnnotation(context, input);
    expect(annotation.quote.exact).toBe('submit a report');
    expect(annotation.quote.prefix.endsWith('The Secretary shall ')).toBe(true);
  });

  it('keeps hostile notes and passages as plain text', async () => {
    const { context } = await annotatedStore();
    const note = '<img src=x onerror=alert(1)> ‮סעיף‬ ' + 'w'.repeat(5_000);
    const annotation = await createAnnotation(context, {
      billId: billIdOf(2),
      target: 'summary',
      start: 9,
      end: 23,
      color: '#00ff00',
      note,
    });
    expect(annotation.note).toBe(note);
  });

  it('refuses what cannot be annotated, writing nothing', async () => {
    const { store, context } = await annotatedStore();
    const before = await everything(store);
    const base = { billId: billIdOf(1), target: 'text:1', start: 0, end: 7, color: '#000000' };
    const cases: [Partial<typeof base> & { note?: string }, RegExp][] = [
      [{ billId: 'us/119/hr-9' }, /no bill "us\/119\/hr-9"/],
      [{ target: 'text:0' }, /no such text version/],
      [{ target: 'text:7' }, /no such text version/],
      [{ billId: billIdOf(2), target: 'text:0' }, /no such text version/],
      [{ target: 'body' }, /Not a text of a bill/],
      [{ start: 5, end: 5 }, /Select a passage/],
      [{ start: -1, end: 5 }, /Select a passage/],
      [{ start: 0, end: billText.length + 1 }, /not inside the text/],
      [{ color: 'yellow' }, /#rrggbb/],
      [{ note: 'n'.repeat(NOTE_MAX + 1) }, /at most 100,000 characters/],
    ];
    for (const [change, message] of cases) {
      const attempt = createAnnotation(context, { ...base, ...change });
      await expect(attempt, JSON.stringify(change).slice(0, 80)).rejects.toThrow(message);
      await expect(createAnnotation(context, { ...base, ...change })).rejects.toBeInstanceOf(
        BillCommandError,
      );
    }
    expect(await everything(store)).toEqual(before);
    const longest = await createAnnotation(context, { ...base, note: 'n'.repeat(NOTE_MAX) });
    expect(longest.note).toHaveLength(NOTE_MAX);
  });
});

describe('updateAnnotation and deleteAnnotation', () => {
  it('sync only the fields that changed', async () => {
    const { store, context } = await annotatedStore();
    const annotation = await annotate(context);
    context.setNow(T0 + 1_000);
    const noted = await updateAnnotation(context, annotation.id, { note: 'Deadline is 90 days.' });
    expect(noted).toEqual({
      ...annotation,
      note: 'Deadline is 90 days.',
      updatedAt: iso(T0 + 1_000),
    });
    await updateAnnotation(context, annotation.id, {
      color: '#00FF00',
      note: 'Deadline is 90 days.',
    });
    const [, note, color] = await outboxOf(store);
    expect(Object.keys(note?.fields ?? {})).toEqual(['note', 'updatedAt']);
    expect(color?.fields).toEqual({
      color: { value: '#00ff00', hlc: color?.id },
      updatedAt: { value: iso(T0 + 1_000), hlc: color?.id },
    });
    const before = await everything(store);
    await updateAnnotation(context, annotation.id, { color: '#00ff00' });
    await updateAnnotation(context, annotation.id, {});
    expect(await everything(store)).toEqual(before);
  });

  it('delete with a delete entry; unknown ids are refused', async () => {
    const { store, context } = await annotatedStore();
    const annotation = await annotate(context);
    expect(await deleteAnnotation(context, annotation.id)).toEqual(annotation);
    expect(await rowsOf(store, 'annotations')).toEqual([]);
    expect(await newOutbox(store, 1)).toMatchObject([
      { table: 'annotations', rowId: annotation.id, op: 'delete', fields: null },
    ]);
    await expect(deleteAnnotation(context, annotation.id)).rejects.toThrow(/no annotation/);
    await expect(updateAnnotation(context, 'nope', { note: 'x' })).rejects.toThrow(
      /no annotation "nope"/,
    );
    await expect(
      updateAnnotation(context, annotation.id, { note: 'n'.repeat(NOTE_MAX + 1) }),
    ).rejects.toThrow(/at most/);
  });
});

describe('an annotation after its bill is re-imported', () => {
  it('re-attaches to the moved passage, or is an orphan with its quote', async () => {
    const { context } = await annotatedStore();
    const annotation = await annotate(context);
    const moved = billText.replace('SEC. 2.', 'SEC. 2. FINDINGS.\nWater matters.\nSEC. 3.');
    const placed = placeAnnotation(
      storedBill(1, { texts: [version(null), version(moved)] }),
      annotation,
    );
    expect(placed.kind).toBe('anchored');
    if (placed.kind === 'anchored') {
      expect(moved.slice(placed.range.start, placed.range.end)).toBe('submit a report to Congress');
    }
    const gone = billText.replace('The Secretary shall submit a report to Congress', 'Repealed.');
    expect(
      placeAnnotation(storedBill(1, { texts: [version(null), version(gone)] }), annotation),
    ).toEqual({
      kind: 'orphan',
      quote: 'submit a report to Congress',
    });
    // A version without text any more leaves it an orphan too, never lost.
    expect(placeAnnotation(storedBill(1, { texts: [] }), annotation).kind).toBe('orphan');
  });
});

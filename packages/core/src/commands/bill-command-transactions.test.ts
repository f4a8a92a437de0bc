import { describe, expect, it } from 'vitest';
import { createAnnotation, deleteAnnotation, updateAnnotation } from './annotation-commands.ts';
import type { BillCommandContext } from './bill-command-context.ts';
import type { BillText } from '../bills/bill.ts';
import { withoutDerivedFields } from '../store/derived-writes.ts';
import { syncedTables } from '../merge/outbox-changes.ts';
import { setPosition, setPositionReason } from './position-commands.ts';
import {
  createTag,
  deleteTag,
  mergeTags,
  recolourTag,
  renameTag,
  tagBills,
  untagBills,
} from './tag-commands.ts';
import { crashingStore } from '../test-support/dataset-import-harness.ts';
import type { TestContext } from '../test-support/bill-command-harness.ts';
import {
  billIdOf,
  everything,
  loggingStore,
  outboxOf,
  rowsOf,
  storeWithBills,
  T0,
} from '../test-support/bill-command-harness.ts';
import { dismissBill, laterBill, trackBill, undoLastDecision } from './triage-commands.ts';

// What every command promises, checked for all of them at once: it writes its rows and one
// outbox entry per changed row in a single transaction (a failure at any write leaves nothing),
// and it never writes to `bills`, which only imports own (the store itself rewrites what it derives
// of a bill from its decision, its keys in the deck's order: nothing else of the bill changes).

const text: BillText = {
  date: null,
  type: 'Introduced',
  url: null,
  mimeType: null,
  text: 'The Secretary shall submit a report to Congress.',
};

interface Fixture {
  tagA: string;
  tagB: string;
  annotation: string;
}

/** Bills 1–3; tags A (bills 1, 2) and B (bill 2); bill 1 tracked, watched and annotated. */
async function fixture(): Promise<{ context: TestContext; ids: Fixture }> {
  const { context } = await storeWithBills(3, () => ({ texts: [text] }));
  const tagA = (await createTag(context, { name: 'A', color: '#aa0000' })).id;
  const tagB = (await createTag(context, { name: 'B', color: '#0000bb' })).id;
  await tagBills(context, [billIdOf(1), billIdOf(2)], tagA);
  await tagBills(context, [billIdOf(2)], tagB);
  await trackBill(context, billIdOf(1));
  await setPosition(context, billIdOf(1), 'watch');
  const annotation = await createAnnotation(context, {
    billId: billIdOf(1),
    target: 'text:0',
    start: 4,
    end: 13,
    color: '#ffff00',
  });
  context.setNow(T0 + 60_000);
  return { context, ids: { tagA, tagB, annotation: annotation.id } };
}

const commands: [string, (context: BillCommandContext, ids: Fixture) => Promise<unknown>][] = [
  ['trackBill', (c) => trackBill(c, billIdOf(2))],
  ['dismissBill', (c) => dismissBill(c, billIdOf(1))],
  ['laterBill', (c) => laterBill(c, billIdOf(3))],
  ['undoLastDecision', (c) => undoLastDecision(c)],
  ['createTag', (c) => createTag(c, { name: 'C', color: '#00cc00' })],
  ['renameTag', (c, ids) => renameTag(c, ids.tagA, 'A2')],
  ['recolourTag', (c, ids) => recolourTag(c, ids.tagA, '#123456')],
  ['mergeTags', (c, ids) => mergeTags(c, ids.tagA, ids.tagB)],
  ['deleteTag', (c, ids) => deleteTag(c, ids.tagA)],
  ['tagBills', (c, ids) => tagBills(c, [billIdOf(1), billIdOf(2), billIdOf(3)], ids.tagB)],
  ['untagBills', (c, ids) => untagBills(c, [billIdOf(1), billIdOf(2)], ids.tagA)],
  ['setPosition', (c) => setPosition(c, billIdOf(1), 'oppose')],
  ['setPositionReason', (c) => setPositionReason(c, billIdOf(1), 'It costs too much')],
  [
    'setPositionReason on a bill without a position',
    (c) => setPositionReason(c, billIdOf(3), 'Ask'),
  ],
  [
    'createAnnotation',
    (c) =>
      createAnnotation(c, {
        billId: billIdOf(2),
        target: 'text:0',
        start: 0,
        end: 3,
        color: '#00ffff',
        note: 'x',
      }),
  ],
  ['updateAnnotation', (c, ids) => updateAnnotation(c, ids.annotation, { note: 'Why 90?' })],
  ['deleteAnnotation', (c, ids) => deleteAnnotation(c, ids.annotation)],
];

describe.each(commands)('%s', (_name, run) => {
  it('writes one outbox entry per changed row, and never writes bills', async () => {
    const { context, ids } = await fixture();
    const billsBefore = (await rowsOf(context.store, 'bills')).map(withoutDerivedFields);
    const entriesBefore = (await outboxOf(context.store)).length;
    const logged = loggingStore(context.store);
    await run({ ...context, store: logged }, ids);

    expect(logged.calls.length).toBeGreaterThan(0);
    expect(logged.calls.filter((call) => call.table === 'bills')).toEqual([]);
    expect((await rowsOf(context.store, 'bills')).map(withoutDerivedFields)).toEqual(billsBefore);
    // One transaction, holding the outbox.
    expect(new Set(logged.calls.map((call) => call.transaction))).toEqual(new Set([1]));
    expect(logged.calls[0]?.tables).toContain('outbox');

    const rowsChanged = logged.calls
      .filter((call) => (syncedTables as readonly string[]).includes(call.table))
      .reduce((sum, call) => sum + call.count, 0);
    const entries = (await outboxOf(context.store)).slice(entriesBefore);
    expect(entries.length).toBe(rowsChanged);
    expect(entries.length).toBeGreaterThan(0);
  });

  it('leaves neither rows nor outbox entries when any of its writes fails', async () => {
    const probe = await fixture();
    const logged = loggingStore(probe.context.store);
    await run({ ...probe.context, store: logged }, probe.ids);
    const writes = logged.calls.length;

    for (let failing = 1; failing <= writes; failing++) {
      const { context, ids } = await fixture();
      const before = await everything(context.store);
      let call = 0;
      const failingStore = crashingStore(context.store, () => ++call === failing);
      await expect(run({ ...context, store: failingStore }, ids)).rejects.toThrow(
        'simulated crash',
      );
      expect(await everything(context.store), `failing write ${failing} of ${writes}`).toEqual(
        before,
      );
    }
  });
});

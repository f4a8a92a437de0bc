import { describe, expect, it } from 'vitest';
import { BillCommandError } from './bill-command-context.ts';
import {
  canUndoDecision,
  dismissBill,
  laterBill,
  TRIAGE_UNDO_DEPTH,
  trackBill,
  undoLastDecision,
} from './triage-commands.ts';
import {
  billIdOf,
  billLabelOf,
  DEVICE,
  everything,
  fieldValue,
  outboxOf,
  rowsOf,
  storeWithBills,
  T0,
  testContext,
} from '../test-support/bill-command-harness.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe('track, dismiss, later', () => {
  it('writes the decision and one outbox put carrying its fields, the bill label among them', async () => {
    const { store, context } = await storeWithBills(3);
    const result = await trackBill(context, billIdOf(1));
    expect(result).toEqual({
      changed: true,
      decision: {
        billId: billIdOf(1),
        decision: 'track',
        decidedAt: iso(T0),
        billLabel: billLabelOf(1),
      },
    });
    expect(await rowsOf(store, 'decisions')).toEqual([result.decision]);
    const [entry, ...rest] = await outboxOf(store);
    expect(rest).toEqual([]);
    expect(entry).toEqual({
      id: `001736942400000-0000-${DEVICE}`,
      table: 'decisions',
      rowId: billIdOf(1),
      op: 'put',
      fields: {
        decision: { value: 'track', hlc: entry?.id },
        decidedAt: { value: iso(T0), hlc: entry?.id },
        billLabel: { value: billLabelOf(1), hlc: entry?.id },
      },
      createdAt: iso(T0),
    });
  });

  it('changes a decision with one more entry, and a repeated decision writes nothing', async () => {
    const { store, context } = await storeWithBills(2);
    await dismissBill(context, billIdOf(1));
    await laterBill(context, billIdOf(2));
    context.setNow(T0 + 5_000);
    const again = await laterBill(context, billIdOf(2));
    expect(again.changed).toBe(false);
    expect(again.decision.decidedAt).toBe(iso(T0));
    const changed = await trackBill(context, billIdOf(1));
    expect(changed.decision).toEqual({
      billId: billIdOf(1),
      decision: 'track',
      decidedAt: iso(T0 + 5_000),
      billLabel: billLabelOf(1),
    });
    const outbox = await outboxOf(store);
    expect(outbox.map((entry) => [entry.rowId, fieldValue(entry, 'decision')])).toEqual([
      [billIdOf(1), 'dismiss'],
      [billIdOf(2), 'later'],
      [billIdOf(1), 'track'],
    ]);
    expect((await rowsOf(store, 'decisions')).map((row) => row.decision)).toEqual([
      'track',
      'later',
    ]);
  });

  it('refuses a bill that is not on the device and writes nothing', async () => {
    const { store, context } = await storeWithBills(1);
    const before = await everything(store);
    const refusal = trackBill(context, 'us/119/hr-999');
    await expect(refusal).rejects.toThrow(BillCommandError);
    await expect(dismissBill(context, 'us/119/hr-999')).rejects.toThrow(
      'There is no bill "us/119/hr-999" on this device.',
    );
    expect(await everything(store)).toEqual(before);
  });
});

describe('undoLastDecision', () => {
  it('takes a first decision back: the row goes and the outbox says so with a delete', async () => {
    const { store, context } = await storeWithBills(2);
    await trackBill(context, billIdOf(1));
    expect(await canUndoDecision(context)).toBe(true);
    context.setNow(T0 + 1_000);
    expect(await undoLastDecision(context)).toEqual({
      kind: 'undone',
      billId: billIdOf(1),
      decision: null,
    });
    expect(await rowsOf(store, 'decisions')).toEqual([]);
    const outbox = await outboxOf(store);
    expect(outbox.map((entry) => [entry.op, entry.rowId])).toEqual([
      ['put', billIdOf(1)],
      ['delete', billIdOf(1)],
    ]);
    expect(outbox[1]?.fields).toBeNull();
    expect(await canUndoDecision(context)).toBe(false);
  });

  it('restores the previous decision as it was, newest first, step by step', async () => {
    const { store, context } = await storeWithBills(2);
    await laterBill(context, billIdOf(1));
    context.setNow(T0 + 1_000);
    await dismissBill(context, billIdOf(2));
    context.setNow(T0 + 2_000);
    await trackBill(context, billIdOf(1));

    expect(await undoLastDecision(context)).toEqual({
      kind: 'undone',
      billId: billIdOf(1),
      decision: {
        billId: billIdOf(1),
        decision: 'later',
        decidedAt: iso(T0),
        billLabel: billLabelOf(1),
      },
    });
    const restore = (await outboxOf(store)).at(-1);
    expect(restore).toMatchObject({
      op: 'put',
      rowId: billIdOf(1),
      fields: { decision: { value: 'later' }, decidedAt: { value: iso(T0) } },
    });
    expect(await undoLastDecision(context)).toMatchObject({ kind: 'undone', billId: billIdOf(2) });
    expect(await undoLastDecision(context)).toMatchObject({ kind: 'undone', billId: billIdOf(1) });
    expect(await rowsOf(store, 'decisions')).toEqual([]);
    const before = await everything(store);
    expect(await undoLastDecision(context)).toEqual({ kind: 'nothing-to-undo' });
    expect(await everything(store)).toEqual(before);
  });

  it('keeps its history across a reload (a new context on the same store)', async () => {
    const { store, context } = await storeWithBills(1);
    await dismissBill(context, billIdOf(1));
    const reloaded = testContext(store);
    expect(await undoLastDecision(reloaded)).toMatchObject({ kind: 'undone', billId: billIdOf(1) });
  });

  it('does not undo over a change that came from elsewhere since, and drops that step', async () => {
    const { store, context } = await storeWithBills(2);
    await trackBill(context, billIdOf(1));
    await trackBill(context, billIdOf(2));
    // As the sync engine would apply another device's later decision.
    await store.write(['decisions'], (tx) =>
      tx.put('decisions', { billId: billIdOf(2), decision: 'dismiss', decidedAt: iso(T0 + 9) }),
    );
    const entries = (await outboxOf(store)).length;
    expect(await undoLastDecision(context)).toEqual({ kind: 'changed-since', billId: billIdOf(2) });
    expect((await outboxOf(store)).length).toBe(entries);
    expect((await rowsOf(store, 'decisions'))[1]?.decision).toBe('dismiss');
    expect(await undoLastDecision(context)).toMatchObject({ kind: 'undone', billId: billIdOf(1) });
  });

  it(`remembers the last ${TRIAGE_UNDO_DEPTH} decisions`, async () => {
    const { context } = await storeWithBills(TRIAGE_UNDO_DEPTH + 5);
    for (let n = 1; n <= TRIAGE_UNDO_DEPTH + 5; n++) await laterBill(context, billIdOf(n));
    let undone = 0;
    while ((await undoLastDecision(context)).kind === 'undone') undone++;
    expect(undone).toBe(TRIAGE_UNDO_DEPTH);
  });

  it('starts afresh from a history it cannot read', async () => {
    const { store, context } = await storeWithBills(1);
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: 'device:triage-undo', value: { from: 'a newer build' } }),
    );
    expect(await undoLastDecision(context)).toEqual({ kind: 'nothing-to-undo' });
    await trackBill(context, billIdOf(1));
    expect(await undoLastDecision(context)).toMatchObject({ kind: 'undone' });
  });
});

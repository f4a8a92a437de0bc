import { describe, expect, it } from 'vitest';
import { BillCommandError } from './bill-command-context.ts';
import type { DecisionKind } from './triage-commands.ts';
import { decideBills, dismissBill, trackBill, undoLastDecision } from './triage-commands.ts';
import { crashingStore } from '../test-support/dataset-import-harness.ts';
import {
  billIdOf,
  billLabelOf,
  everything,
  fieldValue,
  loggingStore,
  outboxOf,
  rowsOf,
  storeWithBills,
  T0,
} from '../test-support/bill-command-harness.ts';

// `decideBills`: the Tracked list's "Track selected", "Later selected" and "Dismiss selected",
// many bills in one transaction, all or none, with an outbox entry per bill it changes.

const iso = (ms: number) => new Date(ms).toISOString();

describe('decideBills', () => {
  it('decides every bill in one transaction, one outbox entry per bill it changes', async () => {
    const { store, context } = await storeWithBills(4);
    await trackBill(context, billIdOf(2));
    await dismissBill(context, billIdOf(3));
    context.setNow(T0 + 60_000);
    const entriesBefore = (await outboxOf(store)).length;
    const logged = loggingStore(store);

    const result = await decideBills(
      { ...context, store: logged },
      [billIdOf(1), billIdOf(2), billIdOf(3), billIdOf(1)],
      'track',
    );

    expect(result).toEqual({ decided: 2, alreadyDecided: 1 });
    expect(new Set(logged.calls.map((call) => call.transaction))).toEqual(new Set([1]));
    expect(logged.calls.filter((call) => call.table === 'bills')).toEqual([]);
    const decisions = await rowsOf(store, 'decisions');
    expect(decisions).toEqual([
      {
        billId: billIdOf(1),
        decision: 'track',
        decidedAt: iso(T0 + 60_000),
        billLabel: billLabelOf(1),
      },
      { billId: billIdOf(2), decision: 'track', decidedAt: iso(T0), billLabel: billLabelOf(2) },
      {
        billId: billIdOf(3),
        decision: 'track',
        decidedAt: iso(T0 + 60_000),
        billLabel: billLabelOf(3),
      },
    ]);
    // Sync sees each bill's change: one entry each, with distinct clocks, in the order given.
    const entries = (await outboxOf(store)).slice(entriesBefore);
    expect(
      entries.map((entry) => [entry.table, entry.rowId, fieldValue(entry, 'decision')]),
    ).toEqual([
      ['decisions', billIdOf(1), 'track'],
      ['decisions', billIdOf(3), 'track'],
    ]);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(2);
    expect(fieldValue(entries[0], 'billLabel')).toEqual(billLabelOf(1));
  });

  it('writes nothing when every bill already has the decision', async () => {
    const { store, context } = await storeWithBills(2);
    await decideBills(context, [billIdOf(1), billIdOf(2)], 'later');
    const before = await everything(store);
    context.setNow(T0 + 5_000);
    expect(await decideBills(context, [billIdOf(2), billIdOf(1)], 'later')).toEqual({
      decided: 0,
      alreadyDecided: 2,
    });
    expect(await everything(store)).toEqual(before);
  });

  it('leaves every bill as it was when any of its writes fails', async () => {
    const ids = [billIdOf(1), billIdOf(2), billIdOf(3)];
    const probe = await storeWithBills(3);
    await trackBill(probe.context, billIdOf(2));
    const logged = loggingStore(probe.store);
    await decideBills({ ...probe.context, store: logged }, ids, 'dismiss');
    const writes = logged.calls.length;
    expect(writes).toBeGreaterThan(1);

    for (let failing = 1; failing <= writes; failing++) {
      const { store, context } = await storeWithBills(3);
      await trackBill(context, billIdOf(2));
      const before = await everything(store);
      let call = 0;
      const failingStore = crashingStore(store, () => ++call === failing);
      await expect(
        decideBills({ ...context, store: failingStore }, ids, 'dismiss'),
      ).rejects.toThrow('simulated crash');
      expect(await everything(store), `failing write ${failing} of ${writes}`).toEqual(before);
    }
  });

  it('refuses the lot, naming it, when one bill is not on this device', async () => {
    const { store, context } = await storeWithBills(3);
    const before = await everything(store);
    const refusal = decideBills(context, [billIdOf(1), 'us/119/hr-404', billIdOf(3)], 'track');
    await expect(refusal).rejects.toThrow(BillCommandError);
    await expect(refusal).rejects.toThrow('There is no bill "us/119/hr-404" on this device.');
    expect(await everything(store)).toEqual(before);
  });

  it('refuses what is not a decision before touching the store', async () => {
    const { store, context } = await storeWithBills(1);
    const before = await everything(store);
    await expect(
      decideBills(context, [billIdOf(1)], 'maybe' as unknown as DecisionKind),
    ).rejects.toMatchObject({ code: 'invalid-input', message: 'Not a decision: "maybe".' });
    expect(await everything(store)).toEqual(before);
  });

  it('keeps every bill’s label past the 64 looked up one by one', async () => {
    const { store, context } = await storeWithBills(70);
    const ids = Array.from({ length: 70 }, (_, index) => billIdOf(index + 1));
    expect(await decideBills(context, ids, 'later')).toEqual({ decided: 70, alreadyDecided: 0 });
    const decisions = await rowsOf(store, 'decisions');
    expect(decisions).toHaveLength(70);
    const byId = new Map(decisions.map((row) => [row.billId, row]));
    expect(byId.get(billIdOf(70))?.billLabel).toEqual(billLabelOf(70));
    expect(decisions.every((row) => row.billLabel !== undefined)).toBe(true);
  });

  it('leaves an undo step per bill it changed, so the deck’s Undo takes them back newest first', async () => {
    const { store, context } = await storeWithBills(3);
    await dismissBill(context, billIdOf(1));
    context.setNow(T0 + 1_000);
    await decideBills(context, [billIdOf(1), billIdOf(2)], 'track');

    expect(await undoLastDecision(context)).toEqual({
      kind: 'undone',
      billId: billIdOf(2),
      decision: null,
    });
    const back = await undoLastDecision(context);
    expect(back).toMatchObject({ kind: 'undone', billId: billIdOf(1) });
    expect(back.kind === 'undone' && back.decision?.decision).toBe('dismiss');
    expect((await rowsOf(store, 'decisions')).map((row) => [row.billId, row.decision])).toEqual([
      [billIdOf(1), 'dismiss'],
    ]);
  });
});

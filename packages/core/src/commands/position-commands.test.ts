import { describe, expect, it } from 'vitest';
import { BillCommandError } from './bill-command-context.ts';
import type { PositionKind } from './position-commands.ts';
import { POSITION_REASON_MAX, setPosition, setPositionReason } from './position-commands.ts';
import {
  billIdOf,
  billLabelOf,
  everything,
  outboxOf,
  rowsOf,
  storeWithBills,
  T0,
} from '../test-support/bill-command-harness.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe('setPosition', () => {
  it('writes the position and one outbox put; "none" is a value like the others', async () => {
    const { store, context } = await storeWithBills(1);
    expect(await setPosition(context, billIdOf(1), 'support')).toEqual({
      changed: true,
      position: {
        billId: billIdOf(1),
        position: 'support',
        updatedAt: iso(T0),
        billLabel: billLabelOf(1),
      },
    });
    context.setNow(T0 + 1_000);
    await setPosition(context, billIdOf(1), 'none');
    expect(await rowsOf(store, 'positions')).toEqual([
      {
        billId: billIdOf(1),
        position: 'none',
        updatedAt: iso(T0 + 1_000),
        billLabel: billLabelOf(1),
      },
    ]);
    const outbox = await outboxOf(store);
    expect(outbox.map((entry) => [entry.table, entry.rowId, entry.op])).toEqual([
      ['positions', billIdOf(1), 'put'],
      ['positions', billIdOf(1), 'put'],
    ]);
    expect(outbox[1]?.fields).toEqual({
      position: { value: 'none', hlc: outbox[1]?.id },
      updatedAt: { value: iso(T0 + 1_000), hlc: outbox[1]?.id },
    });
  });

  it('writes nothing when the position does not change', async () => {
    const { store, context } = await storeWithBills(1);
    await setPosition(context, billIdOf(1), 'watch');
    const before = await everything(store);
    context.setNow(T0 + 1_000);
    expect(await setPosition(context, billIdOf(1), 'watch')).toMatchObject({ changed: false });
    expect(await everything(store)).toEqual(before);
  });

  it('refuses an unknown bill or position, writing nothing', async () => {
    const { store, context } = await storeWithBills(1);
    const before = await everything(store);
    await expect(setPosition(context, 'us/119/hr-2', 'oppose')).rejects.toThrow(
      /no bill "us\/119\/hr-2"/,
    );
    await expect(setPosition(context, billIdOf(1), 'maybe' as PositionKind)).rejects.toThrow(
      BillCommandError,
    );
    await expect(setPosition(context, billIdOf(1), 'maybe' as PositionKind)).rejects.toThrow(
      'A position is support, oppose, watch or none, not "maybe".',
    );
    expect(await everything(store)).toEqual(before);
  });
});

describe('setPositionReason', () => {
  it('keeps the reason on the position row and writes only the reason to the outbox', async () => {
    const { store, context } = await storeWithBills(1);
    await setPosition(context, billIdOf(1), 'support');
    context.setNow(T0 + 1_000);
    const result = await setPositionReason(context, billIdOf(1), '  Protects tenants.\n');
    expect(result).toEqual({
      changed: true,
      position: {
        billId: billIdOf(1),
        position: 'support',
        reason: 'Protects tenants.',
        updatedAt: iso(T0 + 1_000),
        billLabel: billLabelOf(1),
      },
    });
    const outbox = await outboxOf(store);
    expect(outbox[1]?.fields).toEqual({
      reason: { value: 'Protects tenants.', hlc: outbox[1]?.id },
      updatedAt: { value: iso(T0 + 1_000), hlc: outbox[1]?.id },
    });

    // Choosing another position keeps the reason, and writes only the position.
    context.setNow(T0 + 2_000);
    await setPosition(context, billIdOf(1), 'watch');
    expect(await rowsOf(store, 'positions')).toEqual([
      {
        billId: billIdOf(1),
        position: 'watch',
        reason: 'Protects tenants.',
        updatedAt: iso(T0 + 2_000),
        billLabel: billLabelOf(1),
      },
    ]);
    const last = (await outboxOf(store))[2];
    expect(Object.keys(last?.fields ?? {}).sort()).toEqual(['position', 'updatedAt']);
  });

  it('gives a bill without a position one of "none" with the reason; clearing keeps ""', async () => {
    const { store, context } = await storeWithBills(1);
    await setPositionReason(context, billIdOf(1), 'Ask the committee first');
    expect(await rowsOf(store, 'positions')).toEqual([
      {
        billId: billIdOf(1),
        position: 'none',
        reason: 'Ask the committee first',
        updatedAt: iso(T0),
        billLabel: billLabelOf(1),
      },
    ]);
    context.setNow(T0 + 1_000);
    expect(await setPositionReason(context, billIdOf(1), '   ')).toMatchObject({ changed: true });
    expect((await rowsOf(store, 'positions'))[0]).toMatchObject({ reason: '' });
  });

  it('writes nothing when the reason is as stored, or empty on a bill without a position', async () => {
    const { store, context } = await storeWithBills(2);
    expect(await setPositionReason(context, billIdOf(2), '')).toEqual({
      changed: false,
      position: null,
    });
    await setPositionReason(context, billIdOf(1), 'Same');
    const before = await everything(store);
    context.setNow(T0 + 1_000);
    expect(await setPositionReason(context, billIdOf(1), 'Same ')).toMatchObject({
      changed: false,
    });
    expect(await everything(store)).toEqual(before);
  });

  it('keeps hostile text as it is and refuses a reason over the limit, writing nothing', async () => {
    const { store, context } = await storeWithBills(1);
    const hostile = '<img src=x onerror=alert(1)> =HYPERLINK("x")';
    await setPositionReason(context, billIdOf(1), hostile);
    expect((await rowsOf(store, 'positions'))[0]).toMatchObject({ reason: hostile });
    const before = await everything(store);
    const long = 'a'.repeat(POSITION_REASON_MAX + 1);
    await expect(setPositionReason(context, billIdOf(1), long)).rejects.toThrow(
      'A reason is at most 2,000 characters; this one has 2,001.',
    );
    await expect(setPositionReason(context, 'us/119/hr-2', 'Why')).rejects.toThrow(
      /no bill "us\/119\/hr-2"/,
    );
    expect(await everything(store)).toEqual(before);
    // Exactly the limit is kept.
    await setPositionReason(context, billIdOf(1), 'b'.repeat(POSITION_REASON_MAX));
    expect((await rowsOf(store, 'positions'))[0]?.reason).toHaveLength(POSITION_REASON_MAX);
  });
});

import { describe, expect, it } from 'vitest';
import { BillCommandError } from './bill-command-context.ts';
import type { PositionKind } from './position-commands.ts';
import { setPosition } from './position-commands.ts';
import {
  billIdOf,
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
      position: { billId: billIdOf(1), position: 'support', updatedAt: iso(T0) },
    });
    context.setNow(T0 + 1_000);
    await setPosition(context, billIdOf(1), 'none');
    expect(await rowsOf(store, 'positions')).toEqual([
      { billId: billIdOf(1), position: 'none', updatedAt: iso(T0 + 1_000) },
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

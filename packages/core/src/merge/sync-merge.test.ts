import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SyncState } from '../store/local-records.ts';
import {
  initialSyncState,
  mergeChange,
  rowChangeSchema,
  rowOfState,
  ZERO_CLOCK,
  type RowChange,
} from './sync-merge.ts';

const clock = (millis: number, device = 'device-a', counter = 0) =>
  `${String(millis).padStart(15, '0')}-${counter.toString(16).padStart(4, '0')}-${device}`;

const tagFields = (hlc: string, name = 'Housing') => ({
  name: { value: name, hlc },
  color: { value: '#cc0000', hlc },
  createdAt: { value: '2025-01-15T12:00:00.000Z', hlc },
  updatedAt: { value: '2025-01-15T12:00:00.000Z', hlc },
});

const put = (hlc: string, fields: RowChange['fields']): RowChange => ({
  id: hlc,
  table: 'tags',
  rowId: 'tag-1',
  op: 'put',
  fields,
});
const remove = (hlc: string): RowChange => ({
  id: hlc,
  table: 'tags',
  rowId: 'tag-1',
  op: 'delete',
  fields: null,
});

const empty = (): SyncState => initialSyncState('tags', 'tag-1', undefined);

function mergeAll(changes: readonly RowChange[]): SyncState {
  return changes.reduce((state, change) => mergeChange(state, change) ?? state, empty());
}

describe('merging changes into a row', () => {
  it('keeps the newer value of each field, whichever arrives first', () => {
    const create = put(clock(1), tagFields(clock(1)));
    const rename = put(clock(3, 'device-b'), {
      name: { value: 'Homes', hlc: clock(3, 'device-b') },
    });
    const recolour = put(clock(2), { color: { value: '#00aa00', hlc: clock(2) } });
    for (const order of [
      [create, rename, recolour],
      [recolour, rename, create],
      [rename, create, recolour, rename],
    ]) {
      const row = rowOfState('tags', mergeAll(order));
      expect(row).toMatchObject({ id: 'tag-1', name: 'Homes', color: '#00aa00' });
    }
  });

  it('reports a change it has already seen, or an older one, as adding nothing', () => {
    const state = mergeAll([put(clock(2), tagFields(clock(2)))]);
    expect(mergeChange(state, put(clock(2), tagFields(clock(2))))).toBeNull();
    expect(mergeChange(state, put(clock(1), tagFields(clock(1), 'Older')))).toBeNull();
  });

  it('hides a row deleted after its fields were set, and brings it back with a newer whole put', () => {
    const deleted = mergeAll([put(clock(1), tagFields(clock(1))), remove(clock(2))]);
    expect(rowOfState('tags', deleted)).toBeUndefined();
    // A rename made before the delete reached this device stays under it.
    expect(
      mergeChange(
        deleted,
        put(clock(1, 'device-b', 1), { name: { value: 'X', hlc: clock(1, 'device-b', 1) } }),
      ),
    ).toBeNull();
    // A rename made after the delete is not a whole tag on its own.
    const renamed = mergeChange(
      deleted,
      put(clock(3), { name: { value: 'Homes', hlc: clock(3) } }),
    );
    expect(renamed && rowOfState('tags', renamed)).toBeUndefined();
    const recreated = mergeChange(deleted, put(clock(4), tagFields(clock(4), 'Again')));
    expect(recreated && rowOfState('tags', recreated)).toMatchObject({ name: 'Again' });
  });

  it('counts fields of a row stored before sync as older than any change', () => {
    const state = initialSyncState('tags', 'tag-1', {
      id: 'tag-1',
      name: 'Old',
      color: '#cc0000',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(state.fields.name?.hlc).toBe(ZERO_CLOCK);
    const next = mergeChange(state, put(clock(1), { name: { value: 'New', hlc: clock(1) } }));
    expect(next && rowOfState('tags', next)).toMatchObject({ name: 'New', color: '#cc0000' });
  });

  it('merges a position and its reason as fields of their own; a row without a reason reads', () => {
    const bill = 'us/119/hr-1';
    const positionPut = (hlc: string, fields: RowChange['fields']): RowChange => ({
      id: hlc,
      table: 'positions',
      rowId: bill,
      op: 'put',
      fields,
    });
    const at = '2025-01-15T12:00:00.000Z';
    // A row made before reasons existed, as an older build still writes it.
    const older = positionPut(clock(1), {
      position: { value: 'watch', hlc: clock(1) },
      updatedAt: { value: at, hlc: clock(1) },
    });
    const start = mergeChange(initialSyncState('positions', bill, undefined), older);
    expect(start && rowOfState('positions', start)).toEqual({
      billId: bill,
      position: 'watch',
      updatedAt: at,
    });
    const reason = positionPut(clock(3, 'device-b'), {
      reason: { value: 'Costs the city nothing', hlc: clock(3, 'device-b') },
      updatedAt: { value: at, hlc: clock(3, 'device-b') },
    });
    const choice = positionPut(clock(2), {
      position: { value: 'support', hlc: clock(2) },
      updatedAt: { value: at, hlc: clock(2) },
    });
    for (const order of [
      [older, reason, choice],
      [choice, reason, older],
      [reason, older, choice, reason],
    ]) {
      const state = order.reduce(
        (current, change) => mergeChange(current, change) ?? current,
        initialSyncState('positions', bill, undefined),
      );
      expect(rowOfState('positions', state)).toMatchObject({
        position: 'support',
        reason: 'Costs the city nothing',
      });
    }
    // A reason longer than a position keeps is no row, as any invalid field makes none.
    const tooLong = mergeChange(
      start ?? initialSyncState('positions', bill, undefined),
      positionPut(clock(4), { reason: { value: 'x'.repeat(2_001), hlc: clock(4) } }),
    );
    expect(tooLong && rowOfState('positions', tooLong)).toBeUndefined();
  });

  it('makes no row of fields that are not a valid one', () => {
    const state = mergeAll([
      put(clock(1), { ...tagFields(clock(1)), color: { value: 'red', hlc: clock(1) } }),
    ]);
    expect(rowOfState('tags', state)).toBeUndefined();
    const billTag = mergeChange(initialSyncState('billTags', 'a|b', undefined), {
      id: clock(1),
      table: 'billTags',
      rowId: 'a|b',
      op: 'put',
      fields: {
        billId: { value: 'a', hlc: clock(1) },
        tagId: { value: 'c', hlc: clock(1) },
        createdAt: { value: '2025-01-01T00:00:00.000Z', hlc: clock(1) },
      },
    });
    expect(billTag && rowOfState('billTags', billTag)).toBeUndefined();
  });

  it('refuses a change that sets the key, names an unknown table or mixes delete and fields', () => {
    const base = { id: clock(1), table: 'tags', rowId: 'tag-1', op: 'put' };
    expect(
      rowChangeSchema.safeParse({ ...base, fields: { id: { value: 'x', hlc: clock(1) } } }).success,
    ).toBe(false);
    expect(rowChangeSchema.safeParse({ ...base, table: 'bills', fields: {} }).success).toBe(false);
    expect(rowChangeSchema.safeParse({ ...base, op: 'delete', fields: {} }).success).toBe(false);
    expect(rowChangeSchema.safeParse({ ...base, id: 'yesterday', fields: {} }).success).toBe(false);
    expect(rowChangeSchema.safeParse({ ...base, fields: tagFields(clock(1)) }).success).toBe(true);
  });

  it('is order-free and duplicate-free: any arrangement of the same changes gives one state', () => {
    // Clocks are unique per change, as on real devices: the counter is the change's index.
    const step = fc.record({
      millis: fc.nat({ max: 20 }),
      device: fc.constantFrom('device-a', 'device-b'),
      kind: fc.constantFrom('delete', 'rename', 'whole'),
      name: fc.constantFrom('A', 'B', 'C'),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), fc.nat(), (steps, seed) => {
        const changes = steps.map(({ millis, device, kind, name }, n) => {
          const hlc = clock(millis, device, n);
          if (kind === 'delete') return remove(hlc);
          return put(hlc, kind === 'whole' ? tagFields(hlc, name) : { name: { value: name, hlc } });
        });
        const arranged = [...changes, ...changes.slice(0, 3)]
          .map((change, n) => ({ change, rank: (n * 7919 + seed) % 101 }))
          .sort((a, b) => a.rank - b.rank)
          .map(({ change }) => change);
        const one = mergeAll(changes);
        const other = mergeAll(arranged);
        expect(rowOfState('tags', other)).toEqual(rowOfState('tags', one));
        expect(other).toEqual(one);
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BillCommandError } from '../commands/bill-command-context.ts';
import type { OutboxEntry } from '../store/local-records.ts';
import { outboxFields } from '../merge/outbox-changes.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import { mergeChanges, type RowChange } from '../merge/sync-merge.ts';
import {
  createTag,
  deleteTag,
  recolourTag,
  renameTag,
  tagBills,
  untagBills,
} from '../commands/tag-commands.ts';
import { dismissBill, laterBill, trackBill } from '../commands/triage-commands.ts';
import { billIdOf, rowsOf, storeWithBills, T0 } from '../test-support/bill-command-harness.ts';
import {
  newDataKey,
  syncedRowsOf,
  testDevice,
  type TestDevice,
} from '../test-support/sync-devices.ts';
import { TestLogError, TestSyncLog, type Delivery } from '../test-support/sync-log-server.ts';
import { syncCursorSetting } from './sync-cursor.ts';
import { USER } from '../test-support/sync-devices.ts';

// Issue 5's convergence property: three devices edit the same things while their syncs run in
// any order, with requests lost, answers lost (so batches are pushed twice) and pulls repeated
// from the start. Once the network behaves, every device holds the same rows, and those rows
// are what merging every change ever made gives: nothing acknowledged, or even made, is lost.

const DEVICES = 3;
const BILLS = 4;
const names = ['Housing', 'Health', 'Schools', 'Water'] as const;
const colours = ['#cc0000', '#00aa00', '#0000cc'] as const;

type Step =
  | { kind: 'create-tag'; device: number; name: number }
  | { kind: 'rename-tag'; device: number; tag: number; name: number }
  | { kind: 'recolour-tag'; device: number; tag: number; colour: number }
  | { kind: 'delete-tag'; device: number; tag: number }
  | { kind: 'tag-bill'; device: number; tag: number; bill: number }
  | { kind: 'untag-bill'; device: number; tag: number; bill: number }
  | { kind: 'position'; device: number; bill: number; position: number }
  | { kind: 'reason'; device: number; bill: number; reason: number }
  | { kind: 'decide'; device: number; bill: number; decision: number }
  | { kind: 'sync'; device: number; fate: Delivery }
  | { kind: 'rewind'; device: number }
  | { kind: 'clock'; device: number; ms: number };

const device = fc.nat({ max: DEVICES - 1 });
const index = fc.nat({ max: 7 });
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('create-tag'), device, name: index }),
  fc.record({ kind: fc.constant('rename-tag'), device, tag: index, name: index }),
  fc.record({ kind: fc.constant('recolour-tag'), device, tag: index, colour: index }),
  fc.record({ kind: fc.constant('delete-tag'), device, tag: index }),
  fc.record({ kind: fc.constant('tag-bill'), device, tag: index, bill: index }),
  fc.record({ kind: fc.constant('untag-bill'), device, tag: index, bill: index }),
  fc.record({ kind: fc.constant('position'), device, bill: index, position: index }),
  fc.record({ kind: fc.constant('reason'), device, bill: index, reason: index }),
  fc.record({ kind: fc.constant('decide'), device, bill: index, decision: index }),
  fc.record({
    kind: fc.constant('sync'),
    device,
    fate: fc.constantFrom<Delivery>('deliver', 'deliver', 'lose-request', 'lose-answer'),
  }),
  fc.record({ kind: fc.constant('rewind'), device }),
  fc.record({ kind: fc.constant('clock'), device, ms: fc.integer({ min: -2000, max: 4000 }) }),
);

function pick<T>(items: readonly T[], n: number): T | undefined {
  return items.length === 0 ? undefined : items[n % items.length];
}

async function perform(devices: readonly TestDevice[], step: Step): Promise<void> {
  const target = devices[step.device];
  if (target === undefined) return;
  const { context } = target;
  const tags = await rowsOf(target.store, 'tags');
  const bill = 'bill' in step ? billIdOf((step.bill % BILLS) + 1) : '';
  try {
    switch (step.kind) {
      case 'create-tag':
        await createTag(context, {
          name: names[step.name % names.length] ?? 'Tag',
          color: '#cc0000',
        });
        return;
      case 'rename-tag': {
        const tag = pick(tags, step.tag);
        if (tag) await renameTag(context, tag.id, names[step.name % names.length] ?? 'Tag');
        return;
      }
      case 'recolour-tag': {
        const tag = pick(tags, step.tag);
        if (tag)
          await recolourTag(context, tag.id, colours[step.colour % colours.length] ?? '#000000');
        return;
      }
      case 'delete-tag': {
        const tag = pick(tags, step.tag);
        if (tag) await deleteTag(context, tag.id);
        return;
      }
      case 'tag-bill': {
        const tag = pick(tags, step.tag);
        if (tag) await tagBills(context, [bill], tag.id);
        return;
      }
      case 'untag-bill': {
        const tag = pick(tags, step.tag);
        if (tag) await untagBills(context, [bill], tag.id);
        return;
      }
      case 'position':
        await setPosition(
          context,
          bill,
          (['support', 'oppose', 'watch', 'none'] as const)[step.position % 4] ?? 'none',
        );
        return;
      case 'reason':
        await setPositionReason(
          context,
          bill,
          ['', 'Costs', 'Helps tenants'][step.reason % 3] ?? '',
        );
        return;
      case 'decide':
        await [trackBill, dismissBill, laterBill][step.decision % 3]?.(context, bill);
        return;
      case 'sync':
        await target.sync({
          delivery: () => step.fate,
          limits: { entriesPerPush: 3, entriesPerEnvelope: 2, pullLimit: 2 },
        });
        return;
      case 'rewind':
        await target.store.write(['settings'], (tx) =>
          tx.delete('settings', syncCursorSetting(USER)),
        );
        return;
      case 'clock':
        context.setNow(context.now() + step.ms);
        return;
    }
  } catch (error) {
    // Refusals a user would see (a tag name taken, a tag gone) and lost requests are part of
    // the game; anything else is a bug.
    if (error instanceof BillCommandError) return;
    if (error instanceof TestLogError && error.code === 'network') return;
    throw error;
  }
}

/** Every change a device has made so far, by id (entries leave the outbox once acknowledged). */
async function collect(devices: readonly TestDevice[], made: Map<string, OutboxEntry>) {
  for (const each of devices) {
    for (const entry of await rowsOf(each.store, 'outbox')) made.set(entry.id, entry);
  }
}

function changeOf(entry: OutboxEntry): RowChange {
  return {
    id: entry.id,
    table: entry.table as RowChange['table'],
    rowId: entry.rowId,
    op: entry.op,
    fields: outboxFields(entry),
  };
}

describe('sync convergence', () => {
  it('brings three devices to the merge of every change, whatever the delivery', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 5, maxLength: 40 }),
        fc.integer(),
        async (steps, seed) => {
          const log = new TestSyncLog();
          const key = await newDataKey();
          const devices: TestDevice[] = [];
          for (let n = 0; n < DEVICES; n++) {
            devices.push(
              await testDevice(`device-${String.fromCharCode(97 + n)}`, log, key, BILLS),
            );
          }
          devices.forEach((each, n) => {
            each.context.setNow(T0 + n * 7);
          });
          const made = new Map<string, OutboxEntry>();
          for (const step of steps) {
            await perform(devices, step);
            await collect(devices, made);
          }

          // The network heals: two rounds bring every push to the log and every device up to it;
          // two more carry the History entries those pulls made (values a device had set that
          // another's change replaced: bill-history.ts), which make none of their own.
          for (let round = 0; round < 4; round++) {
            for (const each of devices) await each.sync();
          }
          const [reference, ...others] = devices;
          if (reference === undefined) throw new Error('no devices');
          const first = await syncedRowsOf(reference.store);
          for (const each of others) {
            expect(await syncedRowsOf(each.store)).toEqual(first);
          }
          for (const each of devices) expect(await rowsOf(each.store, 'outbox')).toEqual([]);

          // The oracle: every change ever made, merged in a shuffled order on a fresh store.
          // The users' changes: History entries are what devices saw happen, compared apart.
          const changes = [...made.values()]
            .filter((entry) => entry.table !== 'billHistory')
            .map(changeOf);
          const shuffled =
            fc.sample(fc.shuffledSubarray(changes, { minLength: changes.length }), {
              numRuns: 1,
              seed,
            })[0] ?? changes;
          const { store: oracle } = await storeWithBills(BILLS);
          await oracle.write(
            ['tags', 'billTags', 'positions', 'decisions', 'annotations', 'syncState'],
            (tx) => mergeChanges(tx, shuffled),
          );
          // The oracle merges the users' changes alone: History is what devices saw happen.
          expect(await syncedRowsOf(oracle)).toEqual({ ...first, billHistory: [] });
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);
});

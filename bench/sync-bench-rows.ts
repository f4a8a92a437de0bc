import {
  type BillCommandContext,
  createAnnotation,
  createTag,
  dismissBill,
  laterBill,
  setPosition,
  tagBills,
  trackBill,
} from '@docket/core/commands';
import { finalizeBill } from '@docket/core/bills';
import {
  createMemoryLocalStore,
  type LocalRows,
  type LocalStore,
  localTables,
  type StoredBill,
  syncedTables,
  type TableName,
} from '@docket/core/store';

// The sync benchmark's input: what one user made on device A, written through core's commands
// (each command writes its row, its sync state and its outbox entry in one transaction, as in the
// app), on a memory store that holds the bills they are about.

/**
 * How many rows of each kind; one outbox entry each, 10,000 in all. BENCH_SYNC_SCALE=0.1 makes
 * a tenth of each, for trying the benchmark out.
 */
const SCALE = Number(process.env.BENCH_SYNC_SCALE ?? '1');
const BILL_TAGS_PER_TAG = 11;
const TAGS = Math.round(250 * SCALE);
export const ROW_MIX = {
  tags: TAGS,
  billTags: TAGS * BILL_TAGS_PER_TAG,
  decisions: Math.round(2500 * SCALE),
  positions: Math.round(2000 * SCALE),
  annotations: Math.round(2500 * SCALE),
} as const;
export const ROW_COUNT = Object.values(ROW_MIX).reduce((sum, count) => sum + count, 0);

const BILLS = 3000;

const WORDS = (
  'appropriations amend authorize broadband clean commerce committee community county ' +
  'education energy federal grant health housing infrastructure justice labor medicare ' +
  'rural safety schools secretary small business state tax transit veterans water workforce'
).split(' ');

/** A repeatable stream of numbers in [0, 1): every run benchmarks the same rows. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function words(random: () => number, count: number): string {
  return Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

/** Bills 1…BILLS, each with a summary of a few hundred characters to annotate. */
export function benchBills(): StoredBill[] {
  const random = seededRandom(7);
  return Array.from({ length: BILLS }, (_, index) => {
    const number = index + 1;
    const result = finalizeBill({
      source: 'congress-json',
      sourceId: null,
      jurisdiction: 'us',
      session: '119',
      identifier: `H.R. ${number}`,
      title: `To ${words(random, 8)}, and for other purposes.`,
      summary: `${words(random, 80)}.`,
      introducedDate: '2025-01-03',
      status: 'introduced',
      rawStatus: null,
      statusDate: '2025-01-03',
      sponsors: [],
      cosponsors: [],
      subjects: [],
      actions: [],
      texts: [],
      votes: [],
      url: null,
    });
    if (!result.ok) throw new Error(`Bill ${number}: ${result.reason}`);
    return { ...result.bill, datasetIds: ['bench'] };
  });
}

export async function storeWithBills(bills: readonly StoredBill[]): Promise<LocalStore> {
  const store = createMemoryLocalStore();
  await store.write(['bills'], (tx) => tx.putMany('bills', bills));
  return store;
}

/**
 * Makes ROW_COUNT rows on `store` through the commands a user's taps run: tags, tags on bills,
 * triage decisions, positions and annotations with notes.
 */
export async function makeUserRows(store: LocalStore, deviceId: string): Promise<void> {
  const random = seededRandom(42);
  // The memory store keeps each transaction's table copies until a timer of its own fires (its
  // stand-in for IndexedDB's auto-commit); a loop of commands that never lets a timer run keeps
  // thousands of 10,000-row copies alive. Taps come one task apart, so let timers run.
  let commands = 0;
  const breathe = async () => {
    if (++commands % 25 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  };
  let ids = 0;
  const context: BillCommandContext = {
    store,
    deviceId,
    now: () => Date.now(),
    newId: () => `${deviceId}-${String(++ids).padStart(6, '0')}`,
  };
  const billId = (number: number) => `us/119/hr-${number}`;
  const colours = ['#1a7f37', '#cf222e', '#0969da', '#9a6700', '#8250df'];
  const colour = (index: number) => colours[index % colours.length] ?? '#1a7f37';

  for (let index = 0; index < ROW_MIX.tags; index++) {
    const tag = await createTag(context, {
      name: `${words(random, 2)} ${index + 1}`,
      color: colour(index),
    });
    const bills = Array.from({ length: BILL_TAGS_PER_TAG }, (_, offset) =>
      billId(((index * 37 + offset * 101) % BILLS) + 1),
    );
    const { tagged } = await tagBills(context, bills, tag.id);
    if (tagged !== BILL_TAGS_PER_TAG) throw new Error(`Tag ${tag.id} went on ${tagged} bills`);
    await breathe();
  }
  const triage = [trackBill, dismissBill, laterBill];
  for (let index = 0; index < ROW_MIX.decisions; index++) {
    const decide = triage[index % triage.length] ?? trackBill;
    await decide(context, billId(index + 1));
    await breathe();
  }
  const stances = ['support', 'oppose', 'watch'] as const;
  for (let index = 0; index < ROW_MIX.positions; index++) {
    await setPosition(context, billId(BILLS - index), stances[index % stances.length] ?? 'watch');
    await breathe();
  }
  for (let index = 0; index < ROW_MIX.annotations; index++) {
    const number = Math.floor(random() * BILLS) + 1;
    const start = Math.floor(random() * 200);
    const noteWords = Math.floor(random() * 40);
    await createAnnotation(context, {
      billId: billId(number),
      target: 'summary',
      start,
      end: start + 20 + Math.floor(random() * 80),
      color: colour(index),
      ...(noteWords === 0 ? {} : { note: `${words(random, noteWords)}.` }),
    });
    await breathe();
  }
}

export type StoreSnapshot = { [N in TableName]: LocalRows[N][] };

export function snapshotOf(store: LocalStore): Promise<StoreSnapshot> {
  const tables = Object.keys(localTables) as TableName[];
  return store.read(tables, async (tx) => {
    const snapshot: Partial<Record<TableName, unknown[]>> = {};
    for (const table of tables) snapshot[table] = await tx.all(table);
    return snapshot as StoreSnapshot;
  });
}

/** A memory store holding exactly what `snapshot` holds: device A as the commands left it. */
export async function storeFromSnapshot(snapshot: StoreSnapshot): Promise<LocalStore> {
  const store = createMemoryLocalStore();
  const tables = Object.keys(snapshot) as TableName[];
  await store.write(tables, async (tx) => {
    for (const table of tables) {
      await tx.putMany(table, snapshot[table]);
    }
  });
  return store;
}

export type SyncedSnapshot = Pick<StoreSnapshot, (typeof syncedTables)[number]>;

export function syncedRowsOf(store: LocalStore): Promise<SyncedSnapshot> {
  return store.read(syncedTables, async (tx) => ({
    datasets: await tx.all('datasets'),
    tags: await tx.all('tags'),
    billTags: await tx.all('billTags'),
    positions: await tx.all('positions'),
    decisions: await tx.all('decisions'),
    annotations: await tx.all('annotations'),
    seenMarks: await tx.all('seenMarks'),
    apiKeys: await tx.all('apiKeys'),
    billHistory: await tx.all('billHistory'),
  }));
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import type { ImportFile } from '@docket/core/importers';
import { fnv1a64Hex } from '@docket/core/bills';
import { loadStoredDatasetFiles, saveDatasetAndQueueImport } from '@docket/core/commands';
import { runImportJob } from '@docket/core/import-jobs';
import { createMemoryLocalStore } from '@docket/core/store';

// Who voted how (issue 41): a LegiScan dataset shaped like the 117th Congress's (17,800 bills,
// 381 roll calls of the House's 435 and the Senate's 100, 545 people) imported by the real import
// job, once with each roll call's member votes and once with the same files stripped of them
// (the baseline: totals only, as before member votes were kept). Member votes are read, kept as
// [key, vote] pairs on the bill's vote and the people written once into the member directory;
// the goal is an import within 10 % of the baseline's time. Core's memory store stands in for
// IndexedDB (the CPU work is the same; the web import benchmark measures the store).
//
//   npx tsx --expose-gc bench/member-votes-bench.ts
//
// BENCH_BILLS (17,800) and BENCH_MEMBER_RUNS (3 a side, alternating; medians compared) change the
// size. It fails only when the import does not keep every member vote.

const BILLS = Number(process.env.BENCH_BILLS ?? '17800');
const ROLL_CALLS = 381;
const RUNS = Number(process.env.BENCH_MEMBER_RUNS ?? '3');
const HOUSE = 435;
const SENATE = 100;
const PEOPLE = 545;
const FOLDER = 'US/2021-2022_117th_Congress';
const options = ['Yea', 'Nay', 'NV', 'Absent'] as const;

function person(id: number) {
  const senator = id >= HOUSE + 10;
  return {
    person: {
      people_id: 10_000 + id,
      party: id % 2 === 0 ? 'D' : 'R',
      role: senator ? 'Sen' : 'Rep',
      name: `Member Number${String(id)} Lastname`,
      first_name: 'Member',
      last_name: `Number${String(id)}`,
      district: senator ? `SD-${String(id % 50)}` : `HD-${String(id % 53).padStart(3, '0')}`,
      committee_sponsor: 0,
    },
  };
}

// Real getBill answers (history, sponsors, subjects, texts of 5 to 13 KB) as the bills' bodies:
// a bill of a real dataset is that large, and the share member votes add depends on it.
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const templateDirs = [
  join(benchDir, '../../shared/fixtures/legiscan/bill'),
  join(
    benchDir,
    '../packages/core/test-samples/legiscan/dataset/WA/2023-2024_Regular_Session/bill',
  ),
];
const templateDir = templateDirs.find((dir) => existsSync(dir)) ?? '';
const templates = readdirSync(templateDir)
  .sort()
  .map(
    (name) =>
      (
        JSON.parse(readFileSync(join(templateDir, name), 'utf8')) as {
          bill: Record<string, unknown>;
        }
      ).bill,
  );

function bill(n: number, rollCalls: number[]) {
  const template = templates[n % templates.length] ?? {};
  return {
    bill: {
      ...template,
      bill_id: 1_500_000 + n,
      session: { session_id: 1995, session_name: '117th Congress' },
      url: `https://legiscan.com/US/bill/HB${String(n)}/2021`,
      state: 'US',
      bill_number: `HB${String(n)}`,
      body: 'H',
      title: `An Act numbered ${String(n)} to amend title ${String(n % 50)} of the United States Code`,
      votes: rollCalls.map((id) => ({ roll_call_id: id, date: '2021-06-01', desc: 'On Passage' })),
    },
  };
}

function rollCall(id: number, billNumber: number, withMembers: boolean) {
  const senate = id % 3 === 0;
  const size = senate ? SENATE : HOUSE;
  const first = senate ? HOUSE + 10 : 0;
  const votes = Array.from({ length: size }, (_, i) => {
    const option = (i * 7 + id) % 13 === 0 ? (i % 2 === 0 ? 2 : 3) : i % 3 === 0 ? 1 : 0;
    return { people_id: 10_000 + first + i, vote_id: option + 1, vote_text: options[option] };
  });
  const count = (text: string) => votes.filter((vote) => vote.vote_text === text).length;
  return {
    roll_call: {
      roll_call_id: id,
      bill_id: 1_500_000 + billNumber,
      date: '2021-06-01',
      desc: 'On Passage',
      yea: count('Yea'),
      nay: count('Nay'),
      nv: count('NV'),
      absent: count('Absent'),
      total: size,
      passed: 1,
      chamber: senate ? 'S' : 'H',
      votes: withMembers ? votes : [],
    },
  };
}

function dataset(withMembers: boolean): ImportFile {
  const entries: Record<string, Uint8Array> = {};
  const votedBills = new Map<number, number[]>();
  for (let id = 1; id <= ROLL_CALLS; id++) {
    const billNumber = 1 + ((id * 37) % BILLS);
    votedBills.set(billNumber, [...(votedBills.get(billNumber) ?? []), 800_000 + id]);
    entries[`${FOLDER}/vote/${String(800_000 + id)}.json`] = strToU8(
      JSON.stringify(rollCall(800_000 + id, billNumber, withMembers)),
    );
  }
  for (let n = 1; n <= BILLS; n++) {
    entries[`${FOLDER}/bill/HB${String(n)}.json`] = strToU8(
      JSON.stringify(bill(n, votedBills.get(n) ?? [])),
    );
  }
  for (let id = 0; id < PEOPLE; id++) {
    entries[`${FOLDER}/people/${String(10_000 + id)}.json`] = strToU8(JSON.stringify(person(id)));
  }
  return { name: `us-117-${withMembers ? 'members' : 'totals'}.zip`, bytes: zipSync(entries) };
}

async function importOnce(file: ImportFile) {
  const store = createMemoryLocalStore();
  const now = () => new Date().toISOString();
  const { job: queued } = await saveDatasetAndQueueImport(store, {
    deviceId: 'bench',
    datasetId: 'us-117',
    name: 'U.S. Congress 117th',
    jurisdiction: null,
    session: null,
    source: {
      kind: 'files',
      files: [{ id: fnv1a64Hex(file.bytes), name: file.name, bytes: new Uint8Array(file.bytes) }],
    },
    jobId: 'job-117',
    now: now(),
  });
  (globalThis as { gc?: () => void }).gc?.();
  const started = performance.now();
  const job = await runImportJob({
    store,
    jobId: queued.id,
    now,
    loadInput: (dataset) => loadStoredDatasetFiles(store, dataset),
  });
  const ms = performance.now() - started;
  if (job.status !== 'done') throw new Error(`the import ended ${job.status}: ${job.message}`);
  const bills = await store.read(['bills'], (tx) => tx.all('bills'));
  const pairs = bills
    .flatMap((row) => row.votes)
    .reduce((sum, vote) => sum + (vote.members?.length ?? 0), 0);
  const members = await store.read(['members'], (tx) => tx.count('members'));
  return { ms, bills: bills.length, pairs, members };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const withMembers = dataset(true);
const totalsOnly = dataset(false);
const expectedPairs = Array.from({ length: ROLL_CALLS }, (_, i) =>
  (800_000 + i + 1) % 3 === 0 ? SENATE : HOUSE,
).reduce((a, b) => a + b, 0);
console.log(`bill bodies from ${String(templates.length)} real getBill answers in ${templateDir}`);
console.log(
  `${BILLS.toLocaleString('en-US')} bills, ${String(ROLL_CALLS)} roll calls ` +
    `(${expectedPairs.toLocaleString('en-US')} member votes), ${String(PEOPLE)} people; ` +
    `ZIP ${(withMembers.bytes.length / 1e6).toFixed(1)} MB with members, ` +
    `${(totalsOnly.bytes.length / 1e6).toFixed(1)} MB without; ${String(RUNS)} runs a side`,
);
const times = { members: [] as number[], totals: [] as number[] };
for (let run = 0; run < RUNS; run++) {
  const a = await importOnce(withMembers);
  if (a.pairs !== expectedPairs) {
    throw new Error(`kept ${String(a.pairs)} member votes of ${String(expectedPairs)}`);
  }
  const b = await importOnce(totalsOnly);
  if (b.pairs !== 0 || b.bills !== a.bills) throw new Error('the baseline is not the same import');
  times.members.push(a.ms);
  times.totals.push(b.ms);
  console.log(
    `run ${String(run + 1)}: with members ${a.ms.toFixed(0)} ms (${String(a.members)} members ` +
      `in the directory), totals only ${b.ms.toFixed(0)} ms`,
  );
}
const ratio = median(times.members) / median(times.totals);
console.log(
  `median: with members ${median(times.members).toFixed(0)} ms, totals only ` +
    `${median(times.totals).toFixed(0)} ms, ratio ${ratio.toFixed(3)} (goal ≤ 1.10)`,
);

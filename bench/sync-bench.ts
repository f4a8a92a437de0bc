import { decodeBase64, encodeBase64 } from '@docket/core/encoding';
import { canonicalJson } from '@docket/core/bills';
import { openEnvelope, sealEnvelope } from '@docket/core/crypto';
import { outboxFields, type RowChange, rowChangeSchema } from '@docket/core/merge';
import { syncedTables } from '@docket/core/store';
import { z } from 'zod';
import {
  newDataKey,
  webCrypto,
  signUpWithCloudPassword,
  startDocketServer,
  syncDevice,
  type DeviceSyncFigures,
} from './sync-bench-docket.ts';
import { cpuMeter } from './machine-load.ts';
import { documentsOf, replicateOnce, startPouchServer } from './sync-bench-pouchdb.ts';
import {
  benchBills,
  makeUserRows,
  ROW_COUNT,
  ROW_MIX,
  snapshotOf,
  storeFromSnapshot,
  storeWithBills,
  syncedRowsOf,
  type StoreSnapshot,
} from './sync-bench-rows.ts';

// The sync benchmark (issue 5): a first sync of 10,000 rows a user made on device A (tags, tags
// on bills, decisions, positions, annotations, written through core's commands) to a fresh
// device B, through the real Docket server on loopback: A's runSync pushes, B's runSync pulls
// and merges. Beside it, in the same process and the same run, PouchDB replicates the same rows
// as documents from a database to a PouchDB server on loopback and from there into a fresh
// database. Everything is in memory on both sides. Each side runs RUNS times, alternating; the
// medians are compared.
//
//   npx tsx --expose-gc bench/sync-bench.ts
//
// It fails only if a sync does not deliver every row; missing the goals is reported.

const RUNS = Number(process.env.BENCH_SYNC_RUNS ?? '3');
const DEVICE_A = 'bench-a';
const DEVICE_B = 'bench-b';
const GOAL_RATIO = 3;
const GOAL_CRYPTO_SHARE = 0.1;

const gc = (globalThis as { gc?: () => void }).gc;

interface DocketRun {
  totalMs: number;
  a: DeviceSyncFigures;
  b: DeviceSyncFigures;
}

interface PouchRun {
  totalMs: number;
  pushMs: number;
  pullMs: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
const pad = (text: string, width: number) => text.padStart(width);

async function docketRun(
  origin: string,
  snapshot: StoreSnapshot,
  bills: Awaited<ReturnType<typeof benchBills>>,
): Promise<DocketRun> {
  const account = await signUpWithCloudPassword(origin);
  const storeA = await storeFromSnapshot(snapshot);
  const storeB = await storeWithBills(bills);
  const dataKey = await newDataKey();
  gc?.();

  const start = performance.now();
  const a = await syncDevice(origin, account, storeA, DEVICE_A, dataKey);
  const b = await syncDevice(origin, account, storeB, DEVICE_B, dataKey);
  const totalMs = performance.now() - start;

  if (a.report.pushed !== ROW_COUNT) throw new Error(`A pushed ${a.report.pushed} changes`);
  if (b.report.pulled !== ROW_COUNT) throw new Error(`B pulled ${b.report.pulled} changes`);
  const [rowsA, rowsB] = await Promise.all([syncedRowsOf(storeA), syncedRowsOf(storeB)]);
  if (canonicalJson(rowsA) !== canonicalJson(rowsB)) {
    throw new Error('After the sync, B does not hold the rows A made.');
  }
  storeA.close();
  storeB.close();
  return { totalMs, a, b };
}

/** The standalone cost of steps the engine runs, on the same changes, each alone. */
async function cpuSteps(snapshot: StoreSnapshot): Promise<string[]> {
  const changes: RowChange[] = snapshot.outbox.map((entry) => {
    const table = syncedTables.find((name) => name === entry.table);
    if (table === undefined) throw new Error(`No synced table ${entry.table}`);
    return { id: entry.id, table, rowId: entry.rowId, op: entry.op, fields: outboxFields(entry) };
  });
  // Each step five times, the median kept: the first call of each also compiles it.
  const time = async (work: () => unknown) => {
    const runs: number[] = [];
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      await work();
      runs.push(performance.now() - start);
    }
    return median(runs);
  };
  const json = JSON.stringify({ format: 'docket-changes', version: 1, changes });
  const bytes = new TextEncoder().encode(json);
  const stringify = await time(() =>
    JSON.stringify({ format: 'docket-changes', version: 1, changes }),
  );
  const parse = await time(() => JSON.parse(json));
  const validate = await time(() =>
    z.array(rowChangeSchema).parse((JSON.parse(json) as { changes: unknown }).changes),
  );

  // The engine's envelopes: 250 changes each, sealed one after another.
  const key = await newDataKey();
  const context = { userId: 'bench-user', epoch: 0, batchId: 'bench-batch' };
  const aad = new TextEncoder().encode(JSON.stringify([1, context.userId, 0, context.batchId]));
  const iv = new Uint8Array(12);
  const plaintexts: Uint8Array<ArrayBuffer>[] = [];
  for (let start = 0; start < changes.length; start += 250) {
    const slice = changes.slice(start, start + 250);
    plaintexts.push(
      new TextEncoder().encode(
        JSON.stringify({ format: 'docket-changes', version: 1, changes: slice }),
      ),
    );
  }
  const params = { name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 } as const;
  const ciphertexts: Uint8Array<ArrayBuffer>[] = [];
  for (const plaintext of plaintexts) {
    ciphertexts.push(new Uint8Array(await webCrypto.subtle.encrypt(params, key, plaintext)));
  }
  const encoded = ciphertexts.map((ciphertext) => encodeBase64(ciphertext));
  const sealed: string[] = [];
  for (const plaintext of plaintexts)
    sealed.push(await sealEnvelope(webCrypto, key, plaintext, context));
  const encrypt = await time(async () => {
    for (const plaintext of plaintexts) await webCrypto.subtle.encrypt(params, key, plaintext);
  });
  const decrypt = await time(async () => {
    for (const ciphertext of ciphertexts) await webCrypto.subtle.decrypt(params, key, ciphertext);
  });
  const toBase64 = await time(() => ciphertexts.map((ciphertext) => encodeBase64(ciphertext)));
  const fromBase64 = await time(() => encoded.map((text) => decodeBase64(text)));
  const seal = await time(async () => {
    for (const plaintext of plaintexts) await sealEnvelope(webCrypto, key, plaintext, context);
  });
  const open = await time(async () => {
    for (const envelope of sealed) await openEnvelope(webCrypto, key, envelope, context);
  });
  const mb = (count: number) => `${(count / 1e6).toFixed(2)} MB`;
  return [
    `  ${ROW_COUNT.toLocaleString('en-US')} changes are ${mb(bytes.length)} of JSON before encryption, in ${plaintexts.length} envelopes`,
    `  JSON.stringify ${ms(stringify)}, JSON.parse ${ms(parse)}, parse + rowChangeSchema check ${ms(validate)}`,
    `  sealEnvelope of all ${ms(seal)} = AES-GCM encrypt ${ms(encrypt)} + core's encodeBase64 ${ms(toBase64)} (${mb(encoded.reduce((sum, text) => sum + text.length, 0))})`,
    `  openEnvelope of all ${ms(open)} = core's decodeBase64 ${ms(fromBase64)} + AES-GCM decrypt ${ms(decrypt)}`,
  ];
}

function deviceLines(label: string, figures: DeviceSyncFigures): string[] {
  const { report, transport, store } = figures;
  const rest = report.durationMs - report.cryptoMs - transport.ms - store.ms;
  const line = (what: string, value: number) =>
    `    ${what.padEnd(48)}${pad(ms(value), 10)}  ${pad(pct(value, report.durationMs), 7)}`;
  return [
    `  ${label}: runSync ${ms(report.durationMs)} (pushed ${report.pushed}, pulled ${report.pulled}, ${(report.bytesUp / 1e6).toFixed(2)} MB up, ${(report.bytesDown / 1e6).toFixed(2)} MB down)`,
    line('crypto (sealing, opening)', report.cryptoMs),
    line(`HTTP + server (${transport.calls} requests)`, transport.ms),
    line(`store transactions, merging included (${store.calls})`, store.ms),
    line('the rest (JSON, zod checks, UTF-8, awaits)', rest),
  ];
}

async function main(): Promise<void> {
  console.log(
    `[sync bench] ${ROW_COUNT.toLocaleString('en-US')} rows: ${Object.entries(ROW_MIX)
      .map(([table, count]) => `${count.toLocaleString('en-US')} ${table}`)
      .join(
        ', ',
      )}; ${RUNS} runs a side; Node ${process.version}${gc === undefined ? ' (no --expose-gc: runs start from an uncollected heap)' : ''}`,
  );
  const before = cpuMeter();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  console.log(`[sync bench] CPU in the second before the run: ${before()}`);

  let setup = performance.now();
  const bills = benchBills();
  const template = await storeWithBills(bills);
  await makeUserRows(template, DEVICE_A);
  const snapshot = await snapshotOf(template);
  template.close();
  if (snapshot.outbox.length !== ROW_COUNT) {
    throw new Error(`The commands wrote ${snapshot.outbox.length} outbox entries`);
  }
  const documents = documentsOf(await syncedRowsOf(await storeFromSnapshot(snapshot)));
  if (documents.length !== ROW_COUNT) throw new Error(`${documents.length} PouchDB documents`);
  console.log(
    `[sync bench] setup (not timed): ${bills.length} bills and ${ROW_COUNT} rows through core's commands in ${ms(performance.now() - setup)}`,
  );
  setup = performance.now();
  const docket = await startDocketServer();
  const pouch = await startPouchServer();
  console.log(
    `[sync bench] servers up in ${ms(performance.now() - setup)}: Docket ${docket.origin} (PGlite in memory), PouchDB ${pouch.origin} (express-pouchdb, memory adapter)`,
  );

  const docketRuns: DocketRun[] = [];
  const pouchRuns: PouchRun[] = [];
  const during = cpuMeter();
  try {
    for (let run = 1; run <= RUNS; run++) {
      // Alternating which side goes first spreads a change in the machine's load over both.
      const order = run % 2 === 1 ? ['docket', 'pouchdb'] : ['pouchdb', 'docket'];
      for (const side of order) {
        if (side === 'docket') {
          const result = await docketRun(docket.origin, snapshot, bills);
          docketRuns.push(result);
          console.log(
            `[sync bench] run ${run} Docket  ${pad(ms(result.totalMs), 10)} (A push ${ms(result.a.report.durationMs)}, B pull ${ms(result.b.report.durationMs)}, crypto ${ms(result.a.report.cryptoMs + result.b.report.cryptoMs)})`,
          );
        } else {
          gc?.();
          const result = await replicateOnce(pouch, documents, `${run}`);
          if (result.docsWritten !== ROW_COUNT || result.docsOnB !== ROW_COUNT) {
            throw new Error(
              `PouchDB wrote ${result.docsWritten} documents to the server and B holds ${result.docsOnB}`,
            );
          }
          const totalMs = result.pushMs + result.pullMs;
          pouchRuns.push({ totalMs, pushMs: result.pushMs, pullMs: result.pullMs });
          console.log(
            `[sync bench] run ${run} PouchDB ${pad(ms(totalMs), 10)} (A → server ${ms(result.pushMs)}, server → B ${ms(result.pullMs)})`,
          );
        }
      }
    }
  } finally {
    await docket.close();
    await pouch.close();
  }
  const cpuDuring = during();

  const docketMs = median(docketRuns.map((run) => run.totalMs));
  const pouchMs = median(pouchRuns.map((run) => run.totalMs));
  const shares = docketRuns.map(
    (run) =>
      (run.a.report.cryptoMs + run.b.report.cryptoMs) /
      (run.a.report.durationMs + run.b.report.durationMs),
  );
  const cryptoShare = median(shares);
  const ratio = pouchMs / docketMs;
  const typical = docketRuns.find((run) => run.totalMs === docketMs) ?? docketRuns[0] ?? undefined;
  const typicalPouch = pouchRuns.find((run) => run.totalMs === pouchMs) ?? pouchRuns[0];

  const lines = [
    '',
    `Sync of ${ROW_COUNT.toLocaleString('en-US')} rows, A → server → fresh B, median of ${RUNS}`,
    `  Docket   ${pad(ms(docketMs), 10)}   runs: ${docketRuns.map((run) => ms(run.totalMs)).join(', ')}`,
    `  PouchDB  ${pad(ms(pouchMs), 10)}   runs: ${pouchRuns.map((run) => ms(run.totalMs)).join(', ')}`,
    `  ratio    ${ratio.toFixed(2)}× (PouchDB time ÷ Docket time; goal ≥ ${GOAL_RATIO}×: ${ratio >= GOAL_RATIO ? 'met' : 'MISSED'})`,
    `  crypto   ${(100 * cryptoShare).toFixed(1)} % of Docket's runSync time (runs: ${shares.map((share) => `${(100 * share).toFixed(1)} %`).join(', ')}; goal < ${100 * GOAL_CRYPTO_SHARE} %: ${cryptoShare < GOAL_CRYPTO_SHARE ? 'met' : 'MISSED'})`,
    '',
    `Where Docket's time went (the median run):`,
    ...(typical === undefined
      ? []
      : [...deviceLines('A (push)', typical.a), ...deviceLines('B (pull + merge)', typical.b)]),
    `  (the server runs in this process: its work is inside "HTTP + server")`,
    `The engine's CPU steps alone, on the same changes:`,
    ...(await cpuSteps(snapshot)),
    '',
    `Where PouchDB's time went (the median run): A → server ${ms(typicalPouch?.pushMs ?? NaN)}, server → B ${ms(typicalPouch?.pullMs ?? NaN)} (default batches of 100)`,
    '',
    `[sync bench] CPU during the runs: ${cpuDuring}`,
  ];
  console.log(lines.join('\n'));
}

main().then(
  () => {
    // express-pouchdb and better-auth leave timers behind; the figures are out.
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

import { saveDatasetAndQueueImport } from '@docket/core/commands';
import { createMemoryLocalStore, type LocalStore } from '@docket/core/store';
import { runSync, type SyncProgress, type SyncSession } from '@docket/core/sync';
import type { OpaqueCryptoKey } from '@docket/core/crypto';
import {
  fetchTransport,
  newDataKey,
  newTiming,
  signUpWithCloudPassword,
  startDocketServer,
  webCrypto,
  type DocketAccount,
} from './sync-bench-docket.ts';
import { cpuMeter } from './machine-load.ts';

// The dataset files' first sync (issue 19): device A holds a dataset of 732 small files (10–20
// KB each, 11 MB, as the first sync a user measured in the app), syncs it to the real Docket
// server on loopback (Fastify, PGlite in memory, the blob routes over HTTP), then a fresh device
// B with the same key syncs and is ready: every file fetched, checked and stored, its import
// queued. Two designs in the same run, each on a fresh account, alternating:
// - packs: small files packed into blobs of a few MB, a few in flight (sync-dataset-files.ts);
// - one file a request: every file its own blob, one after the other, as before packs
//   (`limits.blobPackBytes: 0`, which is that path, kept).
// Then A syncs the same files again as another device would after losing its definitions: the
// packs are on the server already, so nothing goes up.
//
//   npx tsx bench/sync-files-bench.ts
//
// BENCH_SYNC_FILES_RUNS=3 (default) runs per design; BENCH_SYNC_FILES=732 files. It fails only if
// a device does not end with every file; missing the goals is reported.

const RUNS = Number(process.env.BENCH_SYNC_FILES_RUNS ?? '3');
const FILES = Number(process.env.BENCH_SYNC_FILES ?? '732');
const GOAL_FIRST_MS = 5000;
const GOAL_SECOND_MS = 10_000;

type Design = 'packs' | 'one file a request';
interface BenchFile {
  id: string;
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
}
const designs: readonly Design[] = ['packs', 'one file a request'];
const limitsOf = (design: Design) => (design === 'packs' ? {} : { blobPackBytes: 0 });

/** A file of 10–20 KB of XML-like text, different in every file (a seeded generator). */
function makeFiles(count: number): BenchFile[] {
  let seed = 19;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const words = ['resolution', 'congress', 'amend', 'section', 'committee', 'referred', 'act'];
  return Array.from({ length: count }, (_, index) => {
    const size = 10_000 + Math.floor(random() * 10_000);
    let text = `<billStatus><bill><number>${index + 1}</number><actions>`;
    while (text.length < size - 40) {
      const word = words[Math.floor(random() * words.length)] ?? 'act';
      text += `<action>${word} ${Math.floor(random() * 1e9)}</action>`;
    }
    text = `${text.slice(0, size - 40)}</actions></bill></billStatus>`;
    return {
      id: '',
      name: `BILLSTATUS-119hr${index + 1}.xml`,
      bytes: new TextEncoder().encode(text),
    };
  });
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await webCrypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function deviceWithDataset(files: readonly BenchFile[]): Promise<LocalStore> {
  const store = createMemoryLocalStore();
  await saveDatasetAndQueueImport(store, {
    datasetId: 'bench-dataset',
    name: 'House bills',
    jurisdiction: null,
    session: null,
    source: { kind: 'files', files },
    jobId: 'bench-job',
    now: new Date().toISOString(),
    deviceId: 'bench-a',
  });
  return store;
}

interface RunFigures {
  firstMs: number;
  secondMs: number;
  againMs: number;
  requestsUp: number;
  requestsDown: number;
  bytesUp: number;
  bytesAgain: number;
}

async function syncOnce(
  origin: string,
  account: DocketAccount,
  store: LocalStore,
  deviceId: string,
  dataKey: OpaqueCryptoKey,
  design: Design,
  onProgress?: (progress: SyncProgress) => void,
) {
  const timing = newTiming();
  const session: SyncSession = {
    userId: account.userId,
    deviceId,
    epoch: account.settings.keyEpoch,
    dataKey,
    epochStartSeqno: account.settings.epochStartSeqno,
  };
  const inner = fetchTransport(origin, account.cookie, timing);
  let blobBytes = 0;
  const started = performance.now();
  const report = await runSync({
    store,
    transport: {
      ...inner,
      putBlob: (address, bytes) => {
        blobBytes += bytes.length;
        return inner.putBlob(address, bytes);
      },
    },
    crypto: webCrypto,
    session,
    limits: limitsOf(design),
    ...(onProgress === undefined ? {} : { onProgress }),
  });
  return { report, ms: performance.now() - started, calls: timing.calls, blobBytes };
}

async function oneRun(
  origin: string,
  files: readonly BenchFile[],
  design: Design,
): Promise<RunFigures> {
  const account = await signUpWithCloudPassword(origin);
  const dataKey = await newDataKey();
  const a = await deviceWithDataset(files);
  const first = await syncOnce(origin, account, a, 'bench-a', dataKey, design);
  if (first.report.filesUp !== files.length) {
    throw new Error(`${design}: A uploaded ${first.report.filesUp} of ${files.length} files`);
  }
  const b = createMemoryLocalStore();
  const second = await syncOnce(origin, account, b, 'bench-b', dataKey, design);
  const held = await b.read(['datasetFiles'], (tx) => tx.count('datasetFiles'));
  if (held !== files.length || second.report.fileProblems.length > 0) {
    throw new Error(`${design}: B holds ${held} of ${files.length} files`);
  }
  // The same files once more from a device whose definition lost its blobs (an upload cut off
  // before the definition was written): packs are already there.
  await a.write(['datasets'], async (tx) => {
    const row = await tx.get('datasets', 'bench-dataset');
    if (row === undefined) throw new Error('no dataset');
    const rest = { ...row };
    delete rest.blobs;
    await tx.put('datasets', rest);
  });
  const again = await syncOnce(origin, account, a, 'bench-a', dataKey, design);
  a.close();
  b.close();
  return {
    firstMs: first.ms,
    secondMs: second.ms,
    againMs: again.ms,
    requestsUp: first.calls,
    requestsDown: second.calls,
    bytesUp: first.blobBytes,
    bytesAgain: again.blobBytes,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

async function main(): Promise<void> {
  const files = makeFiles(FILES);
  for (const file of files) file.id = await sha256Hex(file.bytes);
  const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
  console.log(
    `Dataset files' first sync: ${FILES} files, ${mb(total)}, ${RUNS} runs a design, alternating`,
  );
  const server = await startDocketServer();
  const cpu = cpuMeter();
  const runs = new Map<Design, RunFigures[]>(designs.map((design) => [design, []]));
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const design of run % 2 === 0 ? designs : [...designs].reverse()) {
        const figures = await oneRun(server.origin, files, design);
        runs.get(design)?.push(figures);
        console.log(
          `  run ${run + 1} ${design.padEnd(18)} first sync ${ms(figures.firstMs).padStart(9)}, ` +
            `second device ${ms(figures.secondMs).padStart(9)}, again ${ms(figures.againMs).padStart(8)}`,
        );
      }
    }
  } finally {
    await server.close();
  }
  const load = cpu();
  const of = (design: Design, pick: (figures: RunFigures) => number) =>
    median((runs.get(design) ?? []).map(pick));
  console.log('');
  console.log(
    '| design             | first sync | second device ready | same files again | requests up / down | blobs up  | blobs again |',
  );
  console.log(
    '|--------------------|-----------:|--------------------:|-----------------:|-------------------:|----------:|------------:|',
  );
  for (const design of designs) {
    console.log(
      `| ${design.padEnd(18)} | ${ms(of(design, (f) => f.firstMs)).padStart(10)} | ` +
        `${ms(of(design, (f) => f.secondMs)).padStart(19)} | ` +
        `${ms(of(design, (f) => f.againMs)).padStart(16)} | ` +
        `${`${of(design, (f) => f.requestsUp)} / ${of(design, (f) => f.requestsDown)}`.padStart(18)} | ` +
        `${mb(of(design, (f) => f.bytesUp)).padStart(9)} | ${mb(of(design, (f) => f.bytesAgain)).padStart(11)} |`,
    );
  }
  const firstPacks = of('packs', (f) => f.firstMs);
  const secondPacks = of('packs', (f) => f.secondMs);
  const firstOld = of('one file a request', (f) => f.firstMs);
  const secondOld = of('one file a request', (f) => f.secondMs);
  console.log('');
  console.log(
    `First sync: ${ms(firstPacks)} with packs, ${(firstOld / firstPacks).toFixed(1)}× faster ` +
      `than one file a request (${ms(firstOld)}); goal ≤ ${ms(GOAL_FIRST_MS)}: ` +
      (firstPacks <= GOAL_FIRST_MS ? 'met' : 'missed'),
  );
  console.log(
    `Second device ready: ${ms(secondPacks)} with packs, ${(secondOld / secondPacks).toFixed(1)}× ` +
      `faster (${ms(secondOld)}); goal ≤ ${ms(GOAL_SECOND_MS)}: ` +
      (secondPacks <= GOAL_SECOND_MS ? 'met' : 'missed'),
  );
  console.log(`Machine: ${load}`);
}

await main();

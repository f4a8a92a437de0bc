import Dexie from 'dexie';
import { expect, inject, it } from 'vitest';
import { unzipSync, zipSync } from 'fflate';
import { queueRefresh, saveDatasetAndQueueImport } from '@docket/core/commands';
import { runImportJob, type ImportInput } from '@docket/core/import-jobs';
import type { LocalStore } from '@docket/core/store';
import { openIndexedDbLocalStore } from '../packages/app/src/local-store/indexeddb-local-store.ts';
import {
  eventLoopBreak,
  WORKER_IMPORT_CHUNKS,
} from '../packages/app/src/import-worker/import-runner.ts';
import { StoreTimeline } from './import-timing.ts';

// The refresh benchmark (issue 20): a dataset of 10,000 congress data.json bills, already
// imported, in which 100 bills gained an action. A refresh from an API that says which bills
// changed (Open States' updated_since, congress.gov's fromDateTime, LegiScan's change_hash,
// GovInfo's listing) reads only those 100 (`partial`); the baseline, in the same page and on the
// same database, is a full re-import of the same dataset with the same kind of change, which
// reads all 10,000 bills. Each is run twice, alternating (full, refresh, refresh, full), each time
// with new actions on another 100 bills; the means are compared. Both run the way the import
// worker runs a job (runImportJob with its chunks on the IndexedDB store, profile on disk).
// It fails only if a run leaves the wrong bills; a missed goal is reported.

const DATASET_BILLS = 10_000;
const CHANGED_BILLS = 100;
const GOAL_RATIO = 10;

Dexie.debug = false;

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

interface CongressAction {
  acted_at: string;
  text: string;
  type: string;
  action_code: string;
  references: unknown[];
}

/** A data.json with one more action, dated a day after its last one: a bill that moved. */
function withNewAction(bytes: Uint8Array, text: string): Uint8Array {
  const bill = JSON.parse(new TextDecoder().decode(bytes)) as {
    actions: CongressAction[];
    updated_at: string;
  };
  bill.actions.push({
    acted_at: '2026-11-20',
    text,
    type: 'action',
    action_code: '',
    references: [],
  });
  bill.updated_at = '2026-11-20T12:00:00Z';
  return new TextEncoder().encode(JSON.stringify(bill));
}

interface Timed {
  ms: number;
  billRowsWritten: number;
  updated: number;
}

async function timedJob(
  store: LocalStore,
  datasetId: string,
  jobId: string,
  input: ImportInput,
): Promise<Timed> {
  await queueRefresh(store, { datasetId, jobId, now: new Date().toISOString() });
  await settle();
  const timeline = new StoreTimeline();
  const timedStore = timeline.wrap(store);
  const started = performance.now();
  const job = await runImportJob({
    store: timedStore,
    jobId,
    loadInput: () => Promise.resolve(input),
    now: () => new Date().toISOString(),
    ...WORKER_IMPORT_CHUNKS,
    chunkClock: () => Date.now(),
    eventLoopBreak,
  });
  const ms = performance.now() - started;
  expect(job.status, job.message ?? '').toBe('done');
  let billRowsWritten = 0;
  for (const span of timeline.spans) {
    for (const [call, entry] of span.calls) {
      if (call === 'put bills' || call === 'putMany bills') billRowsWritten += entry.rows;
    }
  }
  return { ms, billRowsWritten, updated: job.result?.updated ?? 0 };
}

it(
  'refreshes the 100 changed bills of a 10,000-bill dataset, against a full re-import',
  { timeout: 20 * 60_000 },
  async () => {
    const input = inject('importBench');
    expect(input.bills).toBeGreaterThanOrEqual(DATASET_BILLS);
    const all = unzipSync(new Uint8Array(await (await fetch(input.url)).arrayBuffer()));
    const names = Object.keys(all)
      .filter((name) => name.endsWith('data.json'))
      .sort()
      .slice(0, DATASET_BILLS);
    const files: Record<string, Uint8Array> = {};
    for (const name of names) files[name] = all[name] ?? new Uint8Array();

    const run = Date.now();
    const databaseName = `docket-bench-refresh-${run}`;
    const store = await openIndexedDbLocalStore({ name: databaseName });
    const datasetId = 'bench-refresh-dataset';
    try {
      // The dataset as a URL's, imported once (not timed).
      const { job: first } = await saveDatasetAndQueueImport(store, {
        deviceId: 'bench-device',
        datasetId,
        name: 'Benchmark: refresh',
        jurisdiction: null,
        session: null,
        source: { kind: 'url', url: 'https://bench.invalid/congress-bills.zip' },
        jobId: 'bench-first',
        now: new Date().toISOString(),
      });
      const firstStarted = performance.now();
      const firstJob = await runImportJob({
        store,
        jobId: first.id,
        loadInput: () =>
          Promise.resolve({
            files: [{ name: 'congress-bills.zip', bytes: zipSync(files, { level: 1 }) }],
            fingerprint: 'bench:0',
          }),
        now: () => new Date().toISOString(),
        ...WORKER_IMPORT_CHUNKS,
        chunkClock: () => Date.now(),
        eventLoopBreak,
      });
      const firstMs = performance.now() - firstStarted;
      expect(firstJob.status, firstJob.message ?? '').toBe('done');
      expect(firstJob.result?.added).toBe(DATASET_BILLS);

      const kinds = ['full', 'refresh', 'refresh', 'full'] as const;
      const results: Record<'full' | 'refresh', Timed[]> = { full: [], refresh: [] };
      for (const [round, kind] of kinds.entries()) {
        // Another 100 bills each round, spread over the dataset, each with an action of its own.
        const changed = names.filter((_, index) => index % CHANGED_BILLS === round);
        expect(changed).toHaveLength(CHANGED_BILLS);
        const text = `Benchmark round ${round + 1}: referred to the Committee on Finance.`;
        for (const name of changed)
          files[name] = withNewAction(files[name] ?? new Uint8Array(), text);
        const read: Record<string, Uint8Array> =
          kind === 'full'
            ? files
            : Object.fromEntries(changed.map((name) => [name, files[name] ?? new Uint8Array()]));
        const bytes = zipSync(read, { level: 1 });
        const timed = await timedJob(store, datasetId, `bench-${kind}-${round}`, {
          files: [{ name: 'congress-bills.zip', bytes }],
          fingerprint: `bench:${round + 1}`,
          ...(kind === 'refresh' ? { partial: true } : {}),
        });
        expect(timed.updated, `${kind} round ${round + 1}: bills updated`).toBe(CHANGED_BILLS);
        const count = await store.read(['bills'], (tx) => tx.count('bills'));
        expect(count, `${kind} round ${round + 1}: bills kept`).toBe(DATASET_BILLS);
        results[kind].push(timed);
      }

      const mean = (timings: Timed[]) =>
        timings.reduce((sum, timing) => sum + timing.ms, 0) / timings.length;
      const full = mean(results.full);
      const refresh = mean(results.refresh);
      const ratio = full / refresh;
      const written = (timings: Timed[]) => timings.map((t) => t.billRowsWritten).join(', ');
      console.log(
        [
          `Refresh of a ${DATASET_BILLS.toLocaleString('en-US')}-bill dataset in which ${CHANGED_BILLS} bills gained an action (Chromium, IndexedDB on disk; machine busy before: ${input.busyBefore === null ? 'not measured' : `${(100 * input.busyBefore).toFixed(0)} %`}):`,
          `  first import of the dataset: ${seconds(firstMs)} s`,
          `  full re-import (reads all ${DATASET_BILLS.toLocaleString('en-US')}): ${results.full.map((t) => `${seconds(t.ms)} s`).join(', ')}; mean ${seconds(full)} s; bill rows written ${written(results.full)}`,
          `  refresh of the changed bills (partial): ${results.refresh.map((t) => `${seconds(t.ms)} s`).join(', ')}; mean ${seconds(refresh)} s; bill rows written ${written(results.refresh)}`,
          `  ratio ${ratio.toFixed(1)}× faster (goal ≥ ${GOAL_RATIO}×: ${ratio >= GOAL_RATIO ? 'met' : 'missed'})`,
        ].join('\n'),
      );
    } finally {
      store.close();
      await Dexie.delete(databaseName);
    }
  },
);

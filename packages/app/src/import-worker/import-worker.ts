import { expose } from 'comlink';
import { openIndexedDbLocalStore } from '../local-store/indexeddb-local-store.ts';
import type { ImportRunnerApi } from './import-runner.ts';
import type { SourceFetcher } from '../platform/platform.ts';
import { fetchThrough } from './source-fetcher.ts';
import type { SourceFetch } from './source-download.ts';
import { browserJobLocks, createWebImportRunner } from './web-import-runner.ts';

// The import worker: its own connection to the device's database, the import runner, and the
// API the page calls through comlink. Parsing and writing happen here, so a large dataset does
// not freeze the page.

/** The page's fetcher for sources, when the platform has one (useSourceFetcher). */
let pageFetch: SourceFetch | null = null;

async function start(): Promise<ImportRunnerApi> {
  const store = await openIndexedDbLocalStore();
  const runner = createWebImportRunner(store, {
    locks: browserJobLocks(),
    fetch: (url, init, kept) =>
      pageFetch === null ? fetch(url, init) : pageFetch(url, init, kept),
  });
  // Start-up: whatever a closed tab left running is interrupted now, before any new work.
  await runner.recoverInterrupted();
  return runner;
}

const started = start();
started.catch((error: unknown) => {
  console.error('[docket] The import worker could not start:', error);
});

/** What the page calls: the runner's API, and the platform's way to fetch sources. */
export interface ImportWorkerApi extends ImportRunnerApi {
  /** The fetcher arrives as a comlink proxy: each call is a message to the page. */
  setSourceFetcher(fetcher: SourceFetcher): void;
}

// Exposed at once, so calls made while the database opens wait for it instead of getting lost.
const api: ImportWorkerApi = {
  setSourceFetcher: (fetcher) => {
    pageFetch = fetchThrough(fetcher);
  },
  recoverInterrupted: async () => (await started).recoverInterrupted(),
  saveAndImport: async (request) => (await started).saveAndImport(request),
  importSynced: async () => (await started).importSynced(),
  refresh: async (datasetId) => (await started).refresh(datasetId),
  refreshAll: async (options) => (await started).refreshAll(options),
  deleteDataset: async (datasetId) => (await started).deleteDataset(datasetId),
  resume: async (jobId) => {
    await (await started).resume(jobId);
  },
  retry: async (jobId) => {
    await (await started).retry(jobId);
  },
  cancel: async (jobId) => {
    await (await started).cancel(jobId);
  },
};
expose(api);

import { randomIdSource } from '@docket/core/commands';
import { ensureDeviceId } from '@docket/core/device';
import { expose } from 'comlink';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { openIndexedDbLocalStore } from '../local-store/indexeddb-local-store.ts';
import type { ControlChannel, ImportRunnerApi } from './import-runner.ts';
import { createImportRunner, WORKER_IMPORT_CHUNKS } from './import-runner.ts';
import { localJobLocks, webJobLocks } from './job-locks.ts';
import type { SourceFetcher } from '../platform/platform.ts';
import { fetchThrough } from './source-fetcher.ts';
import type { SourceFetch } from './source-download.ts';

// The import worker: its own connection to the device's database, the import runner, and the
// API the page calls through comlink. Parsing and writing happen here, so a large dataset does
// not freeze the page.

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function controlChannel(): ControlChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel('docket-import-control');
  return {
    post: (message) => {
      channel.postMessage(message);
    },
    listen: (onMessage) => {
      channel.onmessage = (event: MessageEvent<{ type: 'cancel'; jobId: string }>) => {
        onMessage(event.data);
      };
    },
  };
}

/** The page's fetcher for sources, when the platform has one (useSourceFetcher). */
let pageFetch: SourceFetch | null = null;

async function start(): Promise<ImportRunnerApi> {
  const store = await openIndexedDbLocalStore();
  const channel = controlChannel();
  const runner = createImportRunner({
    store,
    locks: 'locks' in navigator ? webJobLocks(navigator.locks) : localJobLocks(),
    fetch: (url, init, kept) =>
      pageFetch === null ? fetch(url, init) : pageFetch(url, init, kept),
    relay: (request) =>
      fetch('/api/sources/fetch', {
        method: 'POST',
        credentials: 'same-origin',
        headers: {
          'content-type': 'application/json',
          [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
        },
        body: JSON.stringify({
          url: request.url,
          ...(request.etag === null ? {} : { etag: request.etag }),
          ...(request.lastModified === null ? {} : { lastModified: request.lastModified }),
          ...(request.apiKeyHeader === undefined ? {} : { apiKeyHeader: request.apiKeyHeader }),
          ...(request.accept === undefined ? {} : { accept: request.accept }),
        }),
      }),
    sha256Hex,
    newId: () => crypto.randomUUID(),
    deviceId: () =>
      ensureDeviceId(
        store,
        randomIdSource((bytes) => crypto.getRandomValues(bytes)),
      ),
    now: () => new Date().toISOString(),
    ...WORKER_IMPORT_CHUNKS,
    ...(channel === undefined ? {} : { channel }),
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
  refreshAll: async () => (await started).refreshAll(),
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

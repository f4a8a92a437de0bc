import type { Remote } from 'comlink';
import { proxy, wrap } from 'comlink';
import type { SourceFetcher } from '../platform/platform.ts';
import type { ImportWorkerApi } from './import-worker.ts';
import { workerName } from '../local-store/account-databases.ts';

// The page's handle on the import worker. The worker is started on first use (the datasets and
// jobs screens use it); starting it also marks jobs a closed tab left behind as interrupted.

let remote: Remote<ImportWorkerApi> | null = null;
let sourceFetcher: SourceFetcher | null = null;

/** The platform's own way to fetch sources (the native shells'), for the worker to use. */
export function setSourceFetcher(fetcher: SourceFetcher): void {
  sourceFetcher = fetcher;
  if (remote !== null) void remote.setSourceFetcher(proxy(fetcher));
}

export function importJobs(): Remote<ImportWorkerApi> {
  if (remote === null) {
    const worker = new Worker(new URL('./import-worker.ts', import.meta.url), {
      type: 'module',
      name: workerName('docket-imports'),
    });
    remote = wrap<ImportWorkerApi>(worker);
    if (sourceFetcher !== null) void remote.setSourceFetcher(proxy(sourceFetcher));
  }
  return remote;
}

import type { Remote } from 'comlink';
import { wrap } from 'comlink';
import type { BillSearchApi } from './bill-search-service.ts';
import { workerName } from '../local-store/account-databases.ts';

// The page's handle on the search worker, started on first use (the Tracked tab) and kept for
// the life of the page, so the index is built once and then only kept current.

let remote: Remote<BillSearchApi> | null = null;

export function billSearch(): Remote<BillSearchApi> {
  if (remote === null) {
    const worker = new Worker(new URL('./bill-search-worker.ts', import.meta.url), {
      type: 'module',
      name: workerName('docket-search'),
    });
    remote = wrap<BillSearchApi>(worker);
  }
  return remote;
}

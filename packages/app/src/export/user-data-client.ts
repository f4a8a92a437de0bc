import type { Remote } from 'comlink';
import { wrap } from 'comlink';
import type { UserDataApi } from './user-data-runner.ts';

// The page's handle on the export/import worker, started on first use.

let remote: Remote<UserDataApi> | null = null;

export function userDataWorker(): Remote<UserDataApi> {
  if (remote === null) {
    const worker = new Worker(new URL('./user-data-worker.ts', import.meta.url), {
      type: 'module',
      name: 'docket-user-data',
    });
    remote = wrap<UserDataApi>(worker);
  }
  return remote;
}

import type { Remote } from 'comlink';
import { wrap } from 'comlink';
import type { BackupsApi } from './backup-runner.ts';
import type { UserDataApi } from './user-data-runner.ts';
import { workerName } from '../local-store/account-databases.ts';

// The page's handle on the user-data worker (exports, imports, backups and restores), started on
// first use.

export type UserDataWorkerApi = UserDataApi & BackupsApi;

let remote: Remote<UserDataWorkerApi> | null = null;

export function userDataWorker(): Remote<UserDataWorkerApi> {
  if (remote === null) {
    const worker = new Worker(new URL('./user-data-worker.ts', import.meta.url), {
      type: 'module',
      name: workerName('docket-user-data'),
    });
    remote = wrap<UserDataWorkerApi>(worker);
  }
  return remote;
}

import { wrap, type Remote } from 'comlink';
import type { FullBackupApi } from './full-backup-runner.ts';
import { workerName } from '../local-store/account-databases.ts';

// The page's handle on the full-backup worker, started on first use.

let remote: Remote<FullBackupApi> | null = null;

export function fullBackups(): Remote<FullBackupApi> {
  remote ??= wrap<FullBackupApi>(
    new Worker(new URL('./full-backup-worker.ts', import.meta.url), {
      type: 'module',
      name: workerName('docket-full-backups'),
    }),
  );
  return remote;
}

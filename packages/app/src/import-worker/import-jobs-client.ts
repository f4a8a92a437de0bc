import type { Remote } from 'comlink';
import { wrap } from 'comlink';
import type { ImportRunnerApi } from './import-runner.ts';

// The page's handle on the import worker. The worker is started on first use (the datasets and
// jobs screens use it); starting it also marks jobs a closed tab left behind as interrupted.

let remote: Remote<ImportRunnerApi> | null = null;

export function importJobs(): Remote<ImportRunnerApi> {
  if (remote === null) {
    const worker = new Worker(new URL('./import-worker.ts', import.meta.url), {
      type: 'module',
      name: 'docket-imports',
    });
    remote = wrap<ImportRunnerApi>(worker);
  }
  return remote;
}

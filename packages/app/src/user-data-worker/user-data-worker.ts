import type { BillCommandContext } from '@docket/core/commands';
import { expose } from 'comlink';
import { createBackupRunner } from './backup-runner.ts';
import { commandContextOn } from '../bills/bill-command-services.ts';
import { openIndexedDbLocalStore } from '../local-store/indexeddb-local-store.ts';
import type { UserDataWorkerApi } from './user-data-client.ts';
import { createUserDataRunner } from './user-data-runner.ts';

// The export/import worker, which also makes, opens and restores backups: its own connection to
// the device's database, opened on first use (a signed-out viewer opening a shared link never
// needs it). Its writes reach the page's live queries through Dexie's change notifications,
// like the import worker's. Its commands' context is made as the page's is, so a restore's
// outbox entries carry this device's id and clock.

let context: Promise<BillCommandContext> | null = null;

function commandContext(): Promise<BillCommandContext> {
  context ??= openIndexedDbLocalStore()
    .then(commandContextOn)
    .catch((error: unknown) => {
      context = null;
      throw error;
    });
  return context;
}

const api: UserDataWorkerApi = {
  ...createUserDataRunner(commandContext),
  ...createBackupRunner(commandContext),
};
expose(api);

import { randomIdSource, type BillCommandContext } from '@docket/core/bill-command-context';
import { ensureDeviceId } from '@docket/core/device-identity';
import { expose } from 'comlink';
import { openIndexedDbLocalStore } from '../local-store/indexeddb-local-store.ts';
import { createUserDataRunner } from './user-data-runner.ts';

// The export/import worker: its own connection to the device's database. Its writes reach the
// page's live queries through Dexie's change notifications, like the import worker's.

let context: Promise<BillCommandContext> | null = null;

function commandContext(): Promise<BillCommandContext> {
  context ??= (async () => {
    const store = await openIndexedDbLocalStore();
    const newId = randomIdSource((bytes) => crypto.getRandomValues(bytes));
    const deviceId = await ensureDeviceId(store, newId);
    return { store, deviceId, now: () => Date.now(), newId };
  })().catch((error: unknown) => {
    context = null;
    throw error;
  });
  return context;
}

expose(createUserDataRunner(commandContext));

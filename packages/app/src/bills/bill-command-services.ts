import { randomIdSource, type BillCommandContext } from '@docket/core/commands';
import { ensureDeviceId } from '@docket/core/device';
import type { LocalStore } from '@docket/core/store';
import { openIndexedDbLocalStore } from '../local-store/indexeddb-local-store.ts';
import { ReadOnlySpaceError, spaceIsReadOnly } from '../local-store/space-role.ts';

// What the bill screens (deck, tracked list, details, tags, annotations) run core's commands
// with: the page's own connection to the device's database, this device's id, the wall clock and
// random ids. Opened once per page, on first use; screens read through live queries
// (local-store/) and write only through commands given this context.

let store: Promise<LocalStore> | null = null;
let context: Promise<BillCommandContext> | null = null;

const fillRandom = (bytes: Uint8Array<ArrayBuffer>) => {
  crypto.getRandomValues(bytes);
};

/** The page's write connection to the device's database. */
export function pageLocalStore(): Promise<LocalStore> {
  store ??= openIndexedDbLocalStore().catch((error: unknown) => {
    // A later call tries again (say, after another tab finished an upgrade).
    store = null;
    throw error;
  });
  return store;
}

/**
 * The context commands run with on a connection to the device's database: this device's id (its
 * `device:id` setting), the wall clock and random ids. The page's and the user-data worker's
 * alike, so both write outbox entries as this device, on the clock kept in the store.
 */
export async function commandContextOn(local: LocalStore): Promise<BillCommandContext> {
  const newId = randomIdSource(fillRandom);
  const deviceId = await ensureDeviceId(local, newId);
  return { store: local, deviceId, now: () => Date.now(), newId };
}

/** The context every bill command is given on this page. */
export function billCommandContext(): Promise<BillCommandContext> {
  context ??= (async () => commandContextOn(await pageLocalStore()))().catch((error: unknown) => {
    context = null;
    throw error;
  });
  return context;
}

/**
 * The context of a command that changes a bill, a tag or a note: refused in a team workspace
 * where the account is a viewer (space-role.ts), whose screens offer no such command to begin
 * with. Sync, seen marks and this device's own settings take `billCommandContext`.
 */
export function editCommandContext(): Promise<BillCommandContext> {
  if (spaceIsReadOnly()) return Promise.reject(new ReadOnlySpaceError());
  return billCommandContext();
}

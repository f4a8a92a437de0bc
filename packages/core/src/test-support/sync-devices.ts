import type { LocalRows, LocalStore } from '../store/local-store.ts';
import { datasetLocalFields, syncedTables, type SyncedTable } from '../store/local-records.ts';
import { runSync, type SyncRunOptions, type SyncRunReport } from '../sync/sync-engine.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';
import { storeWithBills, testContext, type TestContext } from './bill-command-harness.ts';
import { testTransport, type Delivery, type TestSyncLog } from './sync-log-server.ts';

// Devices of one user for the sync engine's tests: each a memory store holding the same bills,
// a command context with its own device id and a clock the test moves, and a way to sync with a
// shared test log.

export const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;
export const USER = 'user-1';

/** A data key as a device keeps it: non-extractable. */
export function newDataKey(): Promise<OpaqueCryptoKey> {
  return webCrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

export interface TestDevice {
  readonly id: string;
  readonly store: LocalStore;
  readonly context: TestContext;
  sync(
    options?: Partial<Pick<SyncRunOptions, 'limits' | 'onProgress'>> & {
      delivery?: () => Delivery;
      /** After a reset: the new key and where its epoch starts. */
      dataKey?: OpaqueCryptoKey;
      epochStartSeqno?: number;
    },
  ): Promise<SyncRunReport>;
}

export async function testDevice(
  id: string,
  log: TestSyncLog,
  dataKey: OpaqueCryptoKey,
  bills = 5,
): Promise<TestDevice> {
  const { store } = await storeWithBills(bills);
  const context = testContext(store, id);
  return {
    id,
    store,
    context,
    sync: (options = {}) =>
      runSync({
        store,
        transport: testTransport(log, options.delivery),
        crypto: webCrypto,
        session: {
          userId: USER,
          deviceId: id,
          epoch: log.keyEpoch,
          dataKey: options.dataKey ?? dataKey,
          epochStartSeqno: options.epochStartSeqno ?? 0,
        },
        now: () => context.now(),
        ...(options.limits === undefined ? {} : { limits: options.limits }),
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      }),
  };
}

export type SyncedRows = { [N in SyncedTable]: LocalRows[N][] };

/** What the user made on a device: the synced tables, in key order. */
export function syncedRowsOf(store: LocalStore): Promise<SyncedRows> {
  return store.read(syncedTables, async (tx) => ({
    // A dataset's import state is each device's own; what converges is its definition.
    datasets: (await tx.all('datasets')).map((row) => {
      const copy: Record<string, unknown> = { ...row };
      for (const name of datasetLocalFields) copy[name] = null;
      return copy as unknown as LocalRows['datasets'];
    }),
    tags: await tx.all('tags'),
    billTags: await tx.all('billTags'),
    positions: await tx.all('positions'),
    decisions: await tx.all('decisions'),
    annotations: await tx.all('annotations'),
    seenMarks: await tx.all('seenMarks'),
    apiKeys: await tx.all('apiKeys'),
    // Whether an overwrite is unseen is each device's own.
    billHistory: (await tx.all('billHistory')).map(({ unseen: _unseen, ...row }) => row),
  }));
}

import type { ImportFile } from '../importers/bill-import-record.ts';
import { fnv1a64Hex } from '../bills/canonical-hash.ts';
import { loadStoredDatasetFiles, saveDatasetAndQueueImport } from '../commands/dataset-commands.ts';
import type { RunImportJobOptions } from '../import-jobs/dataset-import-job.ts';
import { runImportJob } from '../import-jobs/dataset-import-job.ts';
import type { Job } from '../store/local-records.ts';
import type {
  LocalRows,
  LocalStore,
  LocalWriteTransaction,
  TableName,
} from '../store/local-store.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';

// Shared by the import job and dataset command tests: small Docket CSV datasets built in code
// (so a test can change one bill and see it counted as updated), a clock, and a store that
// "crashes" the way a closed tab does.

export interface CsvBill {
  identifier: string;
  title: string;
  status?: string;
  jurisdiction?: string;
  session?: string;
}

function cell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A Docket CSV with the few columns these tests vary. A blank title makes a bad record. */
export function csvFile(name: string, bills: readonly CsvBill[]): ImportFile {
  const lines = ['jurisdiction,session,identifier,title,status'];
  for (const bill of bills) {
    lines.push(
      [
        bill.jurisdiction ?? 'us-ca',
        bill.session ?? '2023',
        bill.identifier,
        bill.title,
        bill.status ?? 'introduced',
      ]
        .map(cell)
        .join(','),
    );
  }
  return { name, bytes: encodeUtf8(`${lines.join('\n')}\n`) };
}

/** `count` bills AB 1 … AB count, titled so each is different. */
export function numberedBills(count: number, titlePrefix = 'Act'): CsvBill[] {
  return Array.from({ length: count }, (_, index) => ({
    identifier: `AB ${index + 1}`,
    title: `${titlePrefix} number ${index + 1}`,
  }));
}

export function testClock(): () => string {
  let tick = 0;
  return () => {
    tick++;
    return new Date(Date.UTC(2025, 0, 1, 0, 0, tick)).toISOString();
  };
}

export function idMaker(prefix: string): () => string {
  let next = 0;
  return () => {
    next++;
    return `${prefix}-${String(next).padStart(4, '0')}`;
  };
}

/** Saves a files dataset and queues its import; returns the job id. */
export async function queueFilesImport(
  store: LocalStore,
  options: {
    datasetId: string;
    jobId: string;
    files: readonly ImportFile[];
    now: string;
    name?: string;
    jurisdiction?: string | null;
    session?: string | null;
  },
): Promise<string> {
  const { job } = await saveDatasetAndQueueImport(store, {
    deviceId: 'device-a',
    datasetId: options.datasetId,
    name: options.name ?? `Dataset ${options.datasetId}`,
    jurisdiction: options.jurisdiction ?? null,
    session: options.session ?? null,
    source: {
      kind: 'files',
      files: options.files.map((file) => ({
        id: fnv1a64Hex(file.bytes),
        name: file.name,
        bytes: new Uint8Array(file.bytes),
      })),
    },
    jobId: options.jobId,
    now: options.now,
  });
  return job.id;
}

export function runStoredImport(
  store: LocalStore,
  jobId: string,
  now: () => string,
  extra: Partial<RunImportJobOptions> = {},
): Promise<Job> {
  return runImportJob({
    store,
    jobId,
    now,
    loadInput: (dataset) => loadStoredDatasetFiles(store, dataset),
    ...extra,
  });
}

export async function allRows<N extends TableName>(
  store: LocalStore,
  table: N,
): Promise<LocalRows[N][]> {
  return store.read([table], (tx) => tx.all(table));
}

export interface WriteCall {
  /** 1 for the first write transaction, and so on. */
  transaction: number;
  tables: readonly TableName[];
  table: TableName;
  method: 'put' | 'putMany' | 'delete' | 'deleteMany';
}

/**
 * A store that dies like a closed tab: when `crashOn` says so, the write call throws inside its
 * transaction (so the transaction rolls back, as IndexedDB aborts an unfinished one) and every
 * later call fails. `inner` is the device's storage that survives for the next start.
 */
export function crashingStore(
  inner: LocalStore,
  crashOn: (call: WriteCall) => boolean,
): LocalStore & { readonly crashed: boolean } {
  let dead = false;
  let transactions = 0;
  const deadError = () => new Error('the tab is gone');
  const wrap = (
    tx: LocalWriteTransaction,
    transaction: number,
    tables: readonly TableName[],
  ): LocalWriteTransaction => {
    const check = (table: TableName, method: WriteCall['method']) => {
      if (dead) throw deadError();
      if (crashOn({ transaction, tables, table, method })) {
        dead = true;
        throw new Error('simulated crash');
      }
    };
    return {
      ...tx,
      put: async (table, row) => {
        check(table, 'put');
        await tx.put(table, row);
      },
      putMany: async (table, rows) => {
        check(table, 'putMany');
        await tx.putMany(table, rows);
      },
      delete: async (table, key) => {
        check(table, 'delete');
        await tx.delete(table, key);
      },
      deleteMany: async (table, keys) => {
        check(table, 'deleteMany');
        await tx.deleteMany(table, keys);
      },
    };
  };
  return {
    get crashed() {
      return dead;
    },
    read: (tables, body) => (dead ? Promise.reject(deadError()) : inner.read(tables, body)),
    write: (tables, body) => {
      if (dead) return Promise.reject(deadError());
      transactions++;
      const transaction = transactions;
      return inner.write(tables, (tx) => body(wrap(tx, transaction, tables)));
    },
    close: () => {
      inner.close();
    },
  };
}

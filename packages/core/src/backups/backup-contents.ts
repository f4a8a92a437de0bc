import { z } from 'zod';
import { isEncodedHlc } from '../merge/hybrid-logical-clock.ts';
import {
  annotationSchema,
  billTagSchema,
  datasetSchema,
  decisionSchema,
  positionSchema,
  storedBillSchema,
  tagSchema,
  type Annotation,
  type BillTag,
  type Dataset,
  type Decision,
  type Position,
  type StoredBill,
  type Tag,
  userWorkTables,
} from '../store/local-records.ts';
import { withoutDerivedFields } from '../store/derived-writes.ts';
import type { LocalReadTransaction, LocalStore, TableName } from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';
import { syncStateId, ZERO_CLOCK } from '../merge/sync-merge.ts';

// What a server-stored backup (and a public link made from one) holds: the user's own work —
// tags, bill tags, positions, decisions, annotations, dataset definitions — and the bills those
// rows refer to, so a backup previews and restores on a device that never imported them.
//
// Format, version 1 (JSON, gzipped and sealed by backup-crypto.ts):
//
//   { format: "docket-backup", version: 1, createdAt,
//     tags, billTags, positions, decisions, annotations,
//     datasets:  dataset definitions without this device's import state (datasetLocalFields)
//                and without where their files are on the server (`blobs`: that belongs to
//                the account and epoch that uploaded them, not to the snapshot),
//     bills:     the bills referred to, with the datasets that held them (a restore keeps
//                only those that exist after it; a public link carries none),
//     clocks:    per row (`${table}|${rowId}`), the clock sync knew for each field when the
//                backup was made, so a Merge can keep the newer value field by field }
//
// Everything that comes back in is checked as hostile: every row against its table's schema,
// references between rows, sizes and counts. A backup that fails any check is refused whole.

export const BACKUP_FORMAT = 'docket-backup';
export const BACKUP_VERSION = 1;

/** The kinds of rows a backup holds, in the order they are restored (referred-to first). */
export const backupKinds = ['datasets', ...userWorkTables] as const;
export type BackupKind = (typeof backupKinds)[number];

/** Most rows of one kind in one backup; far above a real user's, far below a memory bomb. */
export const MAX_BACKUP_ROWS = 200_000;

/** A dataset as a backup carries it: the definition only. */
export const backupDatasetSchema = datasetSchema.omit({
  format: true,
  billCount: true,
  lastImportAt: true,
  lastJobId: true,
  state: true,
  needsImport: true,
  filesUnavailable: true,
  blobs: true,
});
export type BackupDataset = z.infer<typeof backupDatasetSchema>;

const clockSchema = z.string().refine((value) => value === ZERO_CLOCK || isEncodedHlc(value), {
  message: 'must be a clock timestamp',
});

const rows = <T extends z.ZodType>(schema: T) => z.array(schema).max(MAX_BACKUP_ROWS);

export const backupContentsSchema = z.strictObject({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  createdAt: z.iso.datetime({ offset: true }),
  datasets: rows(backupDatasetSchema),
  tags: rows(tagSchema),
  billTags: rows(billTagSchema),
  positions: rows(positionSchema),
  decisions: rows(decisionSchema),
  annotations: rows(annotationSchema),
  bills: rows(storedBillSchema),
  clocks: z
    .record(
      z.string().max(500),
      z.record(z.string().regex(/^[a-z][A-Za-z0-9]{0,63}$/), clockSchema),
    )
    .refine((value) => Object.keys(value).length <= MAX_BACKUP_ROWS * 6, {
      message: 'too many clocks',
    }),
});
export type BackupContents = z.infer<typeof backupContentsSchema>;

/** The rows of one kind, typed. */
export interface BackupRows {
  datasets: BackupDataset;
  tags: Tag;
  billTags: BillTag;
  positions: Position;
  decisions: Decision;
  annotations: Annotation;
}

/** How much of each kind a backup holds: shown in the list (sealed in the metadata) and preview. */
export interface BackupCounts {
  readonly bills: number;
  readonly datasets: number;
  readonly tags: number;
  readonly billTags: number;
  readonly positions: number;
  readonly decisions: number;
  readonly annotations: number;
}

export const backupCountsSchema = z.strictObject({
  bills: z.number().int().nonnegative(),
  datasets: z.number().int().nonnegative(),
  tags: z.number().int().nonnegative(),
  billTags: z.number().int().nonnegative(),
  positions: z.number().int().nonnegative(),
  decisions: z.number().int().nonnegative(),
  annotations: z.number().int().nonnegative(),
});

export function countBackup(contents: BackupContents): BackupCounts {
  return {
    bills: contents.bills.length,
    datasets: contents.datasets.length,
    tags: contents.tags.length,
    billTags: contents.billTags.length,
    positions: contents.positions.length,
    decisions: contents.decisions.length,
    annotations: contents.annotations.length,
  };
}

/** The key field of each kind (the store's). */
export function keyOfRow(kind: BackupKind, row: object): string {
  const key = (row as Record<string, unknown>)[localTables[kind].key];
  if (typeof key !== 'string') throw new Error(`${kind}: a row without its key`);
  return key;
}

/** The definition part of a stored dataset. */
export function datasetDefinition(dataset: Dataset): BackupDataset {
  // The schema leaves out this device's import state and the server addresses of the files.
  return backupDatasetSchema.parse(dataset);
}

export const backupReadTables = [
  'bills',
  ...backupKinds,
  'syncState',
] as const satisfies readonly TableName[];

/**
 * Reads the user's work and the bills it refers to, in one read transaction.
 *
 * With `only`, a backup of a list (the Tracked tab's "Share"): exactly those bills, in that
 * order, whether or not the user's work refers to them, with the user's rows about them, the
 * tags they carry and the datasets that hold them; nothing about any other bill.
 */
export async function buildBackupContents(
  store: LocalStore,
  createdAt: string,
  only?: { readonly billIds: readonly string[] },
): Promise<BackupContents> {
  const listed = only === undefined ? null : new Set(only.billIds);
  const about = <Row extends { readonly billId: string }>(rows: Row[]): Row[] =>
    listed === null ? rows : rows.filter((row) => listed.has(row.billId));
  return store.read(backupReadTables, async (tx) => {
    const billTags = about(await tx.all('billTags'));
    const positions = about(await tx.all('positions'));
    const decisions = about(await tx.all('decisions'));
    const annotations = about(await tx.all('annotations'));
    const billIds =
      listed === null
        ? [
            ...new Set([
              ...billTags.map((row) => row.billId),
              ...positions.map((row) => row.billId),
              ...decisions.map((row) => row.billId),
              ...annotations.map((row) => row.billId),
            ]),
          ].sort()
        : [...listed];
    // Without the keys the store derives (they name the datasets, which a link leaves out).
    const bills = (await tx.getMany('bills', billIds))
      .filter((bill): bill is StoredBill => bill !== undefined)
      .map(withoutDerivedFields);
    const tagIds = new Set(billTags.map((row) => row.tagId));
    const tags = (await tx.all('tags')).filter((tag) => listed === null || tagIds.has(tag.id));
    const datasetIds = new Set(bills.flatMap((bill) => bill.datasetIds));
    const datasets = (await tx.all('datasets'))
      .filter((dataset) => listed === null || datasetIds.has(dataset.id))
      .map(datasetDefinition);
    const rows = { datasets, tags, billTags, positions, decisions, annotations };
    const clocks = await readClocks(tx, rows);
    return {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt,
      ...rows,
      bills,
      clocks,
    };
  });
}

async function readClocks(
  tx: LocalReadTransaction,
  byKind: { [K in BackupKind]: readonly BackupRows[K][] },
): Promise<BackupContents['clocks']> {
  const clocks: BackupContents['clocks'] = {};
  for (const kind of backupKinds) {
    const ids = byKind[kind].map((row) => syncStateId(kind, keyOfRow(kind, row)));
    const states = await tx.getMany('syncState', ids);
    states.forEach((state, index) => {
      const id = ids[index];
      if (state === undefined || id === undefined) return;
      const fields: Record<string, string> = {};
      for (const [name, field] of Object.entries(state.fields)) {
        if (field.hlc !== ZERO_CLOCK) fields[name] = field.hlc;
      }
      if (Object.keys(fields).length > 0) clocks[id] = fields;
    });
  }
  return clocks;
}

/** A backup that cannot be used, with a message for the user. */
export class BackupContentsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupContentsError';
  }
}

/**
 * Checks decrypted contents: the format, every row, keys held once, and bill tags referring to
 * tags the backup holds. A row may refer to a bill the backup lacks (the device that made it no
 * longer had the bill, as sync allows); it is restored all the same. Throws BackupContentsError
 * naming the first problem.
 */
export function parseBackupContents(value: unknown): BackupContents {
  const format = (value as { format?: unknown; version?: unknown } | null) ?? {};
  if (typeof value !== 'object' || format.format !== BACKUP_FORMAT) {
    throw new BackupContentsError('This is not a Docket backup.');
  }
  if (typeof format.version === 'number' && format.version > BACKUP_VERSION) {
    throw new BackupContentsError(
      'This backup was made by a newer version of Docket. Update the app to open it.',
    );
  }
  const parsed = backupContentsSchema.safeParse(value);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const where = issue === undefined ? '' : ` (${issue.path.map(String).join('.')})`;
    throw new BackupContentsError(`This backup is damaged: a record is not valid${where}.`);
  }
  const contents = parsed.data;
  const billIds = new Set(contents.bills.map((bill) => bill.id));
  const tagIds = new Set(contents.tags.map((tag) => tag.id));
  const unique = (kind: BackupKind) => {
    const keys = contents[kind].map((row) => keyOfRow(kind, row));
    if (new Set(keys).size !== keys.length) {
      throw new BackupContentsError(`This backup is damaged: it holds a ${kind} row twice.`);
    }
  };
  for (const kind of backupKinds) unique(kind);
  if (new Set(billIds).size !== contents.bills.length) {
    throw new BackupContentsError('This backup is damaged: it holds a bill twice.');
  }
  for (const row of contents.billTags) {
    if (row.id !== `${row.billId}|${row.tagId}` || !tagIds.has(row.tagId)) {
      throw new BackupContentsError('This backup is damaged: a bill is tagged with a missing tag.');
    }
  }
  return contents;
}

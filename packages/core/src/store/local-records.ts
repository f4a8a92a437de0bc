import { z } from 'zod';
import { billSchema } from '../bills/bill.ts';
import { filesUnavailableSchema } from './dataset-files-unavailable.ts';
import { billLabelSchema } from './bill-label.ts';
import { storedMemberSchema } from './stored-member.ts';
import type { LocalRows, TableName } from './local-store.ts';

// The rows of every table of the device's local store. Each schema is the gate a row passes
// when it enters from outside (a backup, a sync message, an old database version); inside, the
// inferred types are trusted. Fields later issues need are added here, with a new store version.

const isoTimestamp = z.string().min(1);
const rowId = z.string().min(1).max(200);

/** A bill as stored: the normalized record plus the datasets that currently provide it. */
export const storedBillSchema = z.object({
  ...billSchema.shape,
  datasetIds: z.array(rowId),
  /**
   * The bill's keys in the deck's recent order (billDeckOrderKeys), which one multiEntry index
   * holds; they depend on the bill's decision (none while it is tracked or dismissed), so the
   * deck never walks past the bills a user has decided. Derived: every store sets them on each
   * bill it writes and again when the bill's decision is written or removed (withDerivedFields,
   * derived-writes.ts), so no writer has to; absent in rows that never passed through a store (a
   * backup's, an import's).
   */
  deckKeys: z.array(z.string().max(1_000)).max(1_000).optional(),
});
export type StoredBill = z.infer<typeof storedBillSchema>;

export const datasetStates = ['new', 'importing', 'ready', 'failed'] as const;

const blobAddress = z.string().regex(/^[0-9a-f]{64}$/);
/** One dataset file as stored on the server for the user's other devices. */
export const datasetFileBlobSchema = z.object({
  /** The file's id: the SHA-256 of its plaintext bytes. */
  fileId: z.string().regex(/^[0-9a-f]{64}$/),
  name: z.string().min(1).max(1000),
  size: z.number().int().nonnegative(),
  /** The key epoch the parts were sealed under. */
  epoch: z.number().int().nonnegative(),
  /**
   * The addresses (SHA-256 of the ciphertext) of the file's encrypted parts, in order; for a
   * file in a pack, the pack's one address.
   */
  parts: z.array(blobAddress).min(1).max(1000),
  /**
   * Present when the file travels in a pack with other small files: where its bytes start in
   * the pack's plaintext (its `size` says how many). Absent for a file sealed alone in parts.
   */
  packOffset: z.number().int().nonnegative().optional(),
});
export type DatasetFileBlob = z.infer<typeof datasetFileBlobSchema>;
export const datasetSchema = z.object({
  id: rowId,
  name: z.string().min(1).max(200),
  /**
   * Where the bills come from: files kept on the device (datasetFiles), a URL, or LegiScan's API
   * (a state's session, by LegiScan's `session_id`, read with the user's key: sources/).
   */
  origin: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('files'), fileIds: z.array(rowId).max(10_000) }),
    z.object({ kind: z.literal('url'), url: z.url() }),
    z.object({
      kind: z.literal('legiscan'),
      state: z.string().regex(/^[A-Z]{2}$/),
      sessionId: z.number().int().positive().max(1_000_000_000),
    }),
    /** Open States API v3: a jurisdiction (name, abbreviation or ocd id) and a session. */
    z.object({
      kind: z.literal('openstates'),
      jurisdiction: z.string().min(1).max(200),
      session: z.string().min(1).max(100),
    }),
    /** GovInfo's bulk data: one Congress's BILLSTATUS files of one bill type (hr, s, …). */
    z.object({
      kind: z.literal('govinfo'),
      congress: z.number().int().min(93).max(200),
      billType: z.string().regex(/^[a-z]{1,7}$/),
    }),
    /** The congress.gov API v3: one Congress's bills of one type, read with the user's key. */
    z.object({
      kind: z.literal('congress'),
      congress: z.number().int().min(93).max(200),
      billType: z.string().regex(/^[a-z]{1,7}$/),
    }),
  ]),
  jurisdiction: z.string().nullable(),
  session: z.string().nullable(),
  /** The detected format of the last import, null before the first. */
  format: z.string().nullable(),
  billCount: z.number().int().nonnegative(),
  lastImportAt: isoTimestamp.nullable(),
  lastJobId: rowId.nullable(),
  state: z.enum(datasetStates),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  /**
   * Where the files are on the server for the user's other devices: per file, the encrypted
   * parts (content-addressed blobs) under the key epoch that sealed them (sync-dataset-files.ts).
   * Absent until this device's sync uploaded them.
   */
  blobs: z.array(datasetFileBlobSchema).max(10_000).optional(),
  /**
   * Set on this device when sync brought a definition (new, or with other files, URL or
   * override) whose bills are not yet imported here; the import it starts clears it. Local.
   */
  needsImport: z.boolean().optional(),
  /** Why files it lacks here cannot come (sync-dataset-files-unavailable.ts). Local. */
  filesUnavailable: filesUnavailableSchema.optional(),
  /**
   * The URL's validators as this device last imported it (ETag, Last-Modified), sent back on the
   * next refresh so an unchanged source answers 304 and costs one request. Local.
   */
  sourceEtag: z.string().max(1000).optional(),
  sourceLastModified: z.string().max(200).optional(),
  /**
   * An API source's own version of what this device last imported (LegiScan's `dataset_hash`, the
   * hash of GovInfo's bulk data listing):
   * a refresh that finds the same one ends "No changes" after one request. Local.
   */
  sourceHash: z.string().max(200).optional(),
  /**
   * When the last import of an API that lists what changed since a time (Open States'
   * `updated_since`, congress.gov's `fromDateTime`) asked, or the newest time of GovInfo's listing
   * it read, so the next refresh reads only the bills updated since. Local.
   */
  sourceUpdatedSince: isoTimestamp.max(40).optional(),
});
export type Dataset = z.infer<typeof datasetSchema>;

/** Fields of a dataset that describe this device's import of it, never synced. */
export const datasetLocalFields = [
  'format',
  'billCount',
  'lastImportAt',
  'lastJobId',
  'state',
  'needsImport',
  'filesUnavailable',
  'sourceEtag',
  'sourceLastModified',
  'sourceHash',
  'sourceUpdatedSince',
] as const satisfies readonly (keyof Dataset)[];

/** A file of a dataset, kept so a re-import or another device can rebuild the bills. */
export const datasetFileSchema = z.object({
  /** Content address (hash of the bytes), so the same file is stored and uploaded once. */
  id: rowId,
  datasetId: rowId,
  name: z.string().min(1).max(1000),
  size: z.number().int().nonnegative(),
  bytes: z.instanceof(Uint8Array),
  addedAt: isoTimestamp,
});
export type DatasetFile = z.infer<typeof datasetFileSchema>;

export const jobStatuses = [
  'queued',
  'running',
  'done',
  'failed',
  'cancelled',
  'interrupted',
] as const;
export type JobStatus = (typeof jobStatuses)[number];
/** Every kind of long work the device does with progress (the jobs screen lists them all). */
export const jobKinds = [
  'import',
  'export',
  'full-backup',
  'full-backup-restore',
  'backup',
  'restore',
] as const;
export type JobKind = (typeof jobKinds)[number];
export const jobSchema = z.object({
  id: rowId,
  kind: z.enum(jobKinds),
  /** What the job works on, e.g. the dataset id of an import or the id of a backup. */
  subjectId: rowId,
  /** What the job works on as people name it, for kinds whose subject is not a dataset. */
  label: z.string().max(300).optional(),
  /** 'sync': an import sync asked for, not this device's user; cut off, it is queued again. */
  queuedBy: z.literal('sync').optional(),
  status: z.enum(jobStatuses),
  createdAt: isoTimestamp,
  startedAt: isoTimestamp.nullable(),
  finishedAt: isoTimestamp.nullable(),
  progress: z.object({
    recordsRead: z.number().int().nonnegative(),
    written: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    /** Records expected in all, when known. */
    total: z.number().int().nonnegative().nullable(),
  }),
  result: z
    .object({
      added: z.number().int().nonnegative(),
      updated: z.number().int().nonnegative(),
      unchanged: z.number().int().nonnegative(),
      removed: z.number().int().nonnegative(),
      /** Files read that brought nothing to any bill (a README, a text of a bill not
       *  imported), the first 100 with why; absent when every file was used. */
      notUsed: z.array(z.object({ file: z.string(), reason: z.string() })).optional(),
      /** How many files were not used in all. */
      notUsedCount: z.number().int().nonnegative().optional(),
      /** Bills the dataset already provided in which something worth telling changed
       *  (billChanges); absent on jobs from before it was counted. */
      changed: z.number().int().nonnegative().optional(),
      /** The source said it had not changed (a refresh's 304): nothing was read or written. */
      sourceUnchanged: z.boolean().optional(),
    })
    .nullable(),
  errors: z.array(z.object({ record: z.string().nullable(), reason: z.string() })),
  message: z.string().nullable(),
});
export type Job = z.infer<typeof jobSchema>;

/**
 * Work in progress of an import job, keyed by job id: its undo journal (dataset-import-journal.ts)
 * says what the job wrote into `bills` and how to take it back if the job does not finish; the one
 * checkpoint row says how far reading got and from which input, so a job cut off by a reload
 * resumes where it stopped instead of starting over. `bill` and `chunk` rows are how older
 * versions staged bills before writing them; they are only ever cleared now.
 */
export const importStagingSchema = z.discriminatedUnion('kind', [
  z.object({
    /** `${jobId}|bill|${billId}`: how jobs staged bills before chunks; now only ever cleared. */
    id: z.string().min(1).max(500),
    jobId: rowId,
    kind: z.literal('bill'),
    bill: billSchema,
  }),
  z.object({
    /** `${jobId}|chunk|${sequence, eight digits}`: how jobs staged bills before the journal. */
    id: z.string().min(1).max(500),
    jobId: rowId,
    kind: z.literal('chunk'),
    /** The chunk's bills (Bill[]) as JSON text: IndexedDB stores and reads back one string
     *  several times faster than the same bills as objects. */
    bills: z.string(),
  }),
  z.object({
    /** `${jobId}|before`: the dataset's bills when the import began, as JSON text of
     *  [bill id, change hash] pairs (dataset-import-journal.ts). */
    id: z.string().min(1).max(500),
    jobId: rowId,
    kind: z.literal('before'),
    bills: z.string(),
  }),
  z.object({
    /** `${jobId}|undo|${sequence, eight digits}`: one chunk written into `bills` and how to undo
     *  it, each field JSON text: the ids it added, the rows it replaced as they were, and
     *  [bill id, change hash] for every bill of the chunk as it left them. */
    id: z.string().min(1).max(500),
    jobId: rowId,
    kind: z.literal('undo'),
    added: z.string(),
    prior: z.string(),
    written: z.string(),
  }),
  z.object({
    /** `${jobId}|changes|${sequence, eight digits}`: what the chunk of that sequence changed in
     *  bills the dataset already provided, as JSON text of [bill id, BillChangeItem[]] pairs;
     *  the finish turns them into `billChanges` rows (changes/bill-changes.ts). */
    id: z.string().min(1).max(500),
    jobId: rowId,
    kind: z.literal('changes'),
    changes: z.string(),
  }),
  z.object({
    /** `${jobId}|checkpoint` */
    id: z.string().min(1).max(500),
    jobId: rowId,
    kind: z.literal('checkpoint'),
    /** Identifies the input (files and overrides); a resume with other input starts over. */
    fingerprint: z.string().min(1).max(1000),
    /** Records of the input already staged; a resume skips this many. */
    recordsConsumed: z.number().int().nonnegative(),
    /** Every error so far, though the job row keeps only the first ones. */
    errorCount: z.number().int().nonnegative(),
  }),
]);
export type ImportStagingRow = z.infer<typeof importStagingSchema>;

export const tagSchema = z.object({
  id: rowId,
  name: z.string().min(1).max(100),
  color: z.string().regex(/^#[0-9a-f]{6}$/i),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type Tag = z.infer<typeof tagSchema>;

export const billTagSchema = z.object({
  /** `${billId}|${tagId}`: a bill carries a tag at most once. */
  id: rowId,
  billId: rowId,
  tagId: rowId,
  createdAt: isoTimestamp,
  billLabel: billLabelSchema.optional(),
});
export type BillTag = z.infer<typeof billTagSchema>;

export const positions = ['support', 'oppose', 'watch', 'none'] as const;
/** The longest reason ("Why") a position keeps: a few paragraphs, not a memo. */
export const POSITION_REASON_MAX = 2_000;
export const positionSchema = z.object({
  billId: rowId,
  position: z.enum(positions),
  /**
   * Why the user holds the position, in their words; '' once cleared. Optional: rows, backups
   * and exports from before it existed have none. It syncs as a field of its own, so it and the
   * position each keep their newest value (per-field last-writer-wins, sync-merge.ts).
   */
  reason: z
    .string()
    .max(POSITION_REASON_MAX, {
      message: `a reason is at most ${POSITION_REASON_MAX.toLocaleString('en-US')} characters`,
    })
    .optional(),
  updatedAt: isoTimestamp,
  billLabel: billLabelSchema.optional(),
});
export type Position = z.infer<typeof positionSchema>;

export const decisions = ['track', 'dismiss', 'later'] as const;
export const decisionSchema = z.object({
  billId: rowId,
  decision: z.enum(decisions),
  decidedAt: isoTimestamp,
  billLabel: billLabelSchema.optional(),
});
export type Decision = z.infer<typeof decisionSchema>;

export const annotationSchema = z.object({
  id: rowId,
  billId: rowId,
  /** W3C Web Annotation selectors: the quote with its context, and its position. */
  quote: z.object({ exact: z.string(), prefix: z.string(), suffix: z.string() }),
  position: z.object({ start: z.number().int().nonnegative(), end: z.number().int() }),
  /** Which text of the bill is annotated: a text version's index, or title/summary. */
  target: z.string().max(100),
  color: z.string().regex(/^#[0-9a-f]{6}$/i),
  note: z.string().max(100_000),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  billLabel: billLabelSchema.optional(),
});
export type Annotation = z.infer<typeof annotationSchema>;

const changeText = z.string().min(1).max(2000);
/** One thing an import or a refresh changed in a bill (changes/bill-changes.ts). */
export const billChangeItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('action'), date: z.string().nullable(), text: changeText }),
  z.object({
    kind: z.literal('status'),
    from: z.string().min(1).max(40),
    to: z.string().min(1).max(40),
    /** The source's own words for the new status, when it gives them. */
    toRaw: changeText.nullable(),
  }),
  z.object({ kind: z.literal('text'), date: z.string().nullable(), type: changeText }),
  z.object({
    kind: z.literal('vote'),
    date: z.string().nullable(),
    motion: changeText,
    passed: z.boolean().nullable(),
  }),
  z.object({ kind: z.literal('title'), from: changeText, to: changeText }),
  z.object({
    kind: z.literal('sponsors'),
    added: z.array(changeText).max(50),
    removed: z.array(changeText).max(50),
  }),
]);
export type BillChangeItem = z.infer<typeof billChangeItemSchema>;

/**
 * What one import or refresh changed in one bill that the dataset already provided, seen on this
 * device at `at`. Derived like bills, so never synced: each device records what its own imports
 * found. Kept per bill, newest last (the id sorts by bill then time).
 */
export const billChangeSchema = z.object({
  /** `${billId}|${at}` */
  id: z.string().min(1).max(800),
  billId: z.string().min(1).max(700),
  datasetId: rowId,
  at: isoTimestamp,
  /** The bill's change hash once changed: a seen mark on another device names it. */
  toHash: z.string().min(1).max(200),
  changes: z.array(billChangeItemSchema).min(1).max(200),
});
export type BillChange = z.infer<typeof billChangeSchema>;

/**
 * The user's "seen up to" on one bill: the changes recorded up to `seenAt` on this device, and
 * the change that left the bill at `changeHash` on any device, are seen. User data: it syncs.
 */
export const seenMarkSchema = z.object({
  billId: z.string().min(1).max(700),
  changeHash: z.string().min(1).max(200),
  seenAt: isoTimestamp,
});
export type SeenMark = z.infer<typeof seenMarkSchema>;

/** The tables whose overwritten values a bill's History keeps (sync/bill-history.ts). */
export const historyTables = ['positions', 'annotations', 'decisions', 'tags'] as const;

/**
 * One value of the user's that a change from another device overwrote (a position or its Why, a
 * note, a decision, a tag's name): what it was, what it became, when and by which device. Made
 * by the device whose value it was, as it merges the change; synced like the user's work, so
 * every device shows it in the bill's History. A tag's name belongs to no one bill: its entries
 * have no bill id and are shown on the bills that carry the tag.
 */
export const billHistorySchema = z.object({
  /** `${table}|${rowId}|${field}|${the overwritten value's clock}`: one overwrite, one entry. */
  id: z.string().min(1).max(1_200),
  billId: z.string().min(1).max(700).nullable(),
  table: z.enum(historyTables),
  rowId: z.string().min(1).max(700),
  field: z.string().min(1).max(64),
  before: z.unknown(),
  after: z.unknown(),
  /** When the overwriting change was made (its clock's time). */
  at: isoTimestamp,
  /** The device whose change overwrote the value, and the device that had set it. */
  byDevice: z.string().min(1).max(64),
  ofDevice: z.string().min(1).max(64),
  /** This device's own: the user has not opened the bill since ("Changed on another device"). */
  unseen: z.boolean().optional(),
});
export type BillHistory = z.infer<typeof billHistorySchema>;

/** The sources whose APIs take a key of the user's own (sources/api-keys.ts). */
export const apiKeySources = ['legiscan', 'openstates', 'congress'] as const;
export type ApiKeySource = (typeof apiKeySources)[number];

/**
 * The user's key for one source's API, keyed by the source's name (`apiKeySources`; the row
 * takes any such name, so a key for a source a newer build knows survives an older one's sync).
 * User data: it syncs, end-to-end encrypted like the rest, and is never logged, traced, exported
 * with bills or put in a backup of bills.
 */
export const apiKeySchema = z.object({
  source: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/),
  key: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, 'an API key is printable characters without spaces'),
  updatedAt: isoTimestamp,
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/**
 * A bill's text version as this device fetched it from the URL the source links ("Get text"),
 * made structured plain text (text/version-text.ts). Derived like bills: each device fetches its
 * own, and it never syncs. A copy whose URL is no longer the version's is not used.
 */
export const versionTextSchema = z.object({
  /** `${billId}|${index}`: the version's place in the bill's `texts`. */
  id: z.string().min(1).max(800),
  billId: z.string().min(1).max(700),
  index: z.number().int().nonnegative().max(999),
  url: z.string().min(1).max(2000),
  format: z.enum(['html', 'xml', 'pdf', 'text']),
  fetchedAt: isoTimestamp,
  text: z.string().max(20_000_000),
  /** Heading lines, as offsets into `text`, in order. */
  headings: z
    .array(z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }))
    .max(100_000),
});
export type VersionText = z.infer<typeof versionTextSchema>;

export const backupIndexSchema = z.object({
  id: rowId,
  name: z.string().min(1).max(200),
  description: z.string().max(5000),
  createdAt: isoTimestamp,
  size: z.number().int().nonnegative(),
});
export type BackupIndexEntry = z.infer<typeof backupIndexSchema>;

export const fullBackupSchema = z.object({
  id: rowId,
  name: z.string().min(1).max(200),
  createdAt: isoTimestamp,
  encrypted: z.boolean(),
  size: z.number().int().nonnegative(),
  bytes: z.instanceof(Uint8Array),
});
export type FullBackup = z.infer<typeof fullBackupSchema>;

export const traceEntrySchema = z.object({
  /** Time-ordered id (timestamp then a counter), so the oldest entries are the first keys. */
  id: rowId,
  at: isoTimestamp,
  kind: z.string().min(1).max(50),
  durationMs: z.number().nonnegative().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type TraceEntry = z.infer<typeof traceEntrySchema>;

export const settingSchema = z.object({
  key: rowId,
  value: z.unknown(),
});
export type Setting = z.infer<typeof settingSchema>;

/**
 * The tables of the user's own work on bills, tags before the rows that refer to them: what
 * exports, imports, backups and sync carry besides the bills and datasets.
 */
export const userWorkTables = [
  'tags',
  'billTags',
  'positions',
  'decisions',
  'annotations',
] as const;

/**
 * The tables whose rows the user makes, and which sync: the outbox's and syncState's tables.
 * Datasets sync their definition (name, source, overrides, where the files are); each device
 * imports the bills itself (`datasetLocalFields` stay on the device).
 */
export const syncedTables = [
  'datasets',
  ...userWorkTables,
  'seenMarks',
  'apiKeys',
  'billHistory',
] as const;
export type SyncedTable = (typeof syncedTables)[number];

const hlcText = z.string().min(1).max(200);

/**
 * What sync knows of one row of a synced table (sync-merge.ts): every field's newest value with
 * the clock that set it, and the clock of the newest delete. The row itself is what these fields
 * make: those set after the delete, when they are a whole row. Kept apart from the row so that
 * the tables the screens read stay plain, and so that a change arriving out of order (an edit
 * before the put that creates its row) is kept, never dropped.
 */
export const syncStateSchema = z.object({
  /** `${table}|${rowId}` */
  id: z.string().min(1).max(500),
  table: z.enum(syncedTables),
  rowId,
  fields: z.record(z.string(), z.object({ value: z.unknown(), hlc: hlcText })),
  /** The clock of the newest delete; null when the row was never deleted. */
  deletedAt: hlcText.nullable(),
});
export type SyncState = z.infer<typeof syncStateSchema>;

/** An unsynced change, written in the same transaction as the row it describes. */
export const outboxEntrySchema = z.object({
  /** Hybrid-logical-clock timestamp then device id: sorts in the order changes were made. */
  id: rowId,
  table: z.string().min(1),
  rowId,
  op: z.enum(['put', 'delete']),
  /** The changed fields (put) or nothing (delete). */
  fields: z.record(z.string(), z.unknown()).nullable(),
  createdAt: isoTimestamp,
});
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

/** Every table's row schema: what a row that comes from outside (a full backup) must be. */
export const localRowSchemas: { [N in TableName]: z.ZodType<LocalRows[N]> } = {
  bills: storedBillSchema,
  datasets: datasetSchema,
  datasetFiles: datasetFileSchema,
  jobs: jobSchema,
  tags: tagSchema,
  billTags: billTagSchema,
  positions: positionSchema,
  decisions: decisionSchema,
  annotations: annotationSchema,
  backups: backupIndexSchema,
  fullBackups: fullBackupSchema,
  trace: traceEntrySchema,
  settings: settingSchema,
  outbox: outboxEntrySchema,
  importStaging: importStagingSchema,
  syncState: syncStateSchema,
  billChanges: billChangeSchema,
  seenMarks: seenMarkSchema,
  apiKeys: apiKeySchema,
  versionTexts: versionTextSchema,
  billHistory: billHistorySchema,
  members: storedMemberSchema,
};

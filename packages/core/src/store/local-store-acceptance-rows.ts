import { billChangeHash, type Bill, type BillContent } from '../bills/bill.ts';
import { billId } from '../bills/bill-identifiers.ts';
import type { DatasetFile, StoredBill } from './local-records.ts';
import { withDerivedFields } from './derived-writes.ts';
import {
  localTables,
  type IndexOf,
  type LocalRows,
  type LocalStore,
  type TableName,
} from './local-store.ts';

// The rows the acceptance suite (local-store-acceptance.ts) writes and reads back: a sample of
// every table, hostile strings, a bill with every field filled, and each table's schema; and the
// cases' shorthands for writing a table's rows and reading them back.

export const host = globalThis as unknown as {
  setTimeout(callback: () => void, ms: number): unknown;
};
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    host.setTimeout(resolve, ms);
  });

export const at = '2025-03-04T05:06:07.089Z';

/** Strings that have broken stores before: NUL, lone surrogates, markup, prototype names. */
export const hostileStrings = [
  '',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '<script>alert(1)</script>',
  "Robert'); DROP TABLE bills;--",
  '${globalThis.process}',
  '__proto__',
  'constructor',
  '\u202Eevil\u202C',
  'עברית ومرحبا',
  '中文 日本語 한국어',
  'e\u0301 ñ ß ﬁ',
  '👩🏽‍⚖️ 🏛️ 😀',
  '\r\n\t',
] as const;

export function plainBill(n: number): Bill {
  const content: BillContent = {
    id: billId('us', '118', { type: 'hr', number: String(n) }),
    source: 'congress-json',
    sourceId: `hr${n}-118`,
    jurisdiction: 'us',
    session: '118',
    type: 'hr',
    number: String(n),
    identifier: `H.R. ${n}`,
    title: `A bill numbered ${n}`,
    summary: null,
    introducedDate: '2024-01-05',
    status: 'introduced',
    rawStatus: null,
    statusDate: null,
    sponsors: [],
    cosponsors: [],
    subjects: [],
    actions: [],
    texts: [],
    votes: [],
    url: null,
  };
  return { ...content, changeHash: billChangeHash(content) };
}

/**
 * A bill as the store keeps it while undecided (with its derived fields), so that a read gives
 * back the same.
 */
export function billRow(n: number, datasetIds: string[] = ['dataset-1']): StoredBill {
  return withDerivedFields({ ...plainBill(n), datasetIds }, undefined);
}

/** A bill using every nested list, with unicode and hostile text inside them. */
export function richBill(): StoredBill {
  const hostile = hostileStrings.filter((text) => text !== '').join(' | ');
  const content: BillContent = {
    id: billId('us-ca', '2025-2026 Regular Session', { type: 'ab', number: '12A' }),
    source: 'openstates',
    sourceId: 'ocd-bill/5d0c1c1e-0000-4000-8000-000000000001',
    jurisdiction: 'us-ca',
    session: '2025-2026 Regular Session',
    type: 'ab',
    number: '12A',
    identifier: 'AB 12A',
    title: `Relating to señales, 公平 and ${hostile}`,
    summary: `Line one\nLine two ${hostile}`,
    introducedDate: '2025-01-06',
    status: 'passed-one-chamber',
    rawStatus: 'Read third time. Passed. Ordered to the Senate.',
    statusDate: '2025-05-30',
    sponsors: [
      { name: 'José Núñez', role: 'primary', party: 'D', externalId: 'ocd-person/1' },
      { name: "O'Brien <b>", role: 'sponsor', party: null, externalId: null },
    ],
    cosponsors: [{ name: '李 明', role: 'cosponsor', party: 'R', externalId: 'ocd-person/2' }],
    subjects: ['Education', 'Énergie', '__proto__'],
    actions: [
      { date: '2025-01-06', text: 'Introduced.', chamber: 'lower' },
      { date: null, text: hostile, chamber: null },
    ],
    texts: [
      {
        date: '2025-01-06',
        type: 'Introduced',
        url: 'https://leginfo.legislature.ca.gov/faces/billTextClient.xhtml?bill_id=1',
        mimeType: 'text/html',
        text: `SECTION 1. ${'The people enact. '.repeat(2_000)}${hostile}`,
      },
    ],
    votes: [
      {
        date: '2025-05-30',
        chamber: 'lower',
        motion: 'Third reading',
        yes: 60,
        no: 15,
        other: 5,
        passed: true,
      },
    ],
    url: 'https://leginfo.legislature.ca.gov/',
  };
  return withDerivedFields(
    {
      ...content,
      changeHash: billChangeHash(content),
      datasetIds: ['dataset-1', 'ds-ü'],
    },
    undefined,
  );
}

export function datasetFileRow(n: number): DatasetFile {
  // Every byte value, so nothing on the way treats the bytes as text.
  const bytes = new Uint8Array(256 + n);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = i % 256;
  return {
    id: `file-${n}`,
    datasetId: `dataset-${n % 2}`,
    name: `bills ${n}.zip`,
    size: bytes.length,
    bytes,
    addedAt: at,
  };
}

/** Row n of each table: distinct keys, and index values shared between odd and even rows. */
export const sampleRows: { [N in TableName]: (n: number) => LocalRows[N] } = {
  bills: (n) => billRow(n, [`dataset-${n % 2}`]),
  datasets: (n) => ({
    id: `dataset-${n}`,
    name: `Dataset ${n}`,
    origin:
      n % 2 === 0
        ? { kind: 'files', fileIds: [`file-${n}`] }
        : { kind: 'url', url: 'https://example.org/bills.zip' },
    jurisdiction: 'us',
    session: null,
    format: null,
    billCount: n,
    lastImportAt: null,
    lastJobId: null,
    state: 'new',
    createdAt: `2025-01-0${(n % 2) + 1}T00:00:00.000Z`,
    updatedAt: at,
  }),
  datasetFiles: datasetFileRow,
  jobs: (n) => ({
    id: `job-${n}`,
    kind: 'import',
    subjectId: `dataset-${n % 2}`,
    status: n % 2 === 0 ? 'queued' : 'done',
    createdAt: at,
    startedAt: null,
    finishedAt: null,
    progress: { recordsRead: n, written: n, skipped: 0, total: null },
    result: null,
    errors: [{ record: null, reason: `reason ${n}` }],
    message: null,
  }),
  tags: (n) => ({
    id: `tag-${n}`,
    name: n % 2 === 0 ? 'Housing' : 'Água',
    color: '#a0b1c2',
    createdAt: at,
    updatedAt: at,
  }),
  billTags: (n) => ({
    id: `${billRow(n).id}|tag-${n % 2}`,
    billId: billRow(n).id,
    tagId: `tag-${n % 2}`,
    createdAt: at,
  }),
  positions: (n) => ({
    billId: billRow(n).id,
    position: n % 2 === 0 ? 'support' : 'oppose',
    // Rows from before reasons existed have none: both kinds are stored.
    ...(n % 2 === 0 ? { reason: `Reason ${n}` } : {}),
    updatedAt: at,
  }),
  decisions: (n) => ({
    billId: billRow(n).id,
    decision: n % 2 === 0 ? 'track' : 'later',
    decidedAt: at,
  }),
  annotations: (n) => ({
    id: `annotation-${n}`,
    billId: billRow(n % 2).id,
    quote: { exact: 'the people', prefix: 'SECTION 1. ', suffix: ' enact' },
    position: { start: 11, end: 21 },
    target: '0',
    color: '#ffee00',
    note: `Note ${n} — ✓`,
    createdAt: at,
    updatedAt: at,
  }),
  backups: (n) => ({
    id: `backup-${n}`,
    name: `Backup ${n}`,
    description: '',
    createdAt: `2025-02-0${(n % 2) + 1}T00:00:00.000Z`,
    size: 1024 * n,
  }),
  fullBackups: (n) => ({
    id: `full-${n}`,
    name: `Full backup ${n}`,
    createdAt: `2025-02-0${(n % 2) + 1}T00:00:00.000Z`,
    encrypted: n % 2 === 0,
    size: 3,
    bytes: new Uint8Array([n % 256, 0, 255]),
  }),
  trace: (n) => ({
    id: `2025-03-04T05:06:07.${String(n).padStart(3, '0')}Z-${n}`,
    at,
    kind: n % 2 === 0 ? 'import' : 'sync',
    durationMs: n === 0 ? null : n * 1.5,
    details: { n, nested: { list: [1, 'two', null, true] } },
  }),
  settings: (n) => ({ key: `setting-${n}`, value: { n, on: n % 2 === 0, list: [n] } }),
  outbox: (n) => ({
    id: `hlc-${String(n).padStart(6, '0')}-device`,
    table: n % 2 === 0 ? 'positions' : 'tags',
    rowId: `row-${n}`,
    op: n % 2 === 0 ? 'put' : 'delete',
    fields: n % 2 === 0 ? { position: 'support' } : null,
    createdAt: at,
  }),
  importStaging: (n) => {
    const jobId = `job-${n % 2}`;
    if (n % 2 === 0) {
      const bill = plainBill(n);
      return { id: `${jobId}|bill|${bill.id}`, jobId, kind: 'bill', bill };
    }
    return {
      id: `${jobId}|checkpoint-${n}`,
      jobId,
      kind: 'checkpoint',
      fingerprint: `sha256-${n}`,
      recordsConsumed: n,
      errorCount: 0,
    };
  },
  syncState: (n) => ({
    id: `tags|tag-${n}`,
    table: 'tags',
    rowId: `tag-${n}`,
    fields: { name: { value: `Tag ${n}`, hlc: `00000000000${n}-0000-device-a` } },
    deletedAt: n % 2 === 0 ? null : `00000000000${n}-0001-device-b`,
  }),
  billChanges: (n) => ({
    id: `us/119/hr-${n}|2025-03-0${(n % 2) + 1}T00:00:00.000Z`,
    billId: `us/119/hr-${n}`,
    datasetId: `dataset-${n % 2}`,
    at: `2025-03-0${(n % 2) + 1}T00:00:00.000Z`,
    toHash: `hash-${n}`,
    changes: [
      { kind: 'action', date: '2025-03-01', text: n % 2 === 0 ? 'Referred to «Finance»' : 'Água' },
      { kind: 'status', from: 'introduced', to: 'in-committee', toRaw: null },
    ],
  }),
  seenMarks: (n) => ({
    billId: `us/119/hr-${n}`,
    changeHash: `hash-${n}`,
    seenAt: at,
  }),
  billHistory: (n) => ({
    id: `positions|us/119/hr-${n}|reason|00000000000000${n}-0000-device-a`,
    billId: n % 4 === 0 ? null : `us/119/hr-${n}`,
    table: 'positions' as const,
    rowId: `us/119/hr-${n}`,
    field: 'reason',
    before: `Why ${n}`,
    after: { nested: [n, 'Água'] },
    at,
    byDevice: 'device-b',
    ofDevice: 'device-a',
    ...(n % 2 === 0 ? { unseen: true } : {}),
  }),
  apiKeys: (n) => ({
    source: `source-${n}`,
    key: `k${n}-0123456789abcdef`,
    updatedAt: at,
  }),
  versionTexts: (n) => ({
    id: `us/119/hr-${n}|${n % 3}`,
    billId: `us/119/hr-${n}`,
    index: n % 3,
    url: `https://www.govinfo.gov/content/pkg/BILLS-119hr${n}ih/html/BILLS-119hr${n}ih.htm`,
    format: n % 2 === 0 ? 'html' : 'pdf',
    fetchedAt: at,
    text: `SEC. ${n}. SHORT TITLE.\nThis Act may be cited as the «Água» Act.`,
    headings: [{ start: 0, end: 20 }],
  }),
  members: (n) => ({
    id: `legiscan:${String(8600 + n)}`,
    name: n % 2 === 0 ? `Member ${n}` : `Membre «${n}» Ñúñez`,
    party: n % 3 === 0 ? null : 'D',
    district: n % 2 === 0 ? `HD-0${n}` : null,
    role: 'Rep',
    datasetIds: [`dataset-${n % 2}`],
  }),
};

export const tableNames = Object.keys(localTables) as TableName[];

export function keyOf<N extends TableName>(table: N, row: LocalRows[N]): string {
  return (row as unknown as Record<string, string>)[localTables[table].key] ?? '';
}

/** For each index of the table, the field and the value row n is found under. */
export function indexLookups<N extends TableName>(
  table: N,
  row: LocalRows[N],
): { index: IndexOf<N>; value: string | number }[] {
  const lookups: { index: IndexOf<N>; value: string | number }[] = [];
  for (const spec of localTables[table].indexes as readonly string[]) {
    const field = spec.replace(/^\*/, '');
    const raw = (row as unknown as Record<string, unknown>)[field];
    const value: unknown = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value === 'string' || typeof value === 'number') {
      lookups.push({ index: field as IndexOf<N>, value });
    }
  }
  return lookups;
}

export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** One table's rows written in one transaction. */
export const putAll = <N extends TableName>(
  store: LocalStore,
  table: N,
  rows: readonly LocalRows[N][],
): Promise<void> => store.write([table], (tx) => tx.putMany(table, rows));

/** One row read by its key (undefined when there is none). */
export const getOne = <N extends TableName>(store: LocalStore, table: N, key: string) =>
  store.read([table], (tx) => tx.get(table, key));

/** A whole table, in key order. */
export const allOf = <N extends TableName>(store: LocalStore, table: N) =>
  store.read([table], (tx) => tx.all(table));

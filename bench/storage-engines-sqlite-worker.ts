import sqlite3InitModule, { type Database, type SAHPoolUtil } from '@sqlite.org/sqlite-wasm';

// The SQLite side of storage-engines.bench.web.ts: the official SQLite build compiled to
// WebAssembly, in a dedicated worker (the only place OPFS's synchronous access handles exist),
// on its `opfs-sahpool` VFS (no COOP/COEP headers needed). The page sends calls by message; each
// answer carries the time the worker spent on it, so the page can tell the engine's work from
// the message hop. One table of bills (the columns the deck filters on, and the bill as JSON),
// the deck's recent-order keys as a table of (list, day, id), and an FTS5 index of the bills'
// words. Not part of the app.

/** A bill as the page sends it: what the store derives from it is computed there. */
export interface SqliteBillRow {
  id: string;
  jurisdiction: string;
  status: string;
  /** The bill as JSON, without its derived deck keys. */
  json: string;
  /** The deck keys as (list, day, id): the list's prefix and the bill's place, split. */
  deck: [string, string][];
  /** What search reads: identifier, title, summary, subjects, sponsors, actions. */
  words: [string, string, string];
}

export type SqliteCall =
  | { op: 'open'; name: string; tuned: boolean; journalInMemory?: boolean }
  | { op: 'close' }
  | { op: 'drop' }
  | { op: 'insert'; rows: SqliteBillRow[] }
  | { op: 'put'; row: SqliteBillRow }
  | { op: 'count' }
  | { op: 'page'; list: string; afterDay: string | null; afterId: string | null; limit: number }
  | {
      op: 'shared';
      lists: string[];
      afterDay: string | null;
      afterId: string | null;
      limit: number;
      skip: string[];
    }
  | {
      op: 'idPage';
      column: 'jurisdiction' | 'status' | null;
      value: string | null;
      atLeast: string | null;
      limit: number;
    }
  | { op: 'bills'; ids: string[] }
  | { op: 'recentBills'; limit: number }
  | { op: 'search'; query: string }
  | { op: 'fileBytes' }
  | { op: 'writeParts' };

export interface SqliteAnswer {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
  /** Milliseconds the worker spent on the call. */
  ms: number;
}

/** Sent without being asked, after a write commits: a live list reads again. */
export interface SqliteChanged {
  changed: true;
}

let poolUtil: SAHPoolUtil | undefined;
let db: Database | undefined;

/** The VFS, installed once a worker, in a pool (an OPFS folder) of its own. */
async function pool(name: string): Promise<SAHPoolUtil> {
  if (poolUtil !== undefined) return poolUtil;
  const sqlite3 = await sqlite3InitModule();
  poolUtil = await sqlite3.installOpfsSAHPoolVfs({ name: `pool-${name}`, clearOnInit: true });
  return poolUtil;
}

function open(): Database {
  if (db === undefined) throw new Error('the database is not open');
  return db;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS bills (
    n INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    jurisdiction TEXT NOT NULL,
    status TEXT NOT NULL,
    json TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS bills_status ON bills (status, id);
  CREATE INDEX IF NOT EXISTS bills_jurisdiction ON bills (jurisdiction, id);
  CREATE TABLE IF NOT EXISTS deck (
    list TEXT NOT NULL, day TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (list, day, id)
  ) WITHOUT ROWID;
  CREATE VIRTUAL TABLE IF NOT EXISTS bills_fts USING fts5(
    identifier, title, rest, content='', contentless_delete=1, prefix='2 3 4'
  );
`;

/** Milliseconds spent in each part of the writes so far: the bills (the bill's row bound, apart),
 *  the deck keys, the words, the commit. */
export const writeParts = { bills: 0, bind: 0, deck: 0, words: 0, commit: 0 };

function writeRows(rows: readonly SqliteBillRow[]): void {
  const database = open();
  let mark = performance.now();
  const lap = (part: keyof typeof writeParts) => {
    const now = performance.now();
    writeParts[part] += now - mark;
    mark = now;
  };
  database.transaction((tx) => {
    const existing = tx.prepare('SELECT n FROM bills WHERE id = ?');
    const putBill = tx.prepare(
      'INSERT INTO bills (n, id, jurisdiction, status, json) VALUES (?, ?, ?, ?, ?) ' +
        'ON CONFLICT (id) DO UPDATE SET jurisdiction = excluded.jurisdiction, ' +
        'status = excluded.status, json = excluded.json RETURNING n',
    );
    const dropKeys = tx.prepare('DELETE FROM deck WHERE id = ?');
    const putKey = tx.prepare('INSERT OR REPLACE INTO deck (list, day, id) VALUES (?, ?, ?)');
    const dropWords = tx.prepare('DELETE FROM bills_fts WHERE rowid = ?');
    const putWords = tx.prepare(
      'INSERT INTO bills_fts (rowid, identifier, title, rest) VALUES (?, ?, ?, ?)',
    );
    try {
      for (const row of rows) {
        const before = existing.bind([row.id]).step() ? Number(existing.get(0)) : null;
        existing.reset();
        if (before !== null) {
          dropKeys.bind([row.id]).stepReset();
          dropWords.bind([before]).stepReset();
        }
        lap('bills');
        putBill.bind([null, row.id, row.jurisdiction, row.status, row.json]);
        lap('bind');
        if (!putBill.step()) throw new Error('no row number came back');
        const n = Number(putBill.get(0));
        putBill.reset();
        lap('bills');
        for (const [list, day] of row.deck) putKey.bind([list, day, row.id]).stepReset();
        lap('deck');
        putWords.bind([n, ...row.words]).stepReset();
        lap('words');
      }
    } finally {
      for (const statement of [existing, putBill, dropKeys, putKey, dropWords, putWords]) {
        statement.finalize();
      }
    }
  });
  lap('commit');
}

function column(sql: string, bind: (string | number)[]): string[] {
  return open().selectValues(sql, bind) as string[];
}

/** The ids and (day, id) places of a list after a place, in the recent order. */
function listPage(
  list: string,
  afterDay: string | null,
  afterId: string | null,
  limit: number,
): [string, string][] {
  const rows =
    afterDay === null || afterId === null
      ? open().selectArrays('SELECT day, id FROM deck WHERE list = ? ORDER BY day, id LIMIT ?', [
          list,
          limit,
        ])
      : open().selectArrays(
          'SELECT day, id FROM deck WHERE list = ? AND (day, id) > (?, ?) ORDER BY day, id LIMIT ?',
          [list, afterDay, afterId, limit],
        );
  return rows as [string, string][];
}

/**
 * What every list holds, less `skip`, in the recent order: the first list walked in order, each
 * of its places looked up in the others by primary key (SQLite's nested loop does the seeking).
 */
function shared(
  lists: readonly string[],
  afterDay: string | null,
  afterId: string | null,
  limit: number,
  skip: ReadonlySet<string>,
): { ids: string[]; last: [string, string] | null } {
  const [first, ...others] = lists;
  if (first === undefined) return { ids: [], last: null };
  const joins = others
    .map(
      (_, at) => `JOIN deck k${at} ON k${at}.list = ? AND k${at}.day = k.day AND k${at}.id = k.id`,
    )
    .join(' ');
  const from = afterDay === null || afterId === null ? '' : 'AND (k.day, k.id) > (?, ?)';
  const sql = `SELECT k.day, k.id FROM deck k ${joins} WHERE k.list = ? ${from} ORDER BY k.day, k.id LIMIT ?`;
  const ids: string[] = [];
  let day = afterDay;
  let id = afterId;
  const batch = Math.max(limit, 64);
  for (;;) {
    const bind: (string | number)[] = [...others, first];
    if (day !== null && id !== null) bind.push(day, id);
    bind.push(batch);
    const rows = open().selectArrays(sql, bind) as [string, string][];
    for (const [rowDay, rowId] of rows) {
      day = rowDay;
      id = rowId;
      if (skip.has(rowId)) continue;
      ids.push(rowId);
      if (ids.length >= limit) return { ids, last: [rowDay, rowId] };
    }
    if (rows.length < batch) return { ids, last: null };
  }
}

/** An FTS5 query of the words asked for, the last one also as a prefix. */
function ftsQuery(query: string): string | null {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words.map((word, at) => `"${word}"${at === words.length - 1 ? '*' : ''}`).join(' ');
}

async function answer(call: SqliteCall): Promise<unknown> {
  switch (call.op) {
    case 'open': {
      const util = await pool(call.name);
      db = new util.OpfsSAHPoolDb(`/${call.name}.sqlite3`);
      // A 64 MiB page cache: with the default 2 MiB, a chunk's transaction spills pages to the
      // file before it commits (each spill syncs the journal first).
      db.exec('PRAGMA cache_size = -65536');
      if (call.tuned) {
        // For bills of 5-10 KB: 16 KiB pages (fewer overflow pages a bill), a 256 MiB cache so a
        // chunk of 5,000 never spills, and NORMAL sync (the journal is still synced at commit).
        db.exec('PRAGMA page_size = 16384');
        db.exec('PRAGMA cache_size = -262144');
        db.exec('PRAGMA synchronous = NORMAL');
        // One connection holds the file anyway (the VFS allows no other): keeping the lock
        // spares the VFS its lock calls at every transaction.
        db.exec('PRAGMA locking_mode = EXCLUSIVE');
      }
      // The rollback journal kept in memory: the writes' upper bound, NOT crash-safe (a crash
      // during a commit can leave the file corrupt), so no store could ship it.
      if (call.journalInMemory === true) db.exec('PRAGMA journal_mode = MEMORY');
      db.exec(SCHEMA);
      return null;
    }
    case 'close':
      db?.close();
      db = undefined;
      return null;
    case 'drop':
      db?.close();
      db = undefined;
      // Removes the pool's folder and every file in it.
      await poolUtil?.removeVfs();
      return null;
    case 'insert':
      writeRows(call.rows);
      return null;
    case 'put':
      writeRows([call.row]);
      postMessage({ changed: true } satisfies SqliteChanged);
      return null;
    case 'count':
      return open().selectValue('SELECT count(*) FROM bills');
    case 'page':
      return listPage(call.list, call.afterDay, call.afterId, call.limit);
    case 'shared':
      return shared(call.lists, call.afterDay, call.afterId, call.limit, new Set(call.skip));
    case 'idPage': {
      const where = call.column === null ? '' : `${call.column} = ? AND`;
      const bind: (string | number)[] = call.value === null ? [] : [call.value];
      bind.push(call.atLeast ?? '', call.limit);
      return column(`SELECT id FROM bills WHERE ${where} id >= ? ORDER BY id LIMIT ?`, bind);
    }
    case 'bills': {
      if (call.ids.length === 0) return [];
      const marks = call.ids.map(() => '?').join(',');
      const rows = open().selectArrays(
        `SELECT id, json FROM bills WHERE id IN (${marks})`,
        call.ids,
      ) as [string, string][];
      const byId = new Map(rows);
      return call.ids.map((id) => byId.get(id) ?? null);
    }
    case 'recentBills':
      return column(
        "SELECT b.json FROM deck k JOIN bills b ON b.id = k.id WHERE k.list = 'a' ORDER BY k.day, k.id LIMIT ?",
        [call.limit],
      );
    case 'search': {
      const match = ftsQuery(call.query);
      if (match === null) return 0;
      // The matching rows' numbers, as the index gives its documents: the list then orders them.
      return open().selectValues('SELECT rowid FROM bills_fts WHERE bills_fts MATCH ?', [match])
        .length;
    }
    case 'writeParts':
      return writeParts;
    case 'fileBytes': {
      const pageCount = Number(open().selectValue('PRAGMA page_count'));
      const pageSize = Number(open().selectValue('PRAGMA page_size'));
      return pageCount * pageSize;
    }
  }
}

onmessage = async (event: MessageEvent<{ id: number; call: SqliteCall }>) => {
  const { id, call } = event.data;
  const started = performance.now();
  try {
    const value = await answer(call);
    postMessage({ id, ok: true, value, ms: performance.now() - started } satisfies SqliteAnswer);
  } catch (error) {
    postMessage({
      id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      ms: performance.now() - started,
    } satisfies SqliteAnswer);
  }
};

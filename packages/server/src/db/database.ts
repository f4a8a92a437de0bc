import { chmod, lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { schema } from './schema.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** The query API both drivers share; code above this module never knows which one it has. */
export type DocketDb = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction of either driver, as `DocketDb.transaction` hands it to its callback. */
export type DocketTransaction = Parameters<Parameters<DocketDb['transaction']>[0]>[0];

export interface Database {
  db: DocketDb;
  kind: DatabaseKind;
  /**
   * Listens for NOTIFY on `channel`, sent by any process on this database, until the returned
   * function is called (before `close`).
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  onPayload(payload: string): void;
  /**
   * Called when a lost listening connection is back. Notifications sent while it was down are
   * gone, so the caller must catch up by reading the database.
   */
  onResume(): void;
}

export type DatabaseLocation =
  | { kind: 'postgres'; url: string }
  | {
      kind: 'pglite';
      /** A folder for PGlite's files, or `memory://` for a database only this process sees. */
      dataDir: string;
      /** A PGlite dump to start from; tests use a migrated one to skip initdb for each file. */
      template?: Blob;
    };

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * Any fixed 64-bit number works; all Docket processes must agree on it so that only one of
 * them applies migrations at a time when several start together on one PostgreSQL.
 */
const MIGRATION_LOCK_ID = 7_415_032_918;

/** Opens the database and brings its schema up to date before anything else may query it. */
export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  return location.kind === 'postgres'
    ? openPostgres(location.url)
    : openPglite(location.dataDir, location.template);
}

async function openPglite(dataDir: string, template: Blob | undefined): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  const unlock = inMemory ? () => Promise.resolve() : await lockDataDir(dataDir);
  let client: PGlite | undefined;
  try {
    client = await PGlite.create(dataDir, template === undefined ? {} : { loadDataDir: template });
    const db = drizzlePglite({ client, schema });
    // The lock makes this process PGlite's only user, so nothing else can race the migration.
    await migratePglite(db, { migrationsFolder });
    // PGlite makes some of its files readable by everyone; they hold the signing secret and
    // live session tokens.
    if (!inMemory) await keepToOwner(dirname(dataDir));
    const opened = client;
    return {
      db,
      kind: 'pglite',
      // PGlite has one session, which both sends and receives; NOTIFY inside a transaction is
      // delivered at commit as on PostgreSQL, and the session never drops, so onResume is unused.
      listen: async (channel, handlers) => {
        const unlisten = await opened.listen(channel, (payload) => {
          handlers.onPayload(payload);
        });
        return () => unlisten();
      },
      close: async () => {
        await opened.close();
        await unlock();
      },
    };
  } catch (error) {
    await client?.close();
    await unlock();
    throw error;
  }
}

/**
 * The data folder and everything in it readable by its owner only: folders 0700, files without
 * group and other bits. Symbolic links are left alone.
 */
async function keepToOwner(path: string): Promise<void> {
  const stats = await lstat(path);
  if (stats.isSymbolicLink()) return;
  if (stats.isDirectory()) {
    if ((stats.mode & 0o777) !== 0o700) await chmod(path, 0o700);
    for (const name of await readdir(path)) await keepToOwner(join(path, name));
  } else if ((stats.mode & 0o077) !== 0) {
    await chmod(path, stats.mode & 0o700);
  }
}

/**
 * PGlite is an embedded database with no server to arbitrate: two processes opening the same
 * folder would corrupt it. A pid file next to the folder turns that into a clear startup error;
 * a pid file left by a crashed process is taken over.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dirname(dataDir), { recursive: true, mode: 0o700 });
  await keepToOwner(dirname(dataDir));
  const lockPath = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await writeFile(lockPath, String(process.pid), { flag: 'wx' });
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if (!isErrorCode(error, 'EEXIST')) throw error;
      const owner = Number.parseInt(await readFile(lockPath, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(owner) && isProcessAlive(owner)) {
        throw new Error(
          `Another Docket server (process ${owner}) is using ${dataDir}. ` +
            'Stop it first, or give this one its own DOCKET_DATA_DIR or a DATABASE_URL.',
        );
      }
      await rm(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}: ${lockPath} keeps reappearing`);
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return isErrorCode(error, 'EPERM');
  }
}

function isErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url });
  // An idle client that loses its connection emits 'error' on the pool; without a listener
  // that would crash the process instead of letting the next query reconnect.
  pool.on('error', () => undefined);
  try {
    await migrateWithLock(pool);
    return {
      db: drizzleNodePg({ client: pool, schema }),
      kind: 'postgres',
      listen: (channel, handlers) => listenOnPostgres(url, channel, handlers),
      close: () => pool.end(),
    };
  } catch (error) {
    await pool.end();
    throw error;
  }
}

async function migrateWithLock(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    const db = drizzleNodePg({ client, schema });
    await db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    try {
      await migrateNodePg(db, { migrationsFolder });
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
    }
  } finally {
    client.release();
  }
}

const LISTEN_RETRY_FIRST_MS = 250;

/** The application_name of this process's LISTEN sessions in pg_stat_activity. */
export function listenerName(pid = process.pid): string {
  return `docket-listen:${pid}`;
}
const LISTEN_RETRY_MAX_MS = 15_000;

/**
 * LISTEN needs a session of its own (a pooled connection would be handed to other queries), so
 * this opens a dedicated client and keeps it: when the connection drops it reconnects with
 * backoff, listens again and calls `onResume`.
 */
async function listenOnPostgres(
  url: string,
  channel: string,
  handlers: NotificationHandlers,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelay = LISTEN_RETRY_FIRST_MS;

  const connect = async (): Promise<pg.Client> => {
    // Named so an operator (or a test) can find this process's listening session.
    const next = new pg.Client({ connectionString: url, application_name: listenerName() });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) {
        handlers.onPayload(message.payload);
      }
    });
    next.on('error', () => {
      // Emitted for a dropped connection; 'end' follows, and reconnecting happens there.
    });
    next.on('end', () => {
      if (stopped || client !== next) return;
      client = null;
      scheduleReconnect();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    return next;
  };

  const scheduleReconnect = () => {
    retryTimer = setTimeout(() => {
      connect().then(
        (next) => {
          if (stopped) {
            next.end().catch(() => undefined);
            return;
          }
          client = next;
          retryDelay = LISTEN_RETRY_FIRST_MS;
          handlers.onResume();
        },
        () => {
          if (stopped) return;
          retryDelay = Math.min(retryDelay * 2, LISTEN_RETRY_MAX_MS);
          scheduleReconnect();
        },
      );
    }, retryDelay);
  };

  client = await connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    const last = client;
    client = null;
    await last?.end();
  };
}

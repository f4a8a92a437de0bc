import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import expressPouchDB from 'express-pouchdb';
import PouchDB, { type PouchDocument } from 'pouchdb-core';
import httpAdapter from 'pouchdb-adapter-http';
import memoryAdapter from 'pouchdb-adapter-memory';
import replication from 'pouchdb-replication';
import type { SyncedSnapshot } from './sync-bench-rows.ts';

// The baseline of the sync benchmark: PouchDB replicating the same rows as documents, from a
// device's database to a PouchDB server (express-pouchdb) on loopback in this process, then from
// the server into a fresh database. Every database, the server's included, is in memory
// (pouchdb-adapter-memory), as Docket's devices and its PGlite are.

const Pouch = PouchDB.plugin(memoryAdapter).plugin(httpAdapter).plugin(replication);
const MemoryPouch = Pouch.defaults({ adapter: 'memory' });

export interface PouchServer {
  readonly origin: string;
  close(): Promise<void>;
}

export function startPouchServer(): Promise<PouchServer> {
  const app = expressPouchDB(MemoryPouch, {
    mode: 'minimumForPouchDB',
    inMemoryConfig: true,
    logPath: join(tmpdir(), 'docket-sync-bench-pouchdb.log'),
  });
  return new Promise((resolve) => {
    const server: Server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((closed, failed) => {
            server.closeAllConnections();
            server.close((error) => {
              if (error) failed(error);
              else closed();
            });
          }),
      });
    });
  });
}

/** Each synced row as a document: `<table>/<row key>`, the row's fields beside `table`. */
export function documentsOf(rows: SyncedSnapshot): PouchDocument[] {
  const documents: PouchDocument[] = [];
  for (const [table, ofTable] of Object.entries(rows)) {
    for (const row of ofTable as Record<string, unknown>[]) {
      const key = String(row.id ?? row.billId);
      documents.push({ ...row, _id: `${table}/${key}`, table });
    }
  }
  return documents;
}

export interface PouchRunFigures {
  /** Device A's database → the server. */
  readonly pushMs: number;
  /** The server → a fresh database. */
  readonly pullMs: number;
  readonly docsWritten: number;
  readonly docsOnB: number;
}

/**
 * One replication of `documents` through the server. Not timed: filling device A's database
 * and creating the server's (its first request makes it). Timed: A replicates to the server,
 * then a fresh database B replicates from it, each with PouchDB's default batches.
 */
export async function replicateOnce(
  server: PouchServer,
  documents: readonly PouchDocument[],
  run: string,
): Promise<PouchRunFigures> {
  const a = new MemoryPouch(`sync-bench-a-${run}`);
  const b = new MemoryPouch(`sync-bench-b-${run}`);
  const remote = new Pouch(`${server.origin}/sync-bench-${run}`, { adapter: 'http' });
  try {
    for (let start = 0; start < documents.length; start += 1000) {
      await a.bulkDocs(documents.slice(start, start + 1000).map((document) => ({ ...document })));
    }
    await remote.info();

    const pushStart = performance.now();
    const pushed = await a.replicate.to(remote);
    const pushMs = performance.now() - pushStart;
    const pullStart = performance.now();
    await b.replicate.from(remote);
    const pullMs = performance.now() - pullStart;

    const info = await b.info();
    return { pushMs, pullMs, docsWritten: pushed.docs_written, docsOnB: info.doc_count };
  } finally {
    await a.destroy();
    await b.destroy();
    await remote.destroy();
  }
}

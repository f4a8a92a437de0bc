// The little of PouchDB 9 and express-pouchdb 4 the sync benchmark uses (neither ships types;
// @types/pouchdb would pull in every adapter's declarations for four calls).

declare module 'pouchdb-core' {
  export interface PouchDocument {
    _id: string;
    [field: string]: unknown;
  }
  export interface PouchInfo {
    doc_count: number;
    update_seq: number | string;
  }
  export interface ReplicationResult {
    ok: boolean;
    docs_read: number;
    docs_written: number;
    doc_write_failures: number;
  }
  export interface ReplicationOptions {
    batch_size?: number;
    batches_limit?: number;
  }
  export interface PouchDatabase {
    bulkDocs(docs: PouchDocument[]): Promise<{ ok?: boolean; error?: string }[]>;
    info(): Promise<PouchInfo>;
    /** A Replication is an event emitter that is also a promise of its result. */
    replicate: {
      to(target: PouchDatabase, options?: ReplicationOptions): Promise<ReplicationResult>;
      from(source: PouchDatabase, options?: ReplicationOptions): Promise<ReplicationResult>;
    };
    destroy(): Promise<unknown>;
    close(): Promise<void>;
  }
  export type PouchPlugin = (pouch: PouchConstructor) => void;
  export interface PouchConstructor {
    new (name: string, options?: { adapter?: string }): PouchDatabase;
    plugin(plugin: PouchPlugin): PouchConstructor;
    defaults(options: { adapter?: string }): PouchConstructor;
  }
  const PouchDB: PouchConstructor;
  export default PouchDB;
}

declare module 'pouchdb-adapter-memory' {
  import type { PouchPlugin } from 'pouchdb-core';
  const plugin: PouchPlugin;
  export default plugin;
}

declare module 'pouchdb-adapter-http' {
  import type { PouchPlugin } from 'pouchdb-core';
  const plugin: PouchPlugin;
  export default plugin;
}

declare module 'pouchdb-replication' {
  import type { PouchPlugin } from 'pouchdb-core';
  const plugin: PouchPlugin;
  export default plugin;
}

declare module 'express-pouchdb' {
  import type { Server } from 'node:http';
  import type { PouchConstructor } from 'pouchdb-core';
  export interface ExpressPouchApp {
    listen(port: number, host: string, ready: () => void): Server;
  }
  export interface ExpressPouchOptions {
    /** `minimumForPouchDB` leaves out Fauxton, the replicator and the rest of CouchDB's extras. */
    mode?: 'fullCouchDB' | 'minimumForPouchDB' | 'custom';
    inMemoryConfig?: boolean;
    logPath?: string;
  }
  export default function expressPouchDB(
    pouch: PouchConstructor,
    options?: ExpressPouchOptions,
  ): ExpressPouchApp;
}

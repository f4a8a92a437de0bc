import './node-typed-arrays.ts';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import {
  createDocketDatabase,
  DOCKET_DATABASE_NAME,
  SCHEMA_VERSION,
  schemaSteps,
  storesFromLocalTables,
  type SchemaStep,
} from './docket-database.ts';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';

// The schema's history, and the pattern every future version's test copies: make a database
// the way an older build left it, with rows, then open it with this build and find the rows.

/** Version 1 exactly as it was created on devices; never edit (a copy, not an import). */
const version1Stores = {
  bills: 'id, *datasetIds, jurisdiction, status, statusDate',
  datasets: 'id, createdAt',
  datasetFiles: 'id, datasetId',
  jobs: 'id, subjectId, status, createdAt',
  tags: 'id, name',
  billTags: 'id, billId, tagId',
  positions: 'billId, position',
  decisions: 'billId, decision',
  annotations: 'id, billId',
  backups: 'id, createdAt',
  fullBackups: 'id, createdAt',
  trace: 'id, kind, at',
  settings: 'key',
  outbox: 'id, table',
  importStaging: 'id, jobId',
};

const fake = () => ({ indexedDB: new IDBFactory(), IDBKeyRange });

const tag = (id: string, name: string) => ({
  id,
  name,
  color: '#aabbcc',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

describe('docket database schema', () => {
  it('keeps the name every device already uses', () => {
    expect(DOCKET_DATABASE_NAME).toBe('docket');
  });

  it('numbers its steps 1, 2, 3… and opens at the newest', () => {
    expect(schemaSteps.map((step) => step.version)).toEqual(
      schemaSteps.map((_, index) => index + 1),
    );
    expect(SCHEMA_VERSION).toBe(schemaSteps.length);
    expect(schemaSteps[0]?.stores).toEqual(version1Stores);
  });

  it('has the newest step describe exactly the tables of localTables', () => {
    // When this fails, localTables changed: append a schema step (docket-database.ts says how).
    expect(schemaSteps.at(-1)?.stores).toEqual(storesFromLocalTables());
  });

  it('opens a version-1 database with rows in it and finds the rows', async () => {
    const options = { name: 'docket-v1', ...fake() };
    const old = new Dexie(options.name, options);
    old.version(1).stores(version1Stores);
    await old.table('tags').bulkPut([tag('tag-2', 'Housing'), tag('tag-1', 'Água')]);
    await old.table('settings').put({ key: 'theme', value: { dark: true } });
    await old.table('datasetFiles').put({
      id: 'file-1',
      datasetId: 'dataset-1',
      name: 'bills.zip',
      size: 3,
      bytes: new Uint8Array([1, 2, 3]),
      addedAt: '2025-01-01T00:00:00.000Z',
    });
    old.close();

    const store = await openIndexedDbLocalStore(options);
    try {
      await store.read(['tags', 'settings', 'datasetFiles', 'syncState'], async (tx) => {
        expect(await tx.keys('tags')).toEqual(['tag-1', 'tag-2']);
        // Version 2 added sync's per-row state, empty: rows from before count as never synced.
        expect(await tx.all('syncState')).toEqual([]);
        expect(await tx.get('tags', 'tag-2')).toEqual(tag('tag-2', 'Housing'));
        expect((await tx.get('settings', 'theme'))?.value).toEqual({ dark: true });
        expect((await tx.where('datasetFiles', 'datasetId', 'dataset-1'))[0]?.bytes).toEqual(
          new Uint8Array([1, 2, 3]),
        );
      });
    } finally {
      store.close();
    }
    const reopened = new Dexie(options.name, options);
    await reopened.open();
    expect(reopened.verno).toBe(SCHEMA_VERSION);
    reopened.close();
  });

  it('opens a version-2 database with bills in it and seeks them by [status+id]', async () => {
    const options = { name: 'docket-v2', ...fake() };
    const old = new Dexie(options.name, options);
    old.version(1).stores(version1Stores);
    old.version(2).stores({ ...version1Stores, syncState: 'id' });
    const bill = (id: string, status: string, jurisdiction: string) => ({
      id,
      status,
      jurisdiction,
      statusDate: null,
      datasetIds: ['d1'],
    });
    await old
      .table('bills')
      .bulkPut([
        bill('us/1/hr-1', 'enacted', 'us'),
        bill('us/1/hr-2', 'introduced', 'us'),
        bill('us/1/hr-3', 'enacted', 'us'),
        bill('us-ca/1/ab-1', 'enacted', 'us-ca'),
      ]);
    old.close();

    const db = createDocketDatabase(options);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    const bills = db.table('bills');
    // Version 3 indexed the bills already stored: a key range starts in the middle of a status.
    expect(
      await bills
        .where('[status+id]')
        .between(['enacted', 'us/1/hr-1\u0000'], ['enacted', Dexie.maxKey], true, true)
        .primaryKeys(),
    ).toEqual(['us/1/hr-3']);
    expect(
      await bills
        .where('[jurisdiction+id]')
        .between(['us', ''], ['us', Dexie.maxKey], true, true)
        .limit(2)
        .primaryKeys(),
    ).toEqual(['us/1/hr-1', 'us/1/hr-2']);
    expect(await bills.where('status').equals('enacted').count()).toBe(3);
    db.close();
  });

  it('opens a version-4 database with a tag in it and adds the fetched texts table', async () => {
    const options = { name: 'docket-v4', ...fake() };
    const old = new Dexie(options.name, options);
    for (const step of schemaSteps.filter((step) => step.version <= 4)) {
      old.version(step.version).stores({ ...step.stores });
    }
    await old.table('tags').put(tag('tag-1', 'Housing'));
    old.close();

    const db = createDocketDatabase(options);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.table('tags').count()).toBe(1);
    await db.table('versionTexts').put({ id: 'b|0', billId: 'b', index: 0 });
    expect(await db.table('versionTexts').where('billId').equals('b').count()).toBe(1);
    db.close();
  });

  it('opens a version-5 database with a tag in it and adds the API keys table', async () => {
    const options = { name: 'docket-v5', ...fake() };
    const old = new Dexie(options.name, options);
    for (const step of schemaSteps.filter((step) => step.version <= 5)) {
      old.version(step.version).stores({ ...step.stores });
    }
    await old.table('tags').put(tag('tag-1', 'Housing'));
    old.close();

    const db = createDocketDatabase(options);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.table('tags').count()).toBe(1);
    await db.table('apiKeys').put({ source: 'legiscan', key: 'k', updatedAt: '2025' });
    expect(await db.table('apiKeys').get('legiscan')).toMatchObject({ key: 'k' });
    db.close();
  });

  it('opens a version-3 database with a tag in it and adds the what-changed tables', async () => {
    const options = { name: 'docket-v3', ...fake() };
    const old = new Dexie(options.name, options);
    const version3Stores = {
      ...version1Stores,
      bills: 'id, *datasetIds, jurisdiction, status, statusDate, [jurisdiction+id], [status+id]',
      syncState: 'id',
    };
    old.version(1).stores(version1Stores);
    old.version(2).stores({ ...version1Stores, syncState: 'id' });
    old.version(3).stores(version3Stores);
    await old.table('tags').put(tag('tag-1', 'Housing'));
    old.close();

    const db = createDocketDatabase(options);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.table('tags').count()).toBe(1);
    await db.table('billChanges').put({ id: 'b|2025', billId: 'b', at: '2025' });
    await db.table('seenMarks').put({ billId: 'b', changeHash: 'h', seenAt: '2025' });
    expect(await db.table('billChanges').where('billId').equals('b').count()).toBe(1);
    expect(await db.table('seenMarks').count()).toBe(1);
    db.close();
  });

  it('runs the upgrade of a step a database is behind (the pattern for version 2)', async () => {
    const options = { name: 'docket-upgrade', ...fake() };
    const current = createDocketDatabase(options);
    await current.table('tags').bulkPut([tag('tag-1', '  Housing '), tag('tag-2', 'Água')]);
    current.close();

    const newest = schemaSteps.at(-1)?.stores ?? {};
    const nextStep: SchemaStep = {
      version: SCHEMA_VERSION + 1,
      stores: { ...newest, tags: 'id, name, color' },
      upgrade: async (tx) => {
        await tx
          .table('tags')
          .toCollection()
          .modify((row: { name: string; color: string }) => {
            row.name = row.name.trim();
            row.color = row.color.toUpperCase();
          });
      },
    };
    const upgraded = createDocketDatabase({ ...options, steps: [...schemaSteps, nextStep] });
    await upgraded.open();
    expect(upgraded.verno).toBe(SCHEMA_VERSION + 1);
    const tags = upgraded.table<{ name: string; color: string }, string>('tags');
    expect(await tags.where('color').equals('#aabbcc').count()).toBe(0);
    const names = (await tags.where('color').equals('#AABBCC').toArray()).map((row) => row.name);
    expect(names).toEqual(['Housing', 'Água']);
    upgraded.close();
  });

  it('refuses a database a newer build has upgraded, at open rather than at first use', async () => {
    const options = { name: 'docket-newer', ...fake() };
    const newer = createDocketDatabase({
      ...options,
      steps: [...schemaSteps, { version: SCHEMA_VERSION + 1, stores: storesFromLocalTables() }],
    });
    await newer.open();
    newer.close();
    await expect(openIndexedDbLocalStore(options)).rejects.toThrow(/newer than this build/);
  });

  it('steps aside when another tab upgrades the database', async () => {
    const options = { name: 'docket-two-tabs', ...fake() };
    const store = await openIndexedDbLocalStore(options);
    const newerTab = createDocketDatabase({
      ...options,
      steps: [...schemaSteps, { version: SCHEMA_VERSION + 1, stores: storesFromLocalTables() }],
    });
    await newerTab.open();
    expect(newerTab.verno).toBe(SCHEMA_VERSION + 1);
    await expect(store.read(['tags'], (tx) => tx.count('tags'))).rejects.toThrow();
    newerTab.close();
  });
});

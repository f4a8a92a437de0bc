import './node-typed-arrays.ts';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deviceRowKey, type OpaqueCryptoKey } from '@docket/core/crypto';
import { startBackupJob } from '@docket/core/backups';
import { describeLocalStoreAcceptance, sealRow, type LocalStore } from '@docket/core/store';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import { createDocketDatabase, schemaSteps } from './docket-database.ts';
import { DeviceLockedError } from './device-vault.ts';
import { openIndexedDbLocalStore, type RowVault } from './indexeddb-local-store.ts';

// The store with an account's vault open (issue 38): every private row is sealed as it is
// written, and the store still behaves as core's acceptance suite says. Then what is on disk:
// none of the words, and nothing opens without the vault's key.

const newRowKey = () =>
  deviceRowKey(browserCrypto, browserCrypto.getRandomValues(new Uint8Array(32)));

function openVault(key: OpaqueCryptoKey): RowVault {
  return { rowKey: () => Promise.resolve(key), known: () => key };
}

const lockedVault: RowVault = {
  rowKey: () => Promise.reject(new DeviceLockedError()),
  known: () => undefined,
};

const noVault: RowVault = { rowKey: () => Promise.resolve(null), known: () => null };

let opened = 0;
describeLocalStoreAcceptance(
  'IndexedDB local store with a vault (fake-indexeddb)',
  async () => {
    opened += 1;
    return openIndexedDbLocalStore({
      name: `docket-sealed-${opened}`,
      indexedDB: new IDBFactory(),
      IDBKeyRange,
      vault: openVault(await newRowKey()),
    });
  },
  { describe, it, expect, beforeEach, afterEach },
);

const NOTE = 'whistleblower J.D. phone 555-0199';
const WHY = 'Costs the district its clinic';
const TAG = 'Confidential sources';
const DRAFT = 'half a sentence about the informant';
const at = '2026-11-29T10:00:00.000Z';

async function writePrivateWork(store: LocalStore): Promise<void> {
  await store.write(
    ['tags', 'positions', 'annotations', 'settings', 'fullBackups', 'trace'],
    async (tx) => {
      await tx.put('tags', {
        id: 'tag-1',
        name: TAG,
        color: '#aabbcc',
        createdAt: at,
        updatedAt: at,
      });
      await tx.put('positions', {
        billId: 'bill-1',
        position: 'oppose',
        reason: WHY,
        updatedAt: at,
      });
      await tx.put('annotations', {
        id: 'note-1',
        billId: 'bill-1',
        kind: 'note',
        text: NOTE,
        createdAt: at,
        updatedAt: at,
      } as never);
      await tx.put('settings', { key: 'draft:note:bill-1', value: { text: DRAFT } });
      await tx.put('fullBackups', {
        id: 'full-1',
        name: 'Before the trip',
        createdAt: at,
        encrypted: false,
        size: 4,
        bytes: new TextEncoder().encode(NOTE),
      });
      await tx.put('trace', {
        id: 'trace-1',
        at,
        kind: 'sync',
        durationMs: null,
        details: { note: NOTE },
      });
    },
  );
}

/** Every record of every store as IndexedDB holds it, as text (bytes read as Latin-1). */
async function rawText(name: string, indexedDB: IDBFactory): Promise<string> {
  const db = createDocketDatabase({ name, indexedDB, IDBKeyRange });
  await db.open();
  try {
    const parts: string[] = [];
    for (const table of db.tables) {
      for (const row of await table.toArray()) {
        parts.push(
          JSON.stringify(row, (_key, value: unknown) =>
            value instanceof Uint8Array ? new TextDecoder('latin1').decode(value) : value,
          ),
        );
      }
    }
    return parts.join('\n');
  } finally {
    db.close();
  }
}

describe('the sealed store on disk', () => {
  let indexedDB: IDBFactory;
  let name: string;
  let key: OpaqueCryptoKey;
  const open = (vault: RowVault) =>
    openIndexedDbLocalStore({ name, indexedDB, IDBKeyRange, vault });

  beforeEach(async () => {
    opened += 1;
    indexedDB = new IDBFactory();
    name = `docket-sealed-disk-${opened}`;
    key = await newRowKey();
  });

  it('holds none of the words, and gives every row back whole with the key', async () => {
    const store = await open(openVault(key));
    await writePrivateWork(store);
    const text = await rawText(name, indexedDB);
    for (const words of [NOTE, WHY, TAG, DRAFT, 'Before the trip', 'whistleblower']) {
      expect(text).not.toContain(words);
    }
    // What the store must look rows up by stays in clear: ids, never a position's stance.
    expect(text).toContain('bill-1');
    expect(text).not.toContain('oppose');

    await store.read(['annotations', 'positions', 'fullBackups', 'settings'], async (tx) => {
      expect(await tx.where('annotations', 'billId', 'bill-1')).toMatchObject([{ text: NOTE }]);
      expect(await tx.get('positions', 'bill-1')).toMatchObject({
        position: 'oppose',
        reason: WHY,
      });
      expect(new TextDecoder().decode((await tx.get('fullBackups', 'full-1'))?.bytes)).toBe(NOTE);
      expect((await tx.get('settings', 'draft:note:bill-1'))?.value).toEqual({ text: DRAFT });
    });
    store.close();
  });

  it('keeps a WebCrypto key handle a setting holds (cloud keys stored before they were bytes) usable, and seals the rest', async () => {
    const store = await open(openVault(key));
    const dataKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    await store.write(['settings'], (tx) =>
      tx.put('settings', {
        key: 'device:cloud-keys:user-1',
        value: { keyEpoch: 2, dataKey, material: { kekSalt: 'salt of Harbourline' } },
      }),
    );
    expect(await rawText(name, indexedDB)).not.toContain('Harbourline');
    const row = await store.read(['settings'], (tx) =>
      tx.get('settings', 'device:cloud-keys:user-1'),
    );
    const value = row?.value as { keyEpoch: number; dataKey: CryptoKey; material: unknown };
    expect(value.keyEpoch).toBe(2);
    expect(value.material).toEqual({ kekSalt: 'salt of Harbourline' });
    const iv = new Uint8Array(12);
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv },
      value.dataKey,
      new Uint8Array([1, 2]),
    );
    expect(
      new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, dataKey, sealed)),
    ).toEqual(new Uint8Array([1, 2]));
    store.close();
  });

  it("seals the cloud keys' stored bytes with the row (nothing of them in clear)", async () => {
    const store = await open(openVault(key));
    const kekBytes = new TextEncoder().encode('KEK-of-Harbourline-thirty-two-b.');
    await store.write(['settings'], (tx) =>
      tx.put('settings', {
        key: 'device:cloud-keys:user-1',
        value: { keyEpoch: 2, keyEncryptionKeyBytes: kekBytes, material: { kekSalt: 's' } },
      }),
    );
    expect(await rawText(name, indexedDB)).not.toContain('KEK-of-Harbourline');
    const row = await store.read(['settings'], (tx) =>
      tx.get('settings', 'device:cloud-keys:user-1'),
    );
    const value = row?.value as { keyEncryptionKeyBytes: Uint8Array };
    expect(value.keyEncryptionKeyBytes).toBeInstanceOf(Uint8Array);
    expect(value.keyEncryptionKeyBytes).toEqual(kekBytes);
    store.close();
  });

  it('finishes a transaction whose sealed reads settle out of order', async () => {
    const writer = await open(openVault(key));
    await writePrivateWork(writer);
    writer.close();
    // The first read's key comes late, the second's at once: the second settles first.
    let calls = 0;
    const slowThenQuick: RowVault = {
      rowKey: () => {
        calls += 1;
        const wait = calls === 1 ? 50 : 0;
        return new Promise((resolve) =>
          setTimeout(() => {
            resolve(key);
          }, wait),
        );
      },
      known: () => undefined,
    };
    const store = await open(slowThenQuick);
    const [tags, positions] = await store.read(['tags', 'positions'], (tx) =>
      Promise.all([tx.all('tags'), tx.all('positions')]),
    );
    expect(tags.map((tag) => tag.name)).toEqual([TAG]);
    expect(positions.map((position) => position.reason)).toEqual([WHY]);
    store.close();
  });

  it('reads, changes and writes a sealed row in one transaction', async () => {
    const store = await open(openVault(key));
    await writePrivateWork(store);
    await store.write(['positions', 'tags'], async (tx) => {
      const position = await tx.get('positions', 'bill-1');
      const tag = await tx.get('tags', 'tag-1');
      if (position === undefined || tag === undefined) throw new Error('rows missing');
      await tx.put('positions', { ...position, reason: `${WHY}, again` });
      await tx.put('tags', { ...tag, name: `${TAG} 2` });
      expect((await tx.get('positions', 'bill-1'))?.reason).toBe(`${WHY}, again`);
    });
    const tags = await store.read(['tags'], (tx) => tx.all('tags'));
    expect(tags.map((tag) => tag.name)).toEqual([`${TAG} 2`]);
    store.close();
  });

  it('refuses another key, a locked vault and no vault at all; opens nothing in their place', async () => {
    const writer = await open(openVault(key));
    await writePrivateWork(writer);
    writer.close();

    const otherKey = await open(openVault(await newRowKey()));
    await expect(
      otherKey.read(['annotations'], (tx) => tx.get('annotations', 'note-1')),
    ).rejects.toThrow(/does not open with this account’s key/);
    otherKey.close();

    const locked = await open(lockedVault);
    await expect(locked.read(['tags'], (tx) => tx.all('tags'))).rejects.toThrow(DeviceLockedError);
    // A table of public data reads as before while the vault is locked.
    expect(await locked.read(['bills'], (tx) => tx.count('bills'))).toBe(0);
    locked.close();

    const none = await open(noVault);
    await expect(none.read(['tags'], (tx) => tx.all('tags'))).rejects.toThrow(DeviceLockedError);
    none.close();
  });

  it('refuses a sealed row whose bytes were changed, or moved to another key', async () => {
    const store = await open(openVault(key));
    await writePrivateWork(store);
    store.close();

    const db = createDocketDatabase({ name, indexedDB, IDBKeyRange });
    const stored = (await db.table('annotations').get('note-1')) as Record<string, unknown>;
    const sealed = new Uint8Array(stored.$sealed as Uint8Array);
    sealed[sealed.length - 1] = (sealed[sealed.length - 1] ?? 0) ^ 1;
    await db.table('annotations').put({ ...stored, id: 'note-2' });
    await db.table('annotations').put({ ...stored, $sealed: sealed });
    const tag = (await db.table('tags').get('tag-1')) as Record<string, unknown>;
    await db.table('tags').put({ ...tag, id: 'tag-2' });
    db.close();

    const reader = await open(openVault(key));
    for (const [table, id] of [
      ['annotations', 'note-1'],
      ['annotations', 'note-2'],
      ['tags', 'tag-2'],
    ] as const) {
      await expect(reader.read([table], (tx) => tx.get(table, id))).rejects.toThrow(
        /changed or damaged/,
      );
    }
    expect((await reader.read(['tags'], (tx) => tx.get('tags', 'tag-1')))?.name).toBe(TAG);
    reader.close();
  });

  it('drops the stance a position sealed by version 11 kept in clear, and still opens it whole', async () => {
    // Version 11 kept `position` beside the sealed row (it was indexed): made here as it did.
    const old = new Dexie(name, { indexedDB, IDBKeyRange });
    for (const step of schemaSteps.filter((step) => step.version <= 11)) {
      old.version(step.version).stores({ ...step.stores });
    }
    const position = { billId: 'bill-1', position: 'oppose' as const, reason: WHY, updatedAt: at };
    const sealed = await sealRow(browserCrypto, key, 'positions', position);
    await old.table('positions').put({ ...sealed, position: 'oppose' });
    await old.table('positions').put({ ...position, billId: 'bill-2' });
    old.close();

    const store = await open(openVault(key));
    await store.read(['positions'], async (tx) => {
      expect(await tx.get('positions', 'bill-1')).toEqual(position);
      expect(await tx.get('positions', 'bill-2')).toEqual({ ...position, billId: 'bill-2' });
    });
    store.close();
    const db = createDocketDatabase({ name, indexedDB, IDBKeyRange });
    await db.open();
    const stored = (await db.table('positions').get('bill-1')) as Record<string, unknown>;
    db.close();
    expect(Object.keys(stored)).not.toContain('position');
  });

  it('reads rows written in clear before the vault, and seals them when written again', async () => {
    const before = await open(noVault);
    await writePrivateWork(before);
    before.close();
    expect(await rawText(name, indexedDB)).toContain(WHY);

    const store = await open(openVault(key));
    const position = await store.read(['positions'], (tx) => tx.get('positions', 'bill-1'));
    expect(position?.reason).toBe(WHY);
    if (position === undefined) throw new Error('position missing');
    await store.write(['positions'], (tx) =>
      tx.put('positions', { ...position, reason: 'Sealed now' }),
    );
    store.close();
    const text = await rawText(name, indexedDB);
    expect(text).not.toContain('Sealed now');
  });

  it('keeps the names of backups and full backups out of their jobs on disk', async () => {
    const store = await open(openVault(key));
    // The jobs of a backup and a full backup are labelled with the backup's name.
    await startBackupJob(store, {
      id: 'job-1',
      kind: 'backup',
      subjectId: 'backup-1',
      label: 'Harbourline informant dossier',
      at: '2026-11-29T10:00:00.000Z',
    });
    await startBackupJob(store, {
      id: 'job-2',
      kind: 'restore',
      subjectId: 'backup-1',
      label: 'Kestrel sources before the trip',
      at: '2026-11-29T10:01:00.000Z',
    });

    // Read through the store, the jobs are whole; on disk, none of the words.
    const jobs = await store.read(['jobs'], (tx) => tx.all('jobs'));
    expect(jobs.map((job) => job.label).sort()).toEqual([
      'Harbourline informant dossier',
      'Kestrel sources before the trip',
    ]);
    store.close();
    const text = await rawText(name, indexedDB);
    for (const words of ['Harbourline', 'informant', 'Kestrel', 'before the trip']) {
      expect(text).not.toContain(words);
    }
  });
});

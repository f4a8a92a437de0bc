import { describe, expect, it } from 'vitest';
import { fullBackupRefusal, quickKdf } from '../test-support/full-backup-test-kit.ts';
import { encodeBase64 } from '../encoding/base64.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { createAnnotation } from '../commands/annotation-commands.ts';
import {
  concatBytes,
  FULL_BACKUP_MAGIC,
  fullBackupFileName,
  fullBackupTables,
  u32,
} from './full-backup-format.ts';
import { checkFullBackupRequest, queueFullBackupJob, runRestoreJob } from './full-backup-jobs.ts';
import { inspectFullBackup, openFullBackup } from './full-backup-reader.ts';
import { restoreFullBackup } from './full-backup-restore.ts';
import { writeFullBackup, type WriteFullBackupOptions } from './full-backup-writer.ts';
import type { Dataset, DatasetFile, Job } from '../store/local-records.ts';
import type { LocalStore, TableName } from '../store/local-store.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { outboxFields } from '../merge/outbox-changes.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import { revertToNewEpoch } from '../sync/sync-reset.ts';
import { createTag, deleteTag, tagBills } from '../commands/tag-commands.ts';
import { digestOf } from './full-backup-crypto.ts';
import {
  billIdOf,
  everything,
  rowsOf,
  storeWithBills,
  T0,
} from '../test-support/bill-command-harness.ts';
import { newDataKey, webCrypto } from '../test-support/sync-devices.ts';
import { trackBill } from '../commands/triage-commands.ts';

const RED = '#cc0000';

function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let offset = 0; offset < length; offset += 65_536) {
    webCrypto.getRandomValues(bytes.subarray(offset, Math.min(length, offset + 65_536)));
  }
  return bytes;
}

/** A device with something in every table, a device secret and a full backup of its own. */
async function fullDevice(): Promise<{ store: LocalStore; fileBytes: Uint8Array }> {
  const { store, context } = await storeWithBills(30);
  const tag = await createTag(context, {
    name: 'Housing <img src=x onerror=alert(1)>',
    color: RED,
  });
  await tagBills(context, [billIdOf(1), billIdOf(2)], tag.id);
  await setPosition(context, billIdOf(3), 'oppose');
  await setPositionReason(context, billIdOf(3), 'Costs <b>too</b> much — التكلفة');
  await trackBill(context, billIdOf(4));
  await createAnnotation(context, {
    billId: billIdOf(1),
    target: 'title',
    start: 2,
    end: 6,
    color: RED,
    note: 'قانون — a note',
  });
  const fileBytes = randomBytes(300_000);
  const dataset: Dataset = {
    id: 'dataset-1',
    name: 'Congress 119',
    origin: { kind: 'files', fileIds: ['file-1'] },
    jurisdiction: 'us',
    session: '119',
    format: 'congress-json',
    billCount: 30,
    lastImportAt: '2025-01-15T12:00:00.000Z',
    lastJobId: 'job-1',
    state: 'ready',
    createdAt: '2025-01-15T12:00:00.000Z',
    updatedAt: '2025-01-15T12:00:00.000Z',
  };
  const file: DatasetFile = {
    id: 'file-1',
    datasetId: 'dataset-1',
    name: 'bills.zip',
    size: fileBytes.length,
    bytes: fileBytes,
    addedAt: '2025-01-15T12:00:00.000Z',
  };
  const job: Job = {
    id: 'job-1',
    kind: 'import',
    subjectId: 'dataset-1',
    status: 'done',
    createdAt: '2025-01-15T12:00:00.000Z',
    startedAt: '2025-01-15T12:00:00.000Z',
    finishedAt: '2025-01-15T12:00:01.000Z',
    progress: { recordsRead: 30, written: 30, skipped: 0, total: 30 },
    result: { added: 30, updated: 0, unchanged: 0, removed: 0 },
    errors: [],
    message: null,
  };
  const secret = await newDataKey();
  await store.write(
    [
      'datasets',
      'datasetFiles',
      'jobs',
      'settings',
      'trace',
      'backups',
      'importStaging',
      'fullBackups',
    ],
    async (tx) => {
      await tx.put('datasets', dataset);
      await tx.put('datasetFiles', file);
      await tx.put('jobs', job);
      await tx.put('settings', { key: 'device:id', value: 'device-a' });
      await tx.put('settings', { key: 'device:cloud-keys:user-1', value: { dataKey: secret } });
      await tx.put('settings', { key: 'theme', value: { dark: true, sizes: [1, 2] } });
      await tx.put('trace', {
        id: 't-1',
        at: '2025-01-15T12:00:00.000Z',
        kind: 'sync',
        durationMs: 5,
        details: { pushed: 3 },
      });
      await tx.put('backups', {
        id: 'b-1',
        name: 'Server one',
        description: '',
        createdAt: '2025-01-15T12:00:00.000Z',
        size: 10,
      });
      await tx.put('importStaging', {
        id: 'job-9|checkpoint',
        jobId: 'job-9',
        kind: 'checkpoint',
        fingerprint: 'f',
        recordsConsumed: 3,
        errorCount: 0,
      });
      await tx.put('fullBackups', {
        id: 'fb-old',
        name: 'Old',
        createdAt: '2025-01-01T00:00:00.000Z',
        encrypted: false,
        size: 3,
        bytes: new Uint8Array([1, 2, 3]),
      });
    },
  );
  return { store, fileBytes };
}

function options(extra: Partial<WriteFullBackupOptions> = {}): WriteFullBackupOptions {
  return {
    name: 'Before the trip',
    nowMs: T0 + 60_000,
    reason: 'manual',
    crypto: webCrypto,
    deviceId: 'device-a',
    kdf: quickKdf,
    // Small chunks, so every table of any size spans several.
    chunkText: 2_000,
    chunkBinary: 100_000,
    ...extra,
  };
}

/** A fresh device: nothing but its own id. */
async function freshDevice(id = 'device-b'): Promise<LocalStore> {
  const store = createMemoryLocalStore();
  await store.write(['settings'], (tx) => tx.put('settings', { key: 'device:id', value: id }));
  return store;
}

const restoredTables = fullBackupTables.filter(
  (table) => !['outbox', 'syncState', 'settings'].includes(table),
);

async function expectSameData(from: LocalStore, to: LocalStore): Promise<void> {
  const before = await everything(from);
  const after = await everything(to);
  // Bytes compared as base64: a deep comparison of a large array element by element is slow.
  const plain = (table: TableName, rows: unknown[]) =>
    table === 'datasetFiles'
      ? (rows as DatasetFile[]).map((row) => ({ ...row, bytes: encodeBase64(row.bytes) }))
      : rows;
  for (const table of restoredTables) {
    expect(plain(table, after[table]), table).toEqual(plain(table, before[table]));
  }
  const settings = (rows: unknown[]) =>
    (rows as { key: string }[]).filter((row) => !row.key.startsWith('device:'));
  expect(settings(after.settings)).toEqual(settings(before.settings));
}

describe('a full backup file', () => {
  it('round-trips every table, file bytes included, without a passphrase', async () => {
    const { store, fileBytes } = await fullDevice();
    const written = await writeFullBackup(store, options());
    expect(written.encrypted).toBe(false);
    expect(written.manifest.chunkCount).toBeGreaterThan(fullBackupTables.length);
    expect(written.manifest.skippedSettings).toBe(1);
    expect(written.manifest.tables.fullBackups).toBeUndefined();
    expect(written.manifest.tables.bills).toBe(30);
    expect(written.manifest.datasets).toEqual([
      { id: 'dataset-1', name: 'Congress 119', files: 1, bytes: fileBytes.length },
    ]);
    expect(inspectFullBackup(written.bytes)).toEqual({
      version: 2,
      encrypted: false,
      createdAt: new Date(T0 + 60_000).toISOString(),
    });

    const opened = await openFullBackup(written.bytes, { crypto: webCrypto });
    expect(opened.manifest.name).toBe('Before the trip');
    const target = await freshDevice();
    await restoreFullBackup(target, opened, {
      deviceId: 'device-b',
      nowMs: T0 + 120_000,
      keepJobIds: [],
    });
    await expectSameData(store, target);
    const [file] = await rowsOf(target, 'datasetFiles');
    expect(encodeBase64(file?.bytes ?? new Uint8Array())).toBe(encodeBase64(fileBytes));
    // The device secret never left; this device keeps its own id.
    const settings = await rowsOf(target, 'settings');
    expect(settings.find((row) => row.key.startsWith('device:cloud-keys:'))).toBeUndefined();
    expect(settings.find((row) => row.key === 'device:id')?.value).toBe('device-b');
    expect(await rowsOf(target, 'fullBackups')).toEqual([]);
  });

  it('round-trips with a passphrase, and asks for it', async () => {
    const { store } = await fullDevice();
    const written = await writeFullBackup(store, options({ passphrase: 'correct horse' }));
    expect(written.encrypted).toBe(true);
    expect(inspectFullBackup(written.bytes).encrypted).toBe(true);
    // Nothing the user made is readable without the passphrase.
    const text = Array.from(written.bytes, (byte) => String.fromCharCode(byte)).join('');
    expect(text).not.toContain('Congress 119');
    expect(text).not.toContain('Housing');

    expect(
      (await fullBackupRefusal(openFullBackup(written.bytes, { crypto: webCrypto }))).code,
    ).toBe('needs-passphrase');
    const wrong = await fullBackupRefusal(
      openFullBackup(written.bytes, { crypto: webCrypto, passphrase: 'wrong horse' }),
    );
    expect(wrong.code).toBe('wrong-passphrase');
    expect(wrong.message).toBe(
      'That passphrase does not open this full backup. Check it and try again.',
    );

    const opened = await openFullBackup(written.bytes, {
      crypto: webCrypto,
      passphrase: 'correct horse',
    });
    const target = await freshDevice();
    await restoreFullBackup(target, opened, {
      deviceId: 'device-b',
      nowMs: T0 + 120_000,
      keepJobIds: [],
    });
    await expectSameData(store, target);
  });

  it('refuses a truncated file, wherever it was cut', async () => {
    const { store } = await fullDevice();
    for (const passphrase of ['', 'pass']) {
      const { bytes } = await writeFullBackup(store, options({ passphrase }));
      for (const length of [
        3,
        10,
        14,
        100,
        Math.floor(bytes.length / 2),
        bytes.length - 33,
        bytes.length - 1,
      ]) {
        const error = await fullBackupRefusal(
          openFullBackup(bytes.slice(0, length), { crypto: webCrypto, passphrase }),
        );
        expect(error.code, `cut at ${length}`).toBe('truncated');
      }
    }
  });

  it('refuses a file with one byte changed', async () => {
    const { store } = await fullDevice();
    for (const passphrase of ['', 'pass']) {
      const { bytes } = await writeFullBackup(store, options({ passphrase }));
      for (const at of [9, 40, Math.floor(bytes.length / 3), bytes.length - 40, bytes.length - 5]) {
        const edited = bytes.slice();
        edited[at] = (edited[at] ?? 0) ^ 0x01;
        const error = await fullBackupRefusal(
          openFullBackup(edited, { crypto: webCrypto, passphrase }),
        );
        expect(['damaged', 'truncated', 'not-a-backup'], `byte ${at}`).toContain(error.code);
      }
    }
  });

  it('refuses an encrypted file edited with its digest made to match, or its chunks swapped', async () => {
    const { store } = await fullDevice();
    const { bytes } = await writeFullBackup(store, options({ passphrase: 'pass' }));
    const redigest = async (body: Uint8Array) => {
      const out = new Uint8Array(body.length + 32);
      out.set(body);
      out.set(await digestOf([body]), body.length);
      return out;
    };
    const body = bytes.slice(0, bytes.length - 32);
    const edited = body.slice();
    const at = Math.floor(edited.length / 2);
    edited[at] = (edited[at] ?? 0) ^ 0x80;
    expect(
      (
        await fullBackupRefusal(
          openFullBackup(await redigest(edited), { crypto: webCrypto, passphrase: 'pass' }),
        )
      ).code,
    ).toBe('tampered');

    // Chunks: the header ends at 12 + its length; swap the first two.
    const view = new DataView(body.buffer, body.byteOffset);
    const start = 12 + view.getUint32(8);
    const first = 4 + view.getUint32(start);
    const second = 4 + view.getUint32(start + first);
    const swapped = new Uint8Array(body.length);
    swapped.set(body.subarray(0, start));
    swapped.set(body.subarray(start + first, start + first + second), start);
    swapped.set(body.subarray(start, start + first), start + second);
    swapped.set(body.subarray(start + first + second), start + first + second);
    expect(
      (
        await fullBackupRefusal(
          openFullBackup(await redigest(swapped), { crypto: webCrypto, passphrase: 'pass' }),
        )
      ).code,
    ).toBe('tampered');
  });

  it('refuses files that are not full backups', async () => {
    const { gzipSync } = await import('fflate');
    const cases = [
      new Uint8Array(),
      encodeUtf8('{"format":"something-else"}'),
      gzipSync(encodeUtf8('{"format":"docket-changes","version":1}')),
      randomBytes(1000),
    ];
    for (const bytes of cases) {
      const error = await fullBackupRefusal(openFullBackup(bytes, { crypto: webCrypto }));
      expect(error.code).toBe('not-a-backup');
      expect(error.message).toBe('This file is not a Docket full backup.');
    }
  });

  it('refuses a file from a newer version of Docket, saying so', async () => {
    const header = encodeUtf8(JSON.stringify({ format: 'docket-full-backup', version: 3 }));
    const body = concatBytes([FULL_BACKUP_MAGIC, u32(header.length), header, u32(0)]);
    const file = concatBytes([body, await digestOf([body])]);
    const error = await fullBackupRefusal(openFullBackup(file, { crypto: webCrypto }));
    expect(error.code).toBe('unsupported-version');
    expect(error.message).toContain('newer version of Docket');
  });

  it('reads and restores the version 1 file a reset revert writes', async () => {
    const { store, context } = await storeWithBills(5);
    const tag = await createTag(context, { name: 'Housing', color: RED });
    await tagBills(context, [billIdOf(1)], tag.id);
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: 'device:sync-cursor:user-1', value: { epoch: 0, seqno: 3 } }),
    );
    await revertToNewEpoch(store, {
      userId: 'user-1',
      epoch: 1,
      epochStartSeqno: 7,
      nowMs: T0,
      backupId: 'fb-1',
    });
    const [stored] = await rowsOf(store, 'fullBackups');
    if (stored === undefined) throw new Error('no backup');
    expect(inspectFullBackup(stored.bytes)).toMatchObject({ version: 1, encrypted: false });
    const opened = await openFullBackup(stored.bytes, { crypto: webCrypto });
    expect(opened.manifest.scope).toBe('user-data');
    expect(opened.manifest.tables.tags).toBe(1);
    expect(opened.manifest.tables.billTags).toBe(1);
    expect(opened.manifest.tables.bills).toBeUndefined();

    expect(await rowsOf(store, 'tags')).toEqual([]);
    await restoreFullBackup(store, opened, {
      deviceId: context.deviceId,
      nowMs: T0 + 1000,
      keepJobIds: [],
    });
    expect((await rowsOf(store, 'tags')).map((row) => row.name)).toEqual(['Housing']);
    expect(await rowsOf(store, 'billTags')).toHaveLength(1);
    // Tables the version 1 file does not hold are left alone.
    expect(await rowsOf(store, 'bills')).toHaveLength(5);
  });
});

describe('a restore', () => {
  it('writes synced rows through the outbox, deletes what the backup lacks and keeps device settings', async () => {
    const { store, context } = await storeWithBills(5);
    const housing = await createTag(context, { name: 'Housing', color: RED });
    await tagBills(context, [billIdOf(1)], housing.id);
    const { bytes } = await writeFullBackup(store, options());

    // Later, on the same device: the tag is deleted, another made; the restore brings it back.
    context.setNow(T0 + 3_600_000);
    await deleteTag(context, housing.id);
    const rent = await createTag(context, { name: 'Rent', color: RED });
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: 'device:deck-filter', value: { status: 'passed' } }),
    );
    const deviceTrace = {
      id: 't-after',
      at: '2025-01-15T13:00:00.000Z',
      kind: 'sync',
      durationMs: 4,
      details: { pushed: 1 },
    };
    await store.write(['trace'], (tx) => tx.put('trace', deviceTrace));
    const clockBefore = (await rowsOf(store, 'settings')).find(
      (row) => row.key === 'device:clock',
    )?.value;
    const outboxBefore = (await rowsOf(store, 'outbox')).length;

    const opened = await openFullBackup(bytes, { crypto: webCrypto });
    const summary = await restoreFullBackup(store, opened, {
      deviceId: context.deviceId,
      nowMs: T0 + 7_200_000,
      keepJobIds: [],
    });
    expect((await rowsOf(store, 'tags')).map((row) => row.name)).toEqual(['Housing']);
    expect(await rowsOf(store, 'billTags')).toHaveLength(1);
    expect(summary.removed).toBe(1);

    const added = (await rowsOf(store, 'outbox')).slice(outboxBefore);
    const puts = added.filter((entry) => entry.op === 'put');
    expect(puts.map((entry) => `${entry.table} ${entry.rowId}`).sort()).toEqual(
      [`billTags ${billIdOf(1)}|${housing.id}`, `tags ${housing.id}`].sort(),
    );
    const tagPut = puts.find((entry) => entry.table === 'tags');
    expect(tagPut === undefined ? null : outboxFields(tagPut)?.name?.value).toBe('Housing');
    expect(added.filter((entry) => entry.op === 'delete').map((entry) => entry.rowId)).toEqual([
      rent.id,
    ]);
    // Fresh clocks, after everything the device did before: they win when synced.
    for (const entry of added) expect(entry.id > String(clockBefore)).toBe(true);
    const states = await rowsOf(store, 'syncState');
    expect(states.find((state) => state.rowId === rent.id)?.deletedAt).not.toBeNull();

    const settings = await rowsOf(store, 'settings');
    expect(settings.find((row) => row.key === 'device:deck-filter')?.value).toEqual({
      status: 'passed',
    });
    expect(settings.find((row) => row.key === 'device:clock')?.value).not.toBe(clockBefore);
    // The device's trace stays whole: what happened here, after the backup, is not forgotten.
    expect(await rowsOf(store, 'trace')).toContainEqual(deviceTrace);
  });

  it('as a job: refuses a wrong passphrase changing nothing, then saves the device first and restores', async () => {
    const { store, context } = await storeWithBills(5);
    await createTag(context, { name: 'Housing', color: RED });
    const { bytes } = await writeFullBackup(store, options({ passphrase: 'pass' }));
    await createTag(context, { name: 'Made after', color: RED });
    let id = 0;
    const jobContext = {
      store,
      crypto: webCrypto,
      deviceId: context.deviceId,
      now: () => T0 + 10_000,
      newId: () => `id-${++id}`,
      kdf: quickKdf,
    };

    await queueFullBackupJob(
      store,
      { id: 'restore-1', kind: 'full-backup-restore', subjectId: 'file', label: 'the file' },
      T0,
    );
    const before = await everything(store);
    const error = await fullBackupRefusal(
      runRestoreJob(jobContext, {
        jobId: 'restore-1',
        bytes,
        passphrase: 'nope',
        label: 'the file',
      }),
    );
    expect(error.code).toBe('wrong-passphrase');
    const after = await everything(store);
    for (const table of Object.keys(before) as TableName[]) {
      if (table !== 'jobs') expect(after[table], table).toEqual(before[table]);
    }
    const [failed] = await rowsOf(store, 'jobs');
    expect(failed).toMatchObject({ status: 'failed', message: error.message });

    await queueFullBackupJob(
      store,
      { id: 'restore-2', kind: 'full-backup-restore', subjectId: 'file', label: 'the file' },
      T0,
    );
    const result = await runRestoreJob(jobContext, {
      jobId: 'restore-2',
      bytes,
      passphrase: 'pass',
      label: 'the file',
    });
    expect((await rowsOf(store, 'tags')).map((row) => row.name)).toEqual(['Housing']);
    expect(result.before.name).toMatch(/^Before restoring "the file"/);
    const backups = await rowsOf(store, 'fullBackups');
    expect(backups.map((backup) => backup.name)).toEqual([result.before.name]);
    // The automatic backup holds what was there: restoring it undoes the restore.
    const undo = await openFullBackup(backups[0]?.bytes ?? new Uint8Array(), {
      crypto: webCrypto,
    });
    expect(undo.manifest.tables.tags).toBe(2);
    const jobs = await rowsOf(store, 'jobs');
    expect(jobs.find((job) => job.id === 'restore-2')).toMatchObject({
      status: 'done',
      result: { removed: 1 },
    });
    expect(jobs.find((job) => job.kind === 'full-backup')?.status).toBe('done');
    // This device's history of full backups and restores stays, the failed attempt included.
    expect(jobs.find((job) => job.id === 'restore-1')?.status).toBe('failed');
  });
});

describe('the form and the file name', () => {
  it('checks the name and the passphrase confirmation', () => {
    expect(checkFullBackupRequest({ name: ' Trip ', passphrase: '', confirmation: '' })).toEqual({
      name: 'Trip',
    });
    expect(() => checkFullBackupRequest({ name: ' ', passphrase: '', confirmation: '' })).toThrow(
      'Give the full backup a name.',
    );
    expect(() => checkFullBackupRequest({ name: 'x', passphrase: 'a', confirmation: 'b' })).toThrow(
      'The two passphrases are not the same.',
    );
  });

  it('names the download after the day it was made', () => {
    expect(fullBackupFileName('2026-11-22T08:00:00.000Z')).toBe(
      'docket-full-backup-2026-11-22.docket-backup',
    );
  });
});

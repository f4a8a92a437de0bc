import { MAX_ENVELOPE_BYTES, MAX_PUSH_BODY_BYTES } from '@docket/protocol/sync-changes';
import { describe, expect, it } from 'vitest';
import { createAnnotation, NOTE_MAX } from '../commands/annotation-commands.ts';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import { sealEnvelope } from '../crypto/sync-crypto.ts';
import { runSync, type SyncRunReport } from './sync-engine.ts';
import { SyncEngineError } from './sync-errors.ts';
import { skipUnreadableChange, skipUnsendableChange, syncCursorSetting } from './sync-cursor.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import { createTag, deleteTag, renameTag, tagBills } from '../commands/tag-commands.ts';
import { trackBill } from '../commands/triage-commands.ts';
import {
  billIdOf,
  everything,
  rowsOf,
  T0,
  type TestContext,
} from '../test-support/bill-command-harness.ts';
import {
  newDataKey,
  syncedRowsOf,
  testDevice,
  USER,
  webCrypto,
} from '../test-support/sync-devices.ts';
import { TestLogError, TestSyncLog, testTransport } from '../test-support/sync-log-server.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';

const RED = '#cc0000';

async function twoDevices() {
  const log = new TestSyncLog();
  const key = await newDataKey();
  const a = await testDevice('device-a', log, key);
  const b = await testDevice('device-b', log, key);
  return { log, key, a, b };
}

/** A change sealed with the right key by a device that does not follow the format. */
async function pushForeign(
  log: TestSyncLog,
  key: Awaited<ReturnType<typeof newDataKey>>,
  payload: unknown,
) {
  const batchId = 'device-x.foreign.1';
  const ciphertext = await sealEnvelope(
    webCrypto,
    key,
    encodeUtf8(typeof payload === 'string' ? payload : JSON.stringify(payload)),
    { userId: USER, epoch: 0, batchId },
  );
  log.push({
    batchId,
    deviceId: 'device-x',
    epoch: 0,
    envelopes: [{ id: '001736942400000-0000-device-x', ciphertext }],
  });
}

/** An annotation on a bill's title with a note of `note` repeated to the longest a note may be. */
function annotateAtLength(context: TestContext, bill: number, note: string) {
  return createAnnotation(context, {
    billId: billIdOf(bill),
    target: 'title',
    start: 0,
    end: 6,
    color: RED,
    note: note.repeat(NOTE_MAX / note.length),
  });
}

describe('the sync engine', () => {
  it('carries a tag, its use on a bill, a position and a decision to another device', async () => {
    const { a, b } = await twoDevices();
    const tag = await createTag(a.context, { name: 'Housing', color: RED });
    await tagBills(a.context, [billIdOf(1), billIdOf(2)], tag.id);
    await setPosition(a.context, billIdOf(1), 'support');
    await trackBill(a.context, billIdOf(2));

    const pushed = await a.sync();
    expect(pushed.pushed).toBe(5);
    expect(await rowsOf(a.store, 'outbox')).toEqual([]);
    const pulled = await b.sync();
    expect(pulled.pulled).toBe(5);
    expect(await syncedRowsOf(b.store)).toEqual(await syncedRowsOf(a.store));
    expect((await rowsOf(b.store, 'tags')).map((row) => row.name)).toEqual(['Housing']);
  });

  it('keeps a position chosen on one device and its reason typed on another, on both', async () => {
    const { a, b } = await twoDevices();
    await setPosition(a.context, billIdOf(1), 'watch');
    await a.sync();
    await b.sync();
    a.context.setNow(T0 + 1000);
    b.context.setNow(T0 + 2000);
    await setPosition(a.context, billIdOf(1), 'oppose');
    await setPositionReason(b.context, billIdOf(1), 'Cuts the shelter budget');
    await b.sync();
    await a.sync();
    await b.sync();
    expect(await rowsOf(a.store, 'positions')).toMatchObject([
      { billId: billIdOf(1), position: 'oppose', reason: 'Cuts the shelter budget' },
    ]);
    expect(await syncedRowsOf(b.store)).toEqual(await syncedRowsOf(a.store));
  });

  it('lets the later of two concurrent renames win on both devices', async () => {
    const { a, b } = await twoDevices();
    const tag = await createTag(a.context, { name: 'Housing', color: RED });
    await a.sync();
    await b.sync();
    a.context.setNow(T0 + 1000);
    b.context.setNow(T0 + 2000);
    await renameTag(a.context, tag.id, 'Homes');
    await renameTag(b.context, tag.id, 'Shelter');
    // Whatever the order of the syncs.
    await b.sync();
    await a.sync();
    await b.sync();
    expect((await rowsOf(a.store, 'tags')).map((row) => row.name)).toEqual(['Shelter']);
    // A's name was replaced: A keeps it in History, which reaches B with A's next push.
    await a.sync();
    await b.sync();
    expect((await rowsOf(b.store, 'billHistory')).map((row) => [row.before, row.after])).toEqual([
      ['Homes', 'Shelter'],
    ]);
    expect(await syncedRowsOf(b.store)).toEqual(await syncedRowsOf(a.store));
  });

  it('keeps a tag deleted on one device deleted when another renamed it meanwhile', async () => {
    const { a, b } = await twoDevices();
    const tag = await createTag(a.context, { name: 'Housing', color: RED });
    await a.sync();
    await b.sync();
    b.context.setNow(T0 + 5000);
    await renameTag(b.context, tag.id, 'Homes');
    a.context.setNow(T0 + 1000);
    await deleteTag(a.context, tag.id);
    await a.sync();
    await b.sync();
    await a.sync();
    expect(await rowsOf(a.store, 'tags')).toEqual([]);
    expect(await rowsOf(b.store, 'tags')).toEqual([]);
  });

  it('pushes a batch whose answer was lost once, and removes the outbox only on the ack', async () => {
    const { log, a, b } = await twoDevices();
    await createTag(a.context, { name: 'Housing', color: RED });
    await expect(a.sync({ delivery: () => 'lose-answer' })).rejects.toBeInstanceOf(TestLogError);
    expect(log.changes).toHaveLength(1);
    expect(await rowsOf(a.store, 'outbox')).toHaveLength(1);

    const again = await a.sync();
    expect(again.pushed).toBe(1);
    expect(log.changes).toHaveLength(1);
    expect(await rowsOf(a.store, 'outbox')).toEqual([]);
    await b.sync();
    expect((await rowsOf(b.store, 'tags')).map((row) => row.name)).toEqual(['Housing']);
  });

  it('pages pushes, envelopes and pulls, and skips its own changes when nobody wrote between', async () => {
    const { log, a, b } = await twoDevices();
    for (let n = 0; n < 7; n++) await createTag(a.context, { name: `Tag ${n}`, color: RED });
    const limits = { entriesPerPush: 3, entriesPerEnvelope: 2, pullLimit: 2 };
    await a.sync({ limits });
    // 3 pushes (3 + 3 + 1 entries) of 2 + 2 + 1 envelopes.
    expect(log.changes).toHaveLength(5);
    const cursor = await a.store.read(['settings'], (tx) =>
      tx.get('settings', syncCursorSetting(USER)),
    );
    expect(cursor?.value).toEqual({ epoch: 0, seqno: 5 });
    const pulled = await b.sync({ limits });
    expect(pulled.pulled).toBe(7);
    expect(await syncedRowsOf(b.store)).toEqual(await syncedRowsOf(a.store));
  });

  it('refuses a tampered change with a clear error and changes nothing', async () => {
    const { log, a, b } = await twoDevices();
    await createTag(a.context, { name: 'Housing', color: RED });
    await a.sync();
    const stored = log.changes[0];
    if (stored === undefined) throw new Error('nothing pushed');
    const bytes = decodeBase64(stored.ciphertext) ?? new Uint8Array();
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    log.changes[0] = { ...stored, ciphertext: encodeBase64(bytes) };

    const before = await everything(b.store);
    const failure = await b.sync().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SyncEngineError);
    expect((failure as SyncEngineError).code).toBe('tampered');
    expect((failure as Error).message).toMatch(/integrity check/);
    expect(await everything(b.store)).toEqual(before);

    // The repair: skip that change; what came after it syncs.
    expect((failure as SyncEngineError).seqno).toBe(1);
    await createTag(a.context, { name: 'Schools', color: RED });
    await a.sync();
    await skipUnreadableChange(b.store, USER, 1);
    await b.sync();
    expect((await rowsOf(b.store, 'tags')).map((row) => row.name)).toEqual(['Schools']);
  });

  it('refuses a change sealed with another key, or moved to another user', async () => {
    const { log, a } = await twoDevices();
    const stranger = await testDevice('device-c', log, await newDataKey());
    await createTag(a.context, { name: 'Housing', color: RED });
    await a.sync();
    await expect(stranger.sync()).rejects.toMatchObject({ code: 'tampered' });

    const otherUser = runSync({
      store: stranger.store,
      transport: testTransport(log),
      crypto: webCrypto,
      session: {
        userId: 'user-2',
        deviceId: 'device-c',
        epoch: 0,
        dataKey: await newDataKey(),
        epochStartSeqno: 0,
      },
    });
    await expect(otherUser).rejects.toMatchObject({ code: 'tampered' });
    expect(await rowsOf(stranger.store, 'tags')).toEqual([]);
  });

  it('refuses changes that open but are not mergeable, and is not fooled by __proto__', async () => {
    const { log, key, b } = await twoDevices();
    // As JSON text: in an object literal `__proto__` would set the prototype, not a field.
    const clock = '001736942400000-0000-device-x';
    const change = (fields: string) =>
      `{"format":"docket-changes","version":1,"changes":[{"id":"${clock}","table":"tags",` +
      `"rowId":"tag-x","op":"put","fields":${fields}}]}`;
    await pushForeign(
      log,
      key,
      change(`{"__proto__":{"value":{"polluted":true},"hlc":"${clock}"}}`),
    );
    const before = await everything(b.store);
    await b.sync();
    expect(await everything(b.store)).toEqual({
      ...before,
      settings: expect.any(Array) as unknown,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const second = new TestSyncLog();
    const e = await testDevice('device-e', second, key);
    await pushForeign(second, key, change(`{"bad name":{"value":"x","hlc":"${clock}"}}`));
    const untouched = await everything(e.store);
    await expect(e.sync()).rejects.toMatchObject({ code: 'invalid-change' });
    expect(await everything(e.store)).toEqual(untouched);

    const other = new TestSyncLog();
    const c = await testDevice('device-c', other, key);
    await pushForeign(other, key, { format: 'docket-changes', version: 2, changes: [] });
    await expect(c.sync()).rejects.toMatchObject({ code: 'invalid-change' });

    const third = new TestSyncLog();
    const d = await testDevice('device-d', third, key);
    await pushForeign(third, key, '{"format":"docket-changes",');
    await expect(d.sync()).rejects.toMatchObject({ code: 'invalid-change' });
  });

  it('merges a valid change to an unknown table field as no row rather than a broken one', async () => {
    const { log, key, b } = await twoDevices();
    await pushForeign(log, key, {
      format: 'docket-changes',
      version: 1,
      changes: [
        {
          id: '001736942400000-0000-device-x',
          table: 'tags',
          rowId: 'tag-x',
          op: 'put',
          fields: { name: { value: 42, hlc: '001736942400000-0000-device-x' } },
        },
      ],
    });
    await b.sync();
    expect(await rowsOf(b.store, 'tags')).toEqual([]);
  });

  it('stops on a change dated far in the future, naming the device', async () => {
    const { log, key, b } = await twoDevices();
    const future = String(T0 + 3_600_000).padStart(15, '0');
    await pushForeign(log, key, {
      format: 'docket-changes',
      version: 1,
      changes: [
        {
          id: `${future}-0000-device-x`,
          table: 'positions',
          rowId: billIdOf(1),
          op: 'put',
          fields: {
            position: { value: 'oppose', hlc: `${future}-0000-device-x` },
            updatedAt: { value: '2025-01-15T13:00:00.000Z', hlc: `${future}-0000-device-x` },
          },
        },
      ],
    });
    await expect(b.sync()).rejects.toMatchObject({
      code: 'clock-drift',
      message: expect.stringMatching(/device-x/) as unknown,
    });
    expect(await rowsOf(b.store, 'positions')).toEqual([]);
  });

  it('passes on the refusal of a push under an old key epoch, keeping the outbox', async () => {
    const { log, key, a } = await twoDevices();
    await createTag(a.context, { name: 'Housing', color: RED });
    log.keyEpoch = 1;
    const stale = runSync({
      store: a.store,
      transport: testTransport(log),
      crypto: webCrypto,
      session: { userId: USER, deviceId: a.id, epoch: 0, dataKey: key, epochStartSeqno: 0 },
    });
    await expect(stale).rejects.toMatchObject({ code: 'epoch-mismatch' });
    expect(await rowsOf(a.store, 'outbox')).toHaveLength(1);
  });

  it('never sends what the user wrote in the clear', async () => {
    const { log, a } = await twoDevices();
    const tag = await createTag(a.context, { name: 'Secret-Housing-Plan', color: RED });
    await tagBills(a.context, [billIdOf(3)], tag.id);
    await a.sync();
    const wire = JSON.stringify(log.changes);
    const decoded = log.changes
      .map((change) => String.fromCharCode(...(decodeBase64(change.ciphertext) ?? [])))
      .join('');
    for (const secret of ['Secret-Housing-Plan', billIdOf(3), 'tags', 'billTags']) {
      expect(wire).not.toContain(secret);
      expect(decoded).not.toContain(secret);
    }
  });

  it('packs envelopes by size, so the longest notes go under the server’s envelope cap', async () => {
    const { log, a, b } = await twoDevices();
    // 100 kB each: four would make one envelope of 400 kB, which the server always refuses.
    for (let n = 1; n <= 4; n++) await annotateAtLength(a.context, n, 'x');
    const pushed = await a.sync();
    expect(pushed.pushed).toBe(4);
    expect(log.changes.length).toBeGreaterThan(1);
    for (const change of log.changes) {
      expect((change.ciphertext.length / 4) * 3).toBeLessThanOrEqual(MAX_ENVELOPE_BYTES);
    }
    await b.sync();
    expect(await syncedRowsOf(b.store)).toEqual(await syncedRowsOf(a.store));
  });

  it('splits pushes by body size, each the same batch again after a lost answer', async () => {
    const { log, a, b } = await twoDevices();
    // 200 kB each in UTF-8, one an envelope: 45 make about 12 MB of base64, over the 8 MB body cap.
    for (let n = 0; n < 45; n++) await annotateAtLength(a.context, 1 + (n % 5), 'é');
    await expect(a.sync({ delivery: () => 'lose-answer' })).rejects.toBeInstanceOf(TestLogError);
    const firstBatch = log.changes.length;
    expect(firstBatch).toBeGreaterThan(0);
    expect(await rowsOf(a.store, 'outbox')).toHaveLength(45);

    const again = await a.sync();
    expect(again.pushed).toBe(45);
    expect(log.changes).toHaveLength(45);
    const batches = new Set(log.changes.map((change) => change.batchId));
    expect(batches.size).toBeGreaterThan(1);
    for (const batchId of batches) {
      const envelopes = log.changes.filter((change) => change.batchId === batchId);
      const body = JSON.stringify({ batchId, deviceId: a.id, epoch: 0, envelopes });
      expect(body.length).toBeLessThanOrEqual(MAX_PUSH_BODY_BYTES);
    }
    await b.sync();
    expect(await rowsOf(b.store, 'annotations')).toHaveLength(45);
  });

  it('stops on a change too large for any envelope, naming its row, and can skip it', async () => {
    const { log, a, b } = await twoDevices();
    await createTag(a.context, { name: 'Before', color: RED });
    // 100,000 characters of three bytes each: 300 kB, over the envelope cap by itself.
    const huge = await annotateAtLength(a.context, 1, '法');
    await createTag(a.context, { name: 'After', color: RED });

    const failure: unknown = await a.sync().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SyncEngineError);
    expect(failure).toMatchObject({
      code: 'change-too-large',
      entry: { table: 'annotations', rowId: huge.id },
      message: expect.stringContaining(huge.id) as unknown,
    });
    // What came before it went; it and what follows wait, every time.
    expect(log.changes).toHaveLength(1);
    await expect(a.sync()).rejects.toMatchObject({ code: 'change-too-large' });
    expect(await rowsOf(a.store, 'outbox')).toHaveLength(2);

    const entryId = (failure as SyncEngineError).entry?.id ?? '';
    expect(await skipUnsendableChange(a.store, entryId)).toEqual({
      id: entryId,
      table: 'annotations',
      rowId: huge.id,
      op: 'put',
    });
    expect(await skipUnsendableChange(a.store, entryId)).toBeNull();
    expect((await a.sync()).pushed).toBe(1);
    expect(await rowsOf(a.store, 'annotations')).toHaveLength(1);
    await b.sync();
    expect((await rowsOf(b.store, 'tags')).map((tag) => tag.name).sort()).toEqual([
      'After',
      'Before',
    ]);
    expect(await rowsOf(b.store, 'annotations')).toEqual([]);
  });

  it('tells what a run did before it failed midway', async () => {
    const { log, key, a } = await twoDevices();
    await createTag(a.context, { name: 'Housing', color: RED });
    await createTag(a.context, { name: 'Transit', color: RED });
    const inner = testTransport(log);
    const soFar: SyncRunReport[] = [];
    const run = runSync({
      store: a.store,
      transport: {
        ...inner,
        pull: () => Promise.reject(new TestLogError('network', 'The request was lost.')),
      },
      crypto: webCrypto,
      session: { userId: USER, deviceId: a.id, epoch: 0, dataKey: key, epochStartSeqno: 0 },
      onFailure: (report) => soFar.push(report),
    });
    await expect(run).rejects.toBeInstanceOf(TestLogError);
    expect(soFar).toEqual([
      expect.objectContaining({ pushed: 2, pulled: 0, latestSeqno: 1 }) as unknown,
    ]);
    expect(soFar[0]?.bytesUp).toBe(log.changes[0]?.ciphertext.length);
  });
});

import { randomBytes } from 'node:crypto';
import { PROTOCOL_HEADER } from '@docket/protocol/protocol-version';
import { blobPutResponseSchema, MAX_BLOB_BYTES } from '@docket/protocol/sync-blobs';
import {
  MAX_ENVELOPE_BYTES,
  MAX_PUSH_BODY_BYTES,
  MAX_PUSH_ENVELOPES,
  pullResponseSchema,
  pushResponseSchema,
  type SyncChange,
} from '@docket/protocol/sync-changes';
import { syncSettingsConflictSchema, syncSettingsSchema } from '@docket/protocol/sync-settings';
import { base64LengthFor, syncPaths } from '@docket/protocol/sync-wire';
import { describe, expect, it } from 'vitest';
import { SyncChangeRepository } from '../src/repositories/sync-change-repository.ts';
import {
  fakeCiphertext,
  getBlob,
  hasBlob,
  makeBatch,
  passwordSettings,
  pull,
  push,
  putBlob,
  readSettings,
  sha256Hex,
  writeSettings,
} from './sync-client.ts';
import { setup, signUp } from './test-server.ts';

const server = setup();

function app() {
  return server.app;
}

async function pullAll(cookie: string, since = 0, limit = 1000): Promise<SyncChange[]> {
  const changes: SyncChange[] = [];
  for (let cursor = since; ;) {
    const response = await pull(app(), cookie, `since=${cursor}&limit=${limit}`);
    expect(response.statusCode).toBe(200);
    const page = pullResponseSchema.parse(response.json());
    changes.push(...page.changes);
    const last = page.changes.at(-1);
    if (!page.hasMore || last === undefined) return changes;
    cursor = last.seqno;
  }
}

describe('sync settings', () => {
  it('start at version 0 without a cloud password', async () => {
    const { cookie } = await signUp(app());
    const response = await readSettings(app(), cookie);
    expect(response.statusCode).toBe(200);
    expect(syncSettingsSchema.parse(response.json())).toEqual({
      version: 0,
      passwordHash: null,
      keyDerivation: null,
      wrappedDataKey: null,
      keyEpoch: 0,
      epochStartSeqno: 0,
      updatedAt: null,
    });
  });

  it('are written by compare-and-set; a stale version gets 409 with the current settings', async () => {
    const { cookie } = await signUp(app());
    const first = passwordSettings(0, 'first');
    const written = await writeSettings(app(), cookie, 0, first);
    expect(written.statusCode).toBe(200);
    const stored = syncSettingsSchema.parse(written.json());
    expect(stored).toMatchObject({ ...first, version: 1 });
    expect(syncSettingsSchema.parse((await readSettings(app(), cookie)).json())).toEqual(stored);

    const stale = await writeSettings(app(), cookie, 0, passwordSettings(0, 'second'));
    expect(stale.statusCode).toBe(409);
    const conflict = syncSettingsConflictSchema.parse(stale.json());
    expect(conflict.error).toBe('version-conflict');
    expect(conflict.current).toEqual(stored);

    const next = await writeSettings(app(), cookie, 1, passwordSettings(0, 'second'));
    expect(next.statusCode).toBe(200);
    expect(syncSettingsSchema.parse(next.json()).version).toBe(2);
  });

  it('let exactly one of two writes on the same version win', async () => {
    const { cookie } = await signUp(app());
    const results = await Promise.all(
      ['a', 'b', 'c'].map((label) => writeSettings(app(), cookie, 0, passwordSettings(0, label))),
    );
    expect(results.map((response) => response.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = results.find((response) => response.statusCode === 200);
    const current = syncSettingsSchema.parse((await readSettings(app(), cookie)).json());
    expect(current.version).toBe(1);
    expect(current.passwordHash).toBe(syncSettingsSchema.parse(winner?.json()).passwordHash);
  });

  it('refuse a key epoch going down and half a cloud password', async () => {
    const { cookie } = await signUp(app());
    expect((await writeSettings(app(), cookie, 0, passwordSettings(2))).statusCode).toBe(200);
    const back = await writeSettings(app(), cookie, 1, passwordSettings(1));
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({ error: 'epoch-regression' });

    const half = await writeSettings(app(), cookie, 1, {
      ...passwordSettings(2),
      wrappedDataKey: null,
    });
    expect(half.statusCode).toBe(400);
    expect(half.json()).toMatchObject({ error: 'invalid-request' });
    expect(syncSettingsSchema.parse((await readSettings(app(), cookie)).json()).version).toBe(1);
  });
});

describe('push and pull', () => {
  it('is idempotent: the same batch twice gets the same sequence numbers and is stored once', async () => {
    const { cookie } = await signUp(app());
    const batch = makeBatch(3);
    const first = await push(app(), cookie, batch);
    expect(first.statusCode).toBe(200);
    expect(pushResponseSchema.parse(first.json())).toEqual({
      batchId: batch.batchId,
      seqnos: [1, 2, 3],
      duplicate: false,
      latestSeqno: 3,
    });

    const again = await push(app(), cookie, batch);
    expect(again.statusCode).toBe(200);
    expect(pushResponseSchema.parse(again.json())).toEqual({
      batchId: batch.batchId,
      seqnos: [1, 2, 3],
      duplicate: true,
      latestSeqno: 3,
    });

    const changes = await pullAll(cookie);
    expect(changes).toEqual(
      batch.envelopes.map((envelope, index) => ({
        seqno: index + 1,
        id: envelope.id,
        deviceId: batch.deviceId,
        batchId: batch.batchId,
        epoch: 0,
        ciphertext: envelope.ciphertext,
      })),
    );
  });

  it('stores a batch pushed several times at once exactly once', async () => {
    const { cookie } = await signUp(app());
    const batch = makeBatch(4);
    const results = await Promise.all([1, 2, 3].map(() => push(app(), cookie, batch)));
    const acks = results.map((response) => pushResponseSchema.parse(response.json()));
    expect(acks.map((ack) => ack.seqnos)).toEqual([
      [1, 2, 3, 4],
      [1, 2, 3, 4],
      [1, 2, 3, 4],
    ]);
    expect(acks.filter((ack) => !ack.duplicate)).toHaveLength(1);
    expect(await pullAll(cookie)).toHaveLength(4);
  });

  it('refuses a batch id reused for other contents', async () => {
    const { cookie } = await signUp(app());
    const batch = makeBatch(2);
    expect((await push(app(), cookie, batch)).statusCode).toBe(200);
    const reused = await push(app(), cookie, { ...makeBatch(3), batchId: batch.batchId });
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ error: 'batch-conflict' });
    expect(await pullAll(cookie)).toHaveLength(2);
  });

  it('refuses a batch id reused for as many changes with other ids, or the same ids in another order', async () => {
    const { cookie } = await signUp(app());
    const batch = makeBatch(2);
    expect((await push(app(), cookie, batch)).statusCode).toBe(200);
    const [first, second] = batch.envelopes;
    if (first === undefined || second === undefined) throw new Error('two envelopes');

    const otherIds = await push(app(), cookie, {
      ...batch,
      envelopes: [first, { ...second, id: `${second.id}-other` }],
    });
    expect(otherIds.statusCode).toBe(409);
    expect(otherIds.json()).toMatchObject({ error: 'batch-conflict' });

    const reordered = await push(app(), cookie, { ...batch, envelopes: [second, first] });
    expect(reordered.statusCode).toBe(409);
    expect(reordered.json()).toMatchObject({ error: 'batch-conflict' });

    // The same changes again (re-encrypted, as a retry may be) are still a duplicate.
    const retried = await push(app(), cookie, {
      ...batch,
      envelopes: batch.envelopes.map((envelope) => ({ ...envelope, ciphertext: fakeCiphertext() })),
    });
    expect(retried.statusCode).toBe(200);
    expect(pushResponseSchema.parse(retried.json())).toMatchObject({
      seqnos: [1, 2],
      duplicate: true,
    });
    expect((await pullAll(cookie)).map((change) => change.id)).toEqual([first.id, second.id]);
  });

  it('numbers concurrent pushes of one user without duplicates or gaps', async () => {
    const { cookie } = await signUp(app());
    const batches = Array.from({ length: 12 }, (_item, index) => makeBatch((index % 3) + 1));
    const acks = (await Promise.all(batches.map((batch) => push(app(), cookie, batch)))).map(
      (response) => pushResponseSchema.parse(response.json()),
    );
    const total = batches.reduce((sum, batch) => sum + batch.envelopes.length, 0);
    const seqnos = acks.flatMap((ack) => ack.seqnos).sort((a, b) => a - b);
    expect(seqnos).toEqual(Array.from({ length: total }, (_item, index) => index + 1));
    // Each batch's numbers are consecutive: a batch is one transaction under the log lock.
    for (const ack of acks) {
      expect(ack.seqnos).toEqual(ack.seqnos.map((_seqno, index) => (ack.seqnos[0] ?? 0) + index));
    }
    expect((await pullAll(cookie)).map((change) => change.seqno)).toEqual(seqnos);
  });

  it('pages a pull with since and limit, in order, until hasMore is false', async () => {
    const { cookie } = await signUp(app());
    const pushed: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const batch = makeBatch(3);
      pushed.push(...batch.envelopes.map((envelope) => envelope.ciphertext));
      expect((await push(app(), cookie, batch)).statusCode).toBe(200);
    }
    const first = pullResponseSchema.parse((await pull(app(), cookie, 'since=0&limit=4')).json());
    expect(first.changes.map((change) => change.seqno)).toEqual([1, 2, 3, 4]);
    expect(first.hasMore).toBe(true);
    expect(first.latestSeqno).toBe(15);

    const middle = pullResponseSchema.parse((await pull(app(), cookie, 'since=4&limit=10')).json());
    expect(middle.changes.map((change) => change.seqno)).toEqual([
      5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    ]);
    expect(middle.hasMore).toBe(true);

    const last = pullResponseSchema.parse((await pull(app(), cookie, 'since=14&limit=10')).json());
    expect(last.changes.map((change) => change.seqno)).toEqual([15]);
    expect(last.hasMore).toBe(false);

    const done = pullResponseSchema.parse((await pull(app(), cookie, 'since=15')).json());
    expect(done).toEqual({ changes: [], hasMore: false, latestSeqno: 15 });

    expect((await pullAll(cookie, 0, 2)).map((change) => change.ciphertext)).toEqual(pushed);
  });

  it('cuts a page short by the size of its ciphertext, never below one change', async () => {
    const { cookie, userId } = await signUp(app());
    for (let index = 0; index < 3; index += 1) {
      const batch = makeBatch(4);
      for (const envelope of batch.envelopes) envelope.ciphertext = fakeCiphertext(300);
      expect((await push(app(), cookie, batch)).statusCode).toBe(200);
    }
    // The route's target is 4 MiB; the same repository with a 1000-byte target shows the cut.
    const changes = new SyncChangeRepository(server.database.db, 1000);
    const first = await changes.pull(userId, 0, 1000);
    expect(first.changes.map((change) => change.seqno)).toEqual([1, 2, 3]);
    expect(first.hasMore).toBe(true);
    const tiny = new SyncChangeRepository(server.database.db, 10);
    const single = await tiny.pull(userId, 3, 1000);
    expect(single.changes.map((change) => change.seqno)).toEqual([4]);
    expect(single.hasMore).toBe(true);
    const rest = await changes.pull(userId, 9, 1000);
    expect(rest).toMatchObject({ hasMore: false, latestSeqno: 12 });
    expect(rest.changes.map((change) => change.seqno)).toEqual([10, 11, 12]);
  });

  it('refuses bad pull queries', async () => {
    const { cookie } = await signUp(app());
    for (const query of [
      '',
      'since=-1',
      'since=abc',
      'since=0&limit=0',
      'since=0&limit=1001',
      'since=0&x=1',
    ]) {
      const response = await pull(app(), cookie, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ error: 'invalid-request' });
    }
  });
});

describe('key epochs', () => {
  it('refuses a push made under another epoch than the settings', async () => {
    const { cookie } = await signUp(app());
    expect((await push(app(), cookie, makeBatch(2))).statusCode).toBe(200);
    // A password reset elsewhere: a new data key under epoch 1.
    const reset = await writeSettings(app(), cookie, 0, passwordSettings(1));
    expect(syncSettingsSchema.parse(reset.json())).toMatchObject({
      keyEpoch: 1,
      epochStartSeqno: 2,
    });

    const stale = await push(app(), cookie, makeBatch(1, { epoch: 0 }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      error: 'epoch-mismatch',
      message: expect.stringContaining('current key epoch is 1') as unknown,
    });
    const ahead = await push(app(), cookie, makeBatch(1, { epoch: 2 }));
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json()).toMatchObject({ error: 'epoch-mismatch' });

    const current = await push(app(), cookie, makeBatch(1, { epoch: 1 }));
    expect(pushResponseSchema.parse(current.json()).seqnos).toEqual([3]);
    const sinceReset = await pullAll(cookie, 2);
    expect(sinceReset.map((change) => change.epoch)).toEqual([1]);
  });

  it('keeps the epoch start when a password change keeps the epoch', async () => {
    const { cookie } = await signUp(app());
    await writeSettings(app(), cookie, 0, passwordSettings(0));
    await push(app(), cookie, makeBatch(3));
    const changed = await writeSettings(app(), cookie, 1, passwordSettings(0, 'changed'));
    expect(syncSettingsSchema.parse(changed.json())).toMatchObject({
      version: 2,
      keyEpoch: 0,
      epochStartSeqno: 0,
    });
    expect((await push(app(), cookie, makeBatch(1, { epoch: 0 }))).statusCode).toBe(200);
  });
});

describe('blobs', () => {
  it('stores a blob under the SHA-256 of its bytes and hands the same bytes back', async () => {
    const { cookie } = await signUp(app());
    const bytes = randomBytes(100_000);
    const address = sha256Hex(bytes);
    const put = await putBlob(app(), cookie, address, bytes);
    expect(put.statusCode).toBe(201);
    expect(blobPutResponseSchema.parse(put.json())).toEqual({
      sha256: address,
      size: 100_000,
      created: true,
    });

    const again = await putBlob(app(), cookie, address, bytes);
    expect(again.statusCode).toBe(200);
    expect(blobPutResponseSchema.parse(again.json()).created).toBe(false);

    const got = await getBlob(app(), cookie, address);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/octet-stream');
    expect(got.rawPayload.equals(bytes)).toBe(true);
  });

  it('refuses bytes that do not hash to their address, and stores nothing', async () => {
    const { cookie } = await signUp(app());
    const bytes = randomBytes(1000);
    const address = sha256Hex(bytes);
    const tampered = Buffer.from(bytes);
    tampered[10] = (tampered[10] ?? 0) ^ 0xff;
    const response = await putBlob(app(), cookie, address, tampered);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'blob-hash-mismatch' });
    expect((await getBlob(app(), cookie, address)).statusCode).toBe(404);
  });

  it('tells a device whether it has a blob, with its size and without its bytes', async () => {
    const { cookie } = await signUp(app());
    const other = await signUp(app());
    const bytes = randomBytes(4000);
    const address = sha256Hex(bytes);
    const before = await hasBlob(app(), cookie, address);
    expect(before.statusCode).toBe(404);
    expect(before.rawPayload.length).toBe(0);
    expect((await putBlob(app(), cookie, address, bytes)).statusCode).toBe(201);
    const after = await hasBlob(app(), cookie, address);
    expect(after.statusCode).toBe(200);
    expect(after.headers['content-length']).toBe('4000');
    expect(after.rawPayload.length).toBe(0);
    // Another user's blob is as absent as one nobody put.
    expect((await hasBlob(app(), other.cookie, address)).statusCode).toBe(404);
    expect((await hasBlob(app(), '', address)).statusCode).toBe(401);
    expect((await hasBlob(app(), cookie, 'x'.repeat(64))).statusCode).toBe(400);
  });

  it('refuses a malformed address and a body that is not octet-stream', async () => {
    const { cookie } = await signUp(app());
    const bytes = randomBytes(10);
    const upper = await putBlob(app(), cookie, sha256Hex(bytes).toUpperCase(), bytes);
    expect(upper.statusCode).toBe(400);
    expect(upper.json()).toMatchObject({ error: 'invalid-request' });
    const json = await app().inject({
      method: 'PUT',
      url: `${syncPaths.blobs}/${sha256Hex(bytes)}`,
      headers: { cookie },
      payload: { bytes: 'x' },
    });
    expect(json.statusCode).toBe(415);
  });
});

describe("another user's data", () => {
  it('is never shown, found or counted', async () => {
    const alice = await signUp(app());
    const bob = await signUp(app());
    const batch = makeBatch(2);
    await push(app(), alice.cookie, batch);
    await writeSettings(app(), alice.cookie, 0, passwordSettings(0));
    const bytes = randomBytes(500);
    const address = sha256Hex(bytes);
    expect((await putBlob(app(), alice.cookie, address, bytes)).statusCode).toBe(201);

    expect(pullResponseSchema.parse((await pull(app(), bob.cookie, 'since=0')).json())).toEqual({
      changes: [],
      hasMore: false,
      latestSeqno: 0,
    });
    expect(syncSettingsSchema.parse((await readSettings(app(), bob.cookie)).json()).version).toBe(
      0,
    );
    const blob = await getBlob(app(), bob.cookie, address);
    expect(blob.statusCode).toBe(404);
    expect(blob.json()).toMatchObject({ error: 'not-found' });

    // Alice's batch id means nothing in Bob's log: a fresh batch, numbered from Bob's 1.
    const bobs = await push(app(), bob.cookie, { ...makeBatch(1), batchId: batch.batchId });
    expect(pushResponseSchema.parse(bobs.json())).toMatchObject({ seqnos: [1], duplicate: false });
    // And Bob putting the same bytes makes his own copy; Alice's is untouched.
    expect((await putBlob(app(), bob.cookie, address, bytes)).statusCode).toBe(201);
    expect(await pullAll(alice.cookie)).toHaveLength(2);
  });

  it('needs a signed-in user on every sync route', async () => {
    const address = '0'.repeat(64);
    const requests = [
      { method: 'GET', url: syncPaths.settings },
      { method: 'PUT', url: syncPaths.settings, payload: {} },
      { method: 'POST', url: syncPaths.push, payload: {} },
      { method: 'GET', url: `${syncPaths.pull}?since=0` },
      { method: 'GET', url: `${syncPaths.blobs}/${address}` },
      { method: 'GET', url: syncPaths.events },
    ] as const;
    for (const request of requests) {
      const response = await app().inject(request);
      expect(response.statusCode, request.url).toBe(401);
    }
    const blob = await putBlob(app(), '', address, Buffer.from('x'));
    expect(blob.statusCode).toBe(401);
  });
});

describe('size limits', () => {
  it(`refuses more than ${MAX_PUSH_ENVELOPES} envelopes in a push`, async () => {
    const { cookie } = await signUp(app());
    const response = await push(app(), cookie, makeBatch(MAX_PUSH_ENVELOPES + 1));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: 'batch-too-large' });
  });

  it('refuses an envelope over the limit', async () => {
    const { cookie } = await signUp(app());
    const batch = makeBatch(2);
    const [, second] = batch.envelopes;
    if (second) second.ciphertext = fakeCiphertext(MAX_ENVELOPE_BYTES + 1);
    const response = await push(app(), cookie, batch);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: 'envelope-too-large' });
    expect(await pullAll(cookie)).toHaveLength(0);
  });

  it('refuses a push body over the limit', async () => {
    const { cookie } = await signUp(app());
    const envelopes = Math.ceil(MAX_PUSH_BODY_BYTES / (MAX_ENVELOPE_BYTES * (4 / 3))) + 1;
    const batch = makeBatch(envelopes);
    for (const envelope of batch.envelopes)
      envelope.ciphertext = fakeCiphertext(MAX_ENVELOPE_BYTES);
    const response = await push(app(), cookie, batch);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: 'batch-too-large' });
  });

  // The client packs pushes to these caps by computing the body's JSON size before it seals
  // (core's sync-engine.ts): the server must count the same way and take a push right at them.
  it('takes envelopes and a push body exactly at the limits', async () => {
    const { cookie } = await signUp(app());
    const full = Math.floor(MAX_PUSH_BODY_BYTES / base64LengthFor(MAX_ENVELOPE_BYTES));
    const batch = makeBatch(full + 1);
    for (const envelope of batch.envelopes)
      envelope.ciphertext = fakeCiphertext(MAX_ENVELOPE_BYTES);
    const last = batch.envelopes.at(-1);
    if (last === undefined) throw new Error('no envelopes');
    last.ciphertext = '';
    // The last envelope and the batch id take what is left of the body, to the byte.
    const room = MAX_PUSH_BODY_BYTES - JSON.stringify(batch).length;
    last.ciphertext = fakeCiphertext(((room - (room % 4)) / 4) * 3);
    batch.batchId += 'x'.repeat(room % 4);
    expect(JSON.stringify(batch).length).toBe(MAX_PUSH_BODY_BYTES);
    expect(base64LengthFor(MAX_ENVELOPE_BYTES)).toBeGreaterThanOrEqual(last.ciphertext.length);

    const response = await push(app(), cookie, batch);
    expect(response.statusCode).toBe(200);
    expect(await pullAll(cookie)).toHaveLength(full + 1);
  });

  it('refuses a blob over the limit', async () => {
    const { cookie } = await signUp(app());
    const bytes = Buffer.alloc(MAX_BLOB_BYTES + 1);
    const response = await putBlob(app(), cookie, sha256Hex(bytes), bytes);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: 'blob-too-large' });
  });

  it('refuses settings over the JSON body limit', async () => {
    const { cookie } = await signUp(app());
    const response = await writeSettings(app(), cookie, 0, { padding: 'x'.repeat(1024 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: 'too-large' });
  });
});

it('refuses a client on another protocol version before touching the log', async () => {
  const { cookie } = await signUp(app());
  const response = await app().inject({
    method: 'POST',
    url: syncPaths.push,
    headers: { cookie, [PROTOCOL_HEADER]: '1' },
    payload: makeBatch(1),
  });
  expect(response.statusCode).toBe(426);
  expect(response.json()).toMatchObject({ error: 'protocol-mismatch' });
  expect(await pullAll(cookie)).toHaveLength(0);
});

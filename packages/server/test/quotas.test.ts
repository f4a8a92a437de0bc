import { randomBytes, randomUUID } from 'node:crypto';
import { accountUsageResponseSchema } from '@docket/protocol/account-usage';
import { apiErrorSchema } from '@docket/protocol/api-error';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { makeBatch, push, putBlob, sha256Hex } from './sync-client.ts';
import { setup, signUp } from './test-server.ts';

// Each account's room on the server, per kind of data: blobs, the change log, and backups
// together with their links' copies. Past it, 413 quota-exceeded says so in words.

const QUOTA_BYTES = 4096;
const quotaMiB = String(QUOTA_BYTES / (1024 * 1024));
const server = setup({
  env: {
    QUOTA_BLOBS_MIB: quotaMiB,
    QUOTA_LOG_MIB: quotaMiB,
    QUOTA_BACKUPS_MIB: quotaMiB,
  },
});

function app(): FastifyInstance {
  return server.app;
}

const headers = (cookie: string) => ({ cookie, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) });

function expectQuotaExceeded(response: LightMyRequestResponse, what: RegExp): void {
  expect(response.statusCode).toBe(413);
  const body = apiErrorSchema.parse(response.json());
  expect(body.error).toBe('quota-exceeded');
  expect(body.message).toMatch(what);
  expect(body.message).toMatch(/full \(\d+(\.\d+)? KiB of 4 KiB used\)/);
}

function createBackup(cookie: string, bytes: number, id = randomUUID()) {
  return app().inject({
    method: 'POST',
    url: '/api/backups',
    headers: headers(cookie),
    payload: {
      id,
      epoch: 0,
      metadata: randomBytes(80).toString('base64'),
      ciphertext: randomBytes(bytes).toString('base64'),
    },
  });
}

function createLink(cookie: string, backupId: string, bytes: number) {
  return app().inject({
    method: 'POST',
    url: '/api/links',
    headers: headers(cookie),
    payload: {
      id: randomUUID(),
      backupId,
      ciphertext: randomBytes(bytes).toString('base64'),
      expiresAt: null,
    },
  });
}

describe('per-account quotas', () => {
  it('refuse a blob past the blob quota; a blob already there and other accounts are unaffected', async () => {
    const full = await signUp(app());
    const other = await signUp(app());
    const first = randomBytes(3000);
    expect((await putBlob(app(), full.cookie, sha256Hex(first), first)).statusCode).toBe(201);
    expect((await putBlob(app(), full.cookie, sha256Hex(first), first)).statusCode).toBe(200);
    const second = randomBytes(2000);
    expectQuotaExceeded(
      await putBlob(app(), full.cookie, sha256Hex(second), second),
      /space for dataset files/,
    );
    expect((await putBlob(app(), other.cookie, sha256Hex(second), second)).statusCode).toBe(201);
  });

  it('refuse a push past the log quota whole; a repeated batch is still acknowledged', async () => {
    const full = await signUp(app());
    const other = await signUp(app());
    // 40 envelopes of 48 bytes: 1920 bytes of ciphertext a batch.
    const firstBatch = makeBatch(40);
    expect((await push(app(), full.cookie, firstBatch)).statusCode).toBe(200);
    expect((await push(app(), full.cookie, makeBatch(40))).statusCode).toBe(200);
    expectQuotaExceeded(await push(app(), full.cookie, makeBatch(40)), /space for synced changes/);
    expect((await push(app(), full.cookie, firstBatch)).json()).toMatchObject({ duplicate: true });
    expect((await push(app(), other.cookie, makeBatch(40))).statusCode).toBe(200);
  });

  it('count backups and the copies their links hold together; deleting one makes room', async () => {
    const full = await signUp(app());
    // 1500 bytes of contents and 80 of name and description: 1580 a backup.
    const firstId = randomUUID();
    expect((await createBackup(full.cookie, 1500, firstId)).statusCode).toBe(201);
    const second = await createBackup(full.cookie, 1500);
    expect(second.statusCode).toBe(201);
    expectQuotaExceeded(await createBackup(full.cookie, 1500), /space for backups.*Delete backups/);
    const secondId = second.json<{ id: string }>().id;
    expectQuotaExceeded(await createLink(full.cookie, secondId, 1000), /space for backups/);

    const deleted = await app().inject({
      method: 'DELETE',
      url: `/api/backups/${firstId}`,
      headers: headers(full.cookie),
    });
    expect(deleted.statusCode).toBe(200);
    expect((await createLink(full.cookie, secondId, 1000)).statusCode).toBe(201);
  });
});

describe('GET /api/account/usage', () => {
  async function usage(cookie: string) {
    const response = await app().inject({
      method: 'GET',
      url: '/api/account/usage',
      headers: headers(cookie),
    });
    expect(response.statusCode).toBe(200);
    return accountUsageResponseSchema.parse(response.json());
  }

  it("says what the account uses of each quota, counted as the quota counts it, and no one else's", async () => {
    const user = await signUp(app());
    const other = await signUp(app());
    const limits = { limitBytes: QUOTA_BYTES };
    expect(await usage(user.cookie)).toEqual({
      blobs: { usedBytes: 0, ...limits },
      log: { usedBytes: 0, ...limits },
      backups: { usedBytes: 0, ...limits },
    });

    const blob = randomBytes(1000);
    expect((await putBlob(app(), user.cookie, sha256Hex(blob), blob)).statusCode).toBe(201);
    expect((await push(app(), user.cookie, makeBatch(10))).statusCode).toBe(200);
    expect((await createBackup(user.cookie, 1500)).statusCode).toBe(201);
    // 10 envelopes of 48 bytes; 1500 bytes of contents and 80 of name and description.
    expect(await usage(user.cookie)).toEqual({
      blobs: { usedBytes: 1000, ...limits },
      log: { usedBytes: 480, ...limits },
      backups: { usedBytes: 1580, ...limits },
    });
    expect((await usage(other.cookie)).blobs.usedBytes).toBe(0);
  });

  it('is for signed-in users only', async () => {
    const response = await app().inject({ method: 'GET', url: '/api/account/usage' });
    expect(response.statusCode).toBe(401);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import {
  linkListResponseSchema,
  linkSummarySchema,
  MAX_LINK_BYTES,
  publicLinkResponseSchema,
} from '@docket/protocol/public-links';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BackupRepository } from '../src/repositories/backup-repository.ts';
import { PublicLinkRepository } from '../src/repositories/public-link-repository.ts';
import { setup, signUp } from './test-server.ts';

const server = setup();

const headers = (cookie: string) => ({ cookie, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) });

async function backupOf(cookie: string): Promise<string> {
  const id = randomUUID();
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/backups',
    headers: headers(cookie),
    payload: {
      id,
      epoch: 0,
      metadata: randomBytes(40).toString('base64'),
      ciphertext: randomBytes(200).toString('base64'),
    },
  });
  expect(response.statusCode).toBe(201);
  return id;
}

function newLink(backupId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    backupId,
    ciphertext: randomBytes(120).toString('base64'),
    expiresAt: null,
    ...overrides,
  };
}

function createLink(cookie: string, body: unknown) {
  return server.app.inject({
    method: 'POST',
    url: '/api/links',
    headers: headers(cookie),
    payload: body as Record<string, unknown>,
  });
}

function openPublic(id: string) {
  // No cookie, no protocol header: a browser that was sent the link by someone else.
  return server.app.inject({ method: 'GET', url: `/api/links/${id}/public` });
}

function revoke(cookie: string, id: string) {
  return server.app.inject({
    method: 'POST',
    url: `/api/links/${id}/revoke`,
    headers: headers(cookie),
  });
}

async function listLinks(cookie: string, backupId: string) {
  const response = await server.app.inject({
    method: 'GET',
    url: `/api/links?backupId=${backupId}`,
    headers: headers(cookie),
  });
  expect(response.statusCode).toBe(200);
  return linkListResponseSchema.parse(response.json()).links;
}

describe('public links', () => {
  it('hand their ciphertext to anyone signed out, and count the views', async () => {
    const { cookie } = await signUp(server.app);
    const backupId = await backupOf(cookie);
    const link = newLink(backupId);
    const made = await createLink(cookie, link);
    expect(made.statusCode).toBe(201);
    expect(linkSummarySchema.parse(made.json())).toMatchObject({
      id: link.id,
      backupId,
      size: 120,
      viewCount: 0,
      revokedAt: null,
      expiresAt: null,
    });

    for (let view = 0; view < 2; view++) {
      const opened = await openPublic(link.id);
      expect(opened.statusCode).toBe(200);
      expect(publicLinkResponseSchema.parse(opened.json())).toMatchObject({
        id: link.id,
        ciphertext: link.ciphertext,
        expiresAt: null,
      });
    }
    const [listed] = await listLinks(cookie, backupId);
    expect(listed).toMatchObject({ id: link.id, viewCount: 2 });
    expect(listed).not.toHaveProperty('ciphertext');
  });

  it('store ciphertext only: what the server holds is what the client sent', async () => {
    const { cookie } = await signUp(server.app);
    const backupId = await backupOf(cookie);
    const marker = `secret-${randomUUID()}`;
    const link = newLink(backupId);
    expect(
      (
        await server.app.inject({
          method: 'POST',
          url: `/api/links?note=${marker}`,
          headers: { ...headers(cookie), 'x-note': marker },
          payload: link,
        })
      ).statusCode,
    ).toBe(201);
    const plaintext = await createLink(cookie, { ...newLink(backupId), title: marker });
    expect(plaintext.statusCode).toBe(400);
    const rows: unknown = await server.database.db.execute(
      sql`select row_to_json(l)::text as row from public_links l`,
    );
    const text = JSON.stringify((rows as { rows: unknown[] }).rows);
    expect(text).toContain(link.id);
    expect(text).not.toContain(marker);
  });

  it('once revoked say so, drop the ciphertext, and cannot be opened again', async () => {
    const { cookie } = await signUp(server.app);
    const backupId = await backupOf(cookie);
    const link = newLink(backupId);
    expect((await createLink(cookie, link)).statusCode).toBe(201);
    const revoked = await revoke(cookie, link.id);
    expect(revoked.statusCode).toBe(200);
    expect(linkSummarySchema.parse(revoked.json()).revokedAt).not.toBeNull();

    const opened = await openPublic(link.id);
    expect(opened.statusCode).toBe(410);
    expect(opened.json()).toMatchObject({ error: 'link-revoked' });
    const result: unknown = await server.database.db.execute(
      sql`select ciphertext is null as empty from public_links where id = ${link.id}`,
    );
    const [row] = (result as { rows: { empty: boolean }[] }).rows;
    expect(row?.empty).toBe(true);
  });

  it('stop opening when they expire, and refuse an expiry in the past or past a year', async () => {
    const { cookie } = await signUp(server.app);
    const backupId = await backupOf(cookie);
    const soon = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const link = newLink(backupId, { expiresAt: soon });
    const made = await createLink(cookie, link);
    expect(made.statusCode).toBe(201);
    expect(Date.parse(linkSummarySchema.parse(made.json()).expiresAt ?? '')).toBe(Date.parse(soon));
    expect((await openPublic(link.id)).statusCode).toBe(200);

    // Time passes, as the database sees it.
    await server.database.db.execute(
      sql`update public_links set expires_at = now() - interval '1 second' where id = ${link.id}`,
    );
    const expired = await openPublic(link.id);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ error: 'link-expired' });

    const past = await createLink(
      cookie,
      newLink(backupId, { expiresAt: new Date(Date.now() - 1000).toISOString() }),
    );
    expect(past.statusCode).toBe(400);
    const far = await createLink(
      cookie,
      newLink(backupId, { expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString() }),
    );
    expect(far.statusCode).toBe(400);
  });

  it('an unknown id is not found', async () => {
    const response = await openPublic(randomUUID());
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not-found' });
    expect((await openPublic('not-a-uuid')).statusCode).toBe(400);
  });

  it('cannot be made for, listed or revoked by another user', async () => {
    const owner = await signUp(server.app);
    const other = await signUp(server.app);
    const backupId = await backupOf(owner.cookie);
    const link = newLink(backupId);
    expect((await createLink(owner.cookie, link)).statusCode).toBe(201);

    const foreign = await createLink(other.cookie, newLink(backupId));
    expect(foreign.statusCode).toBe(404);
    expect(await listLinks(other.cookie, backupId)).toEqual([]);
    expect((await revoke(other.cookie, link.id)).statusCode).toBe(404);
    expect((await openPublic(link.id)).statusCode).toBe(200);
  });

  it('refuse contents over the size limit, and need a signed-in user to create', async () => {
    const { cookie } = await signUp(server.app);
    const backupId = await backupOf(cookie);
    const big = await createLink(
      cookie,
      newLink(backupId, { ciphertext: randomBytes(MAX_LINK_BYTES + 3).toString('base64') }),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'link-too-large' });
    const signedOut = await server.app.inject({
      method: 'POST',
      url: '/api/links',
      payload: newLink(backupId),
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it('go with their backup when it is deleted', async () => {
    const { cookie } = await signUp(server.app);
    const backupId = await backupOf(cookie);
    const link = newLink(backupId);
    expect((await createLink(cookie, link)).statusCode).toBe(201);
    const deleted = await server.app.inject({
      method: 'DELETE',
      url: `/api/backups/${backupId}`,
      headers: headers(cookie),
    });
    expect(deleted.statusCode).toBe(200);
    expect((await openPublic(link.id)).statusCode).toBe(404);
  });
});

describe('a link made while its backup is deleted', () => {
  it('gets 404, never a 500, however the two interleave', async () => {
    const { cookie } = await signUp(server.app);
    for (let round = 0; round < 10; round += 1) {
      const backupId = await backupOf(cookie);
      const [made, deleted] = await Promise.all([
        createLink(cookie, newLink(backupId)),
        server.app.inject({
          method: 'DELETE',
          url: `/api/backups/${backupId}`,
          headers: headers(cookie),
        }),
      ]);
      expect(deleted.statusCode).toBe(200);
      expect([201, 404]).toContain(made.statusCode);
      expect(await listLinks(cookie, backupId)).toEqual([]);
    }
  });

  it('is refused by the repository when the backup goes after a check made before it', async () => {
    const { userId } = await signUp(server.app);
    const db = server.database.db;
    const backups = new BackupRepository(db);
    const backupId = randomUUID();
    expect(
      await backups.create(
        userId,
        {
          id: backupId,
          epoch: 0,
          metadata: randomBytes(40).toString('base64'),
          ciphertext: randomBytes(200).toString('base64'),
          size: 200,
        },
        { maxCount: 200, maxTotalBytes: 1024 * 1024 },
      ),
    ).toMatchObject({ kind: 'created' });
    // The backup is deleted by another request just as the link's transaction begins.
    const racing = Object.create(db, {
      transaction: {
        value: async (...args: Parameters<typeof db.transaction>) => {
          await backups.delete(userId, backupId);
          return db.transaction(...args);
        },
      },
    }) as typeof db;
    const links = new PublicLinkRepository(racing);
    const outcome = await links.create(
      userId,
      {
        id: randomUUID(),
        backupId,
        ciphertext: randomBytes(120).toString('base64'),
        size: 120,
        expiresAt: null,
      },
      { maxPerBackup: 10, maxBackupSpaceBytes: 1024 * 1024 },
    );
    expect(outcome).toEqual({ kind: 'no-backup' });
  });
});

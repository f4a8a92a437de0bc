import { randomBytes, randomUUID } from 'node:crypto';
import {
  backupListResponseSchema,
  backupResponseSchema,
  backupSummarySchema,
  MAX_BACKUP_BYTES,
} from '@docket/protocol/backups';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setup, signUp } from './test-server.ts';

const server = setup();

const headers = (cookie: string) => ({ cookie, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) });

function newBackup(bytes = 300) {
  return {
    id: randomUUID(),
    epoch: 0,
    metadata: randomBytes(80).toString('base64'),
    ciphertext: randomBytes(bytes).toString('base64'),
  };
}

function create(cookie: string, body: unknown) {
  return server.app.inject({
    method: 'POST',
    url: '/api/backups',
    headers: headers(cookie),
    payload: body as Record<string, unknown>,
  });
}

function request(method: 'GET' | 'DELETE', cookie: string, url: string) {
  return server.app.inject({ method, url, headers: headers(cookie) });
}

describe('backups', () => {
  it('are created, listed newest first, read back and deleted', async () => {
    const { cookie } = await signUp(server.app);
    const first = newBackup(300);
    const second = newBackup(500);
    const made = await create(cookie, first);
    expect(made.statusCode).toBe(201);
    expect(backupSummarySchema.parse(made.json())).toMatchObject({
      id: first.id,
      epoch: 0,
      metadata: first.metadata,
      size: 300,
    });
    expect((await create(cookie, second)).statusCode).toBe(201);

    const list = backupListResponseSchema.parse(
      (await request('GET', cookie, '/api/backups')).json(),
    );
    expect(list.backups.map((backup) => backup.id)).toEqual([second.id, first.id]);
    expect(list.backups[0]).not.toHaveProperty('ciphertext');

    const got = await request('GET', cookie, `/api/backups/${first.id}`);
    expect(got.statusCode).toBe(200);
    expect(backupResponseSchema.parse(got.json())).toMatchObject({
      id: first.id,
      ciphertext: first.ciphertext,
      metadata: first.metadata,
    });

    expect((await request('DELETE', cookie, `/api/backups/${first.id}`)).statusCode).toBe(200);
    expect((await request('GET', cookie, `/api/backups/${first.id}`)).statusCode).toBe(404);
    expect((await request('DELETE', cookie, `/api/backups/${first.id}`)).statusCode).toBe(404);
    const after = backupListResponseSchema.parse(
      (await request('GET', cookie, '/api/backups')).json(),
    );
    expect(after.backups.map((backup) => backup.id)).toEqual([second.id]);
  });

  it('take a new sealed name and description, for their owner only', async () => {
    const owner = await signUp(server.app);
    const other = await signUp(server.app);
    const backup = newBackup();
    expect((await create(owner.cookie, backup)).statusCode).toBe(201);
    const metadata = randomBytes(90).toString('base64');
    const put = (cookie: string) =>
      server.app.inject({
        method: 'PUT',
        url: `/api/backups/${backup.id}/metadata`,
        headers: headers(cookie),
        payload: { metadata },
      });
    expect((await put(other.cookie)).statusCode).toBe(404);
    const updated = await put(owner.cookie);
    expect(updated.statusCode).toBe(200);
    expect(backupSummarySchema.parse(updated.json()).metadata).toBe(metadata);
    const got = backupResponseSchema.parse(
      (await request('GET', owner.cookie, `/api/backups/${backup.id}`)).json(),
    );
    expect(got).toMatchObject({ metadata, ciphertext: backup.ciphertext });
  });

  it('refuse the same id twice', async () => {
    const { cookie } = await signUp(server.app);
    const backup = newBackup();
    expect((await create(cookie, backup)).statusCode).toBe(201);
    const again = await create(cookie, {
      ...backup,
      ciphertext: randomBytes(10).toString('base64'),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'backup-exists' });
  });

  it('are not shown to, read, or deleted by another user, who learns nothing', async () => {
    const owner = await signUp(server.app);
    const other = await signUp(server.app);
    const backup = newBackup();
    expect((await create(owner.cookie, backup)).statusCode).toBe(201);

    const list = backupListResponseSchema.parse(
      (await request('GET', other.cookie, '/api/backups')).json(),
    );
    expect(list.backups).toEqual([]);
    const read = await request('GET', other.cookie, `/api/backups/${backup.id}`);
    const missing = await request('GET', other.cookie, `/api/backups/${randomUUID()}`);
    expect(read.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(read.json<{ error: string }>().error).toBe(missing.json<{ error: string }>().error);
    expect((await request('DELETE', other.cookie, `/api/backups/${backup.id}`)).statusCode).toBe(
      404,
    );
    // The same id is another user's own, separate backup.
    expect((await create(other.cookie, backup)).statusCode).toBe(201);
    expect((await request('GET', owner.cookie, `/api/backups/${backup.id}`)).statusCode).toBe(200);
  });

  it('need a signed-in user', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/backups' });
    expect(response.statusCode).toBe(401);
    const post = await server.app.inject({
      method: 'POST',
      url: '/api/backups',
      payload: newBackup(),
    });
    expect(post.statusCode).toBe(401);
  });

  it('refuse a backup over the size limit, and malformed bodies', async () => {
    const { cookie } = await signUp(server.app);
    const big = await create(cookie, newBackup(MAX_BACKUP_BYTES + 3));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'backup-too-large' });
    const bad = await create(cookie, { ...newBackup(), id: '../etc' });
    expect(bad.statusCode).toBe(400);
    const extra = await create(cookie, { ...newBackup(), name: 'plaintext' });
    expect(extra.statusCode).toBe(400);
    const notBase64 = await create(cookie, { ...newBackup(), ciphertext: 'not base64!' });
    expect(notBase64.statusCode).toBe(400);
    expect((await request('GET', cookie, '/api/backups/not-a-uuid')).statusCode).toBe(400);
  });

  it('keep only ciphertext: no plaintext the client might have sent is in the database', async () => {
    const { cookie } = await signUp(server.app);
    // A client that is sloppy cannot put plaintext anywhere: the body is strict, and the
    // server stores the bytes it was given. This checks that nothing else of the request
    // (a name in a header, say) lands in a table.
    const marker = `plain-${randomUUID()}`;
    const backup = newBackup();
    const made = await server.app.inject({
      method: 'POST',
      url: '/api/backups',
      headers: { ...headers(cookie), 'x-backup-name': marker },
      payload: backup,
    });
    expect(made.statusCode).toBe(201);
    const rows: unknown = await server.database.db.execute(
      sql`select row_to_json(b)::text as row from backups b`,
    );
    const text = JSON.stringify((rows as { rows: unknown[] }).rows);
    expect(text).not.toContain(marker);
    expect(text).toContain(backup.id);
  });
});

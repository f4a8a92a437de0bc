import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTH_SECRET_FILE } from '../src/auth/auth-secret.ts';
import { setup, signUp } from './test-server.ts';

// The signing secret stays out of the database: a copy of the database alone cannot forge a
// session.

const server = setup({ app: false });
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freshDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docket-secret-'));
  dirs.push(dir);
  return join(dir, 'data');
}

async function legacyRows(): Promise<unknown[]> {
  const result: unknown = await server.database.db.execute(
    sql`select value from server_secret where name = 'better-auth'`,
  );
  return (result as { rows: unknown[] }).rows;
}

describe('the signing secret', () => {
  it('is made once into a 0600 file beside the data, which every process there shares', async () => {
    const dataDir = await freshDataDir();
    const first = await server.build({ DOCKET_DATA_DIR: dataDir });
    const second = await server.build({ DOCKET_DATA_DIR: dataDir });
    try {
      const path = join(dataDir, AUTH_SECRET_FILE);
      expect(((await stat(path)).mode & 0o777).toString(8)).toBe('600');
      expect((await readFile(path, 'utf8')).trim().length).toBeGreaterThanOrEqual(32);
      const { cookie } = await signUp(first.app);
      const session = await second.app.inject({
        method: 'GET',
        url: '/api/auth/get-session',
        headers: { cookie },
      });
      expect(session.json()).not.toBeNull();
    } finally {
      await first.app.close();
      await second.app.close();
    }
  });

  it('moves out of the database when an older server kept it there, and sessions stay valid', async () => {
    const legacy = `legacy-secret-${'x'.repeat(40)}`;
    await server.database.db.execute(
      sql`insert into server_secret (name, value) values ('better-auth', ${legacy}) on conflict (name) do update set value = excluded.value`,
    );
    const dataDir = await freshDataDir();
    const moved = await server.build({ DOCKET_DATA_DIR: dataDir });
    try {
      expect((await readFile(join(dataDir, AUTH_SECRET_FILE), 'utf8')).trim()).toBe(legacy);
      expect(await legacyRows()).toEqual([]);
      // A session signed with the old secret (as set in the environment) is still good.
      const older = await server.build({ BETTER_AUTH_SECRET: legacy });
      try {
        const { cookie } = await signUp(older.app);
        const session = await moved.app.inject({
          method: 'GET',
          url: '/api/auth/get-session',
          headers: { cookie },
        });
        expect(session.json()).not.toBeNull();
      } finally {
        await older.app.close();
      }
    } finally {
      await moved.app.close();
    }
  });

  it('must come from BETTER_AUTH_SECRET when NODE_ENV is production', async () => {
    const dataDir = await freshDataDir();
    await expect(
      server.build({ NODE_ENV: 'production', DOCKET_DATA_DIR: dataDir }),
    ).rejects.toThrow(/BETTER_AUTH_SECRET must be set when NODE_ENV is production/);
    const configured = await server.build({
      NODE_ENV: 'production',
      DOCKET_DATA_DIR: dataDir,
      BETTER_AUTH_SECRET: 'y'.repeat(40),
    });
    await configured.app.close();
    await expect(stat(join(dataDir, AUTH_SECRET_FILE))).rejects.toThrow(/ENOENT/);
  });
});

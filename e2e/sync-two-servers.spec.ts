import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from './fixtures.ts';
import pg from 'pg';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { SOON, twoSyncingDevices } from './pages/sync-device.ts';

// PRODUCT.md, Scale: many stateless server processes on one PostgreSQL. Two devices of one user,
// each talking to its own server process; a change pushed through one reaches the other device
// through the other process within seconds, which only the database's LISTEN/NOTIFY can carry.
// Needs a PostgreSQL (DATABASE_URL); .ci/run starts one and runs this spec against it.

const databaseUrl = process.env.DATABASE_URL;
// Past the app's port and the source simulator's (playwright.config.ts keeps all four below the
// ports Linux gives outgoing connections).
const basePort = Number(process.env.E2E_PORT ?? '20000') + 2;
const origins = [`http://127.0.0.1:${basePort}`, `http://127.0.0.1:${basePort + 1}`] as const;
const servers: ChildProcess[] = [];

async function healthy(origin: string, process: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) throw new Error(`The server for ${origin} exited.`);
    const ok = await fetch(`${origin}/api/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server for ${origin} did not start.`);
}

/** Every row of every table of the database, bytes as Latin-1, as one text to search. */
async function databaseText(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
       where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    );
    const parts: string[] = [];
    for (const { schema, name } of tables.rows) {
      const quoted = `"${schema.replaceAll('"', '""')}"."${name.replaceAll('"', '""')}"`;
      const rows = await client.query<Record<string, unknown>>(`select * from ${quoted}`);
      for (const row of rows.rows) {
        for (const value of Object.values(row)) {
          if (Buffer.isBuffer(value)) parts.push(value.toString('latin1'));
          else if (value !== null) parts.push(JSON.stringify(value));
        }
      }
    }
    return parts.join('\n');
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  if (databaseUrl === undefined) return;
  test.setTimeout(300_000);
  // One after the other: the first applies the migrations, the second finds them done.
  for (const origin of origins) {
    const server = spawn('npx', ['tsx', 'packages/server/src/main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: new URL(origin).port,
        HOST: '127.0.0.1',
        AUTH_RATE_LIMIT_MAX: '1000',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    servers.push(server);
    await healthy(origin, server);
  }
});

test.afterAll(() => {
  for (const server of servers) server.kill('SIGTERM');
});

test('two server processes on one PostgreSQL pass the nudge across', async ({ browser }) => {
  test.skip(databaseUrl === undefined, 'needs DATABASE_URL (PostgreSQL); .ci/run runs it');
  test.setTimeout(300_000);
  const { first, second, email } = await twoSyncingDevices(browser, 'harbour lights 7 anvil', [
    ...origins,
  ]);
  const firstTags = new BillTagsPage(first);
  const secondTags = new BillTagsPage(second);
  await firstTags.open();
  await secondTags.open();

  await firstTags.create('Across processes');
  await expect(firstTags.row('Across processes')).toBeVisible();
  // No reload, no button, and no shared memory between the processes: the database's NOTIFY.
  await expect(secondTags.row('Across processes')).toBeVisible(SOON);

  await secondTags.create('And back');
  await expect(firstTags.row('And back')).toBeVisible(SOON);

  // The server keeps the user's e-mail, but none of what they wrote: read every table.
  const stored = await databaseText(databaseUrl ?? '');
  expect(stored).toContain(email);
  for (const secret of ['Across processes', 'And back', 'harbour lights 7 anvil']) {
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(Buffer.from(secret).toString('base64'));
  }
});

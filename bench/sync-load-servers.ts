import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { APP_ORIGIN, standInAppDir } from './sync-bench-docket.ts';

// The load test's servers: real server processes (`packages/server/src/main.ts`, as `npm start`
// runs it), each on its own loopback port, on a PostgreSQL database made for the run or on
// PGlite in a data folder of its own, and everything removed again at the end, whatever happened.

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Things to undo at the end; run in reverse order, each at most once. */
export class Cleanup {
  private readonly steps: Array<() => Promise<void>> = [];
  private readonly children = new Set<ChildProcess>();

  constructor() {
    // A synchronous last resort: whatever way this process ends, no server outlives it.
    process.once('exit', () => {
      for (const child of this.children) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    });
  }

  add(step: () => Promise<void>): void {
    this.steps.push(step);
  }

  track(child: ChildProcess): void {
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
  }

  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        console.error('[sync load] clean-up step failed:', error);
      }
    }
  }
}

export interface LoadDatabase {
  readonly url: string;
  /** Transactions committed in it so far (pg_stat_database; each statement outside one counts). */
  transactions(): Promise<number>;
}

/**
 * A database of its own on the PostgreSQL at `adminUrl` (a role that may create databases),
 * dropped at clean-up with the connections still open to it.
 */
export async function createLoadDatabase(
  adminUrl: string,
  cleanup: Cleanup,
): Promise<LoadDatabase> {
  const name = `docket_load_${process.pid}`;
  const admin = async (statement: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await client.query<Record<string, unknown>>(statement, values);
    } finally {
      await client.end();
    }
  };
  try {
    await admin(`create database ${name}`);
  } catch (error) {
    throw new Error(
      `Could not create a database on ${adminUrl.replace(/:[^:@/]*@/, ':…@')} (is PostgreSQL 15 running? as root: pg_ctlcluster 15 main start; the role needs createdb): ${String(error)}`,
    );
  }
  cleanup.add(async () => {
    await admin(`drop database if exists ${name} with (force)`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    transactions: async () => {
      const answer = await admin(
        'select xact_commit::text as n from pg_stat_database where datname = $1',
        [name],
      );
      return Number(answer.rows[0]?.n ?? NaN);
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}

export interface ServerProcess {
  readonly origin: string;
  readonly pid: number;
  /** The process's log (warnings and errors): where a 5xx's cause is. */
  readonly logPath: string;
  /** Lines of the log at level error or above. */
  errorLines(): Promise<string[]>;
}

/** What the servers of one run share; see the server README's configuration table. */
export interface ServerSetup {
  /** postgres://… or null for PGlite in a data folder. */
  databaseUrl: string | null;
  env: Record<string, string>;
  /** Extra flags for the servers' node (`--cpu-prof --cpu-prof-dir=…` to see where time goes). */
  nodeFlags: readonly string[];
}

/**
 * Starts `count` server processes, one after the other (the first applies the migrations), and
 * waits until each answers /api/health. They share one signing secret and one public URL, as
 * processes behind a load balancer do.
 */
export async function startServers(
  count: number,
  setup: ServerSetup,
  cleanup: Cleanup,
): Promise<ServerProcess[]> {
  const workDir = await mkdtemp(join(tmpdir(), 'docket-sync-load-'));
  cleanup.add(() => rm(workDir, { recursive: true, force: true }));
  const appDir = await standInAppDir();
  cleanup.add(() => rm(appDir, { recursive: true, force: true }));
  const secret = randomBytes(32).toString('base64');
  const servers: ServerProcess[] = [];
  for (let index = 0; index < count; index++) {
    const port = await freePort();
    const logPath = join(workDir, `server-${index + 1}.log`);
    const log = createWriteStream(logPath);
    // node itself, not npx: a signal reaches the server, not a wrapper that ignores it.
    const child = spawn(
      process.execPath,
      [...setup.nodeFlags, '--import', 'tsx', 'packages/server/src/main.ts'],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          ...setup.env,
          ...(setup.databaseUrl === null ? {} : { DATABASE_URL: setup.databaseUrl }),
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_URL: APP_ORIGIN,
          DOCKET_APP_DIR: appDir,
          DOCKET_DATA_DIR: join(workDir, `data-${index + 1}`),
          BETTER_AUTH_SECRET: secret,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    cleanup.track(child);
    cleanup.add(() => stopProcess(child));
    const origin = `http://127.0.0.1:${port}`;
    await healthy(origin, child, logPath);
    if (child.pid === undefined) throw new Error('A server process has no pid');
    servers.push({
      origin,
      pid: child.pid,
      logPath,
      errorLines: async () =>
        (await readFile(logPath, 'utf8'))
          .split('\n')
          .filter((line) => /"level":(5|6)\d/.test(line) || /^Docket server could not/.test(line)),
    });
  }
  return servers;
}

async function healthy(origin: string, child: ChildProcess, logPath: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = await readFile(logPath, 'utf8').catch(() => '');
      throw new Error(`The server for ${origin} exited (${child.exitCode}): ${log.slice(-2000)}`);
    }
    const answer = await fetch(`${origin}/api/health`).catch(() => null);
    if (answer?.ok === true) return;
    if (Date.now() > deadline) throw new Error(`The server for ${origin} did not start in 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** SIGTERM (the server finishes what is in flight), then SIGKILL after ten seconds. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

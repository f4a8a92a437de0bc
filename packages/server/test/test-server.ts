import { createHash, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildAppOptions } from '../src/app.ts';
import { loadConfig, type ServerConfig, type ServerEnv } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { afterAll, beforeAll } from 'vitest';

// Tests run on a real database: an in-memory PGlite by default, or the PostgreSQL named by
// DATABASE_URL (postgres://…) when it is set, so one suite covers both. Every test makes its
// own users with unique e-mails, so runs against a shared PostgreSQL never collide.

export const PUBLIC_URL = 'http://localhost:8080';
export const PASSWORD = 'correct horse battery';

export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') return openDatabase({ kind: 'postgres', url });
  return openDatabase({ kind: 'pglite', dataDir: 'memory://', template: await pgliteTemplate() });
}

/**
 * A fresh in-memory PGlite spends seconds in initdb. Each test file runs in its own worker, so
 * the first one saves a migrated database to a file named after the migrations, and the rest
 * start from that copy in under a second.
 */
async function pgliteTemplate(): Promise<Blob> {
  const migrationsDir = fileURLToPath(new URL('../drizzle', import.meta.url));
  const hash = createHash('sha256');
  for (const name of (await readdir(migrationsDir))
    .filter((file) => file.endsWith('.sql'))
    .sort()) {
    hash.update(name).update(await readFile(join(migrationsDir, name)));
  }
  const templatePath = join(tmpdir(), `docket-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
  try {
    return new Blob([await readFile(templatePath)]);
  } catch {
    const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const dump = await client.dumpDataDir('none');
    await database.close();
    // Written under a unique name and renamed, so workers racing here never read half a file.
    const partial = `${templatePath}.${randomUUID()}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, templatePath);
    return dump;
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: ServerConfig;
  /** Every line the app logged, parsed; the log is where links go when no SMTP is set. */
  logs: Array<{ level: number; msg: string }>;
}

/**
 * DOCKET_DATA_DIR of the apps this test file builds, where the signing secret is made: one per
 * file, so that two apps on one database accept each other's sessions as two processes do.
 */
let sharedDataDir: string | undefined;
async function testDataDir(): Promise<string> {
  if (sharedDataDir === undefined) {
    const dir = await mkdtemp(join(tmpdir(), 'docket-data-'));
    sharedDataDir = dir;
    process.once('exit', () => {
      rmSync(dir, { recursive: true, force: true });
    });
  }
  return sharedDataDir;
}

/** Builds the app on `database` with test defaults, overridden by `env`. */
export async function buildTestApp(
  database: Database,
  env: ServerEnv = {},
  options: Pick<BuildAppOptions, 'resolveSourceHost'> = {},
): Promise<TestApp> {
  const builtApp = await makeBuiltApp();
  const config = loadConfig({
    PUBLIC_URL,
    // High enough that no test but the rate-limit one ever meets it.
    AUTH_RATE_LIMIT_MAX: '10000',
    // Likewise the account limits: tests push concurrently on purpose.
    ACCOUNT_RATE_LIMIT_MAX: '1000000',
    ACCOUNT_MAX_CONCURRENT: '10000',
    SIGN_IN_FREE_FAILURES: '10000',
    DOCKET_APP_DIR: builtApp,
    DOCKET_DATA_DIR: await testDataDir(),
    ...env,
  });
  const logs: TestApp['logs'] = [];
  const app = await buildApp({
    ...options,
    config,
    database,
    logger: {
      level: 'info',
      stream: {
        write: (line: string) => {
          logs.push(JSON.parse(line) as { level: number; msg: string });
        },
      },
    },
  });
  app.addHook('onClose', async () => {
    await rm(builtApp, { recursive: true, force: true });
  });
  // Not made ready here: a test may still add a route; inject and listen make it ready.
  return { app, config, logs };
}

/** A stand-in for packages/app/dist with the kinds of files a Vite build leaves there. */
async function makeBuiltApp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docket-app-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><title>Docket</title><div id="root"></div>',
  );
  await writeFile(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await writeFile(join(dir, 'manifest.webmanifest'), '{"name":"Docket"}');
  await writeFile(join(dir, 'assets', 'index-3f9a1c.js'), 'console.log("docket");');
  return dir;
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomUUID()}@example.test`;
}

/** `name=value` pairs of the Set-Cookie headers, ready for a Cookie request header. */
export function cookieHeader(response: LightMyRequestResponse): string {
  const setCookie = response.headers['set-cookie'];
  const lines = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return lines.map((line) => line.split(';', 1)[0]).join('; ');
}

export interface SignedIn {
  userId: string;
  cookie: string;
  bearer: string;
}

export async function signUp(
  app: FastifyInstance,
  email = uniqueEmail(),
  password = PASSWORD,
): Promise<SignedIn> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    payload: { email, password, name: email.split('@')[0] },
  });
  if (response.statusCode !== 200) {
    throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  }
  // Sign-up never signs in (so that it answers a taken address like a new one): sign in next,
  // as the app does.
  const signedIn = await signIn(app, email, password);
  if (signedIn.statusCode !== 200) {
    throw new Error(`sign-in after sign-up failed: ${signedIn.statusCode} ${signedIn.body}`);
  }
  return signedInFrom(signedIn);
}

export function signIn(
  app: FastifyInstance,
  email: string,
  password: string,
  remoteAddress = '127.0.0.1',
) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email, password },
    remoteAddress,
  });
}

export function signedInFrom(response: LightMyRequestResponse): SignedIn {
  const body = response.json<{ user: { id: string } }>();
  const bearer = response.headers['set-auth-token'];
  if (typeof bearer !== 'string') throw new Error('no set-auth-token header');
  return { userId: body.user.id, cookie: cookieHeader(response), bearer };
}

/** Resolves with the first log line whose message matches, waiting a little for mail tasks. */
export async function waitForLog(
  logs: TestApp['logs'],
  pattern: RegExp,
): Promise<RegExpMatchArray> {
  for (let waited = 0; waited < 5000; waited += 25) {
    for (const line of logs) {
      const match = pattern.exec(line.msg);
      if (match) return match;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`No log line matched ${String(pattern)}`);
}

/** The link of a log line such as "Password reset link for a@b.c: http://…". */
export async function waitForLoggedLink(
  logs: TestApp['logs'],
  label: 'Password reset link' | 'E-mail verification link',
  email: string,
): Promise<string> {
  const escaped = email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const [, link = ''] = await waitForLog(logs, new RegExp(`^${label} for ${escaped}: (\\S+)$`));
  return link;
}

/** The path and query of an absolute link, for app.inject. */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

export interface SetupOptions {
  /**
   * The app's settings over the test defaults; a function when they are known only once an
   * earlier beforeAll has run (the port of a server the app is to reach).
   */
  env?: ServerEnv | (() => ServerEnv);
  resolveSourceHost?: BuildAppOptions['resolveSourceHost'];
  /** false: the database alone, for files whose tests each build the app they need. */
  app?: boolean;
}

/** What `setup()` opened: valid inside the tests and hooks that run after its beforeAll. */
export interface TestServer extends TestApp {
  /** The test database every app of this setup shares, as processes on one database do. */
  readonly database: Database;
  /**
   * Another app on the same database (a second process, or other settings). A test may close
   * it; whatever is still open is closed at teardown.
   */
  build(env?: ServerEnv, options?: Pick<BuildAppOptions, 'resolveSourceHost'>): Promise<TestApp>;
}

interface OpenedServer {
  database: Database;
  testApp: TestApp | undefined;
  build: TestServer['build'];
  teardown: () => Promise<void>;
}

/** Opens the test database and the app on it, and says how to close them: the lifecycle once. */
async function openTestServer(options: SetupOptions): Promise<OpenedServer> {
  const database = await openTestDatabase();
  const open = new Set<FastifyInstance>();
  const build: TestServer['build'] = async (env, appOptions) => {
    const built = await buildTestApp(database, env, appOptions);
    open.add(built.app);
    built.app.addHook('onClose', (_instance, done) => {
      open.delete(built.app);
      done();
    });
    return built;
  };
  const teardown = async (): Promise<void> => {
    await Promise.all([...open].map((app) => app.close()));
    await database.close();
  };
  const env = typeof options.env === 'function' ? options.env() : options.env;
  const resolveSourceHost = options.resolveSourceHost;
  try {
    const testApp =
      options.app === false
        ? undefined
        : await build(env, resolveSourceHost === undefined ? {} : { resolveSourceHost });
    return { database, testApp, build, teardown };
  } catch (error) {
    await teardown();
    throw error;
  }
}

/**
 * The one setup of a server test file, as automerge-repo's storage suite takes a `setup()`:
 * before the tests of the file (or of the describe block it is called in) it opens a test
 * database (PGlite, or the PostgreSQL of DATABASE_URL) and builds an app on it; after them it
 * closes every app built through it, then the database. Hooks a file registers after calling it
 * run after the app is built (a test route, listen) and before it is closed.
 */
export function setup(options: SetupOptions = {}): TestServer {
  let opened: OpenedServer | undefined;
  beforeAll(async () => {
    opened = await openTestServer(options);
  });
  afterAll(async () => {
    await opened?.teardown();
    opened = undefined;
  });
  const current = (): OpenedServer => {
    if (opened === undefined) throw new Error('setup() opens its server in beforeAll.');
    return opened;
  };
  const testApp = (): TestApp => {
    const built = current().testApp;
    if (built === undefined) throw new Error('setup({ app: false }) builds no app: use build().');
    return built;
  };
  return {
    get database() {
      return current().database;
    },
    get app() {
      return testApp().app;
    },
    get config() {
      return testApp().config;
    },
    get logs() {
      return testApp().logs;
    },
    build: (env, appOptions) => current().build(env, appOptions),
  };
}

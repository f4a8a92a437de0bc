import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalStore } from '@docket/core/store';
import {
  runSync,
  type SyncRunReport,
  type SyncSession,
  type SyncTransport,
} from '@docket/core/sync';
import type { OpaqueCryptoKey, WebCryptoPort } from '@docket/core/crypto';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { pullResponseSchema, pushResponseSchema } from '@docket/protocol/sync-changes';
import { syncSettingsSchema, type SyncSettings } from '@docket/protocol/sync-settings';
import { syncPaths } from '@docket/protocol/sync-wire';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';

// Docket's side of the sync benchmark: the real server (Fastify, better-auth, the sync routes,
// PGlite in memory) listening on loopback in this process, and devices that reach it over HTTP
// with fetch, the way the app's httpSyncTransport does, with a session cookie.

export const webCrypto = globalThis.crypto as unknown as WebCryptoPort;

/**
 * The server's entry points, as far as the benchmark uses them. The root project typechecks
 * bench/ with the DOM library, under which the server's sources do not compile (their own
 * tsconfig checks them), so they are loaded at run time through a path TypeScript does not
 * follow, and typed here.
 */
interface ServerDatabase {
  close(): Promise<void>;
}
interface ServerModules {
  openDatabase: (location: { kind: 'pglite'; dataDir: string }) => Promise<ServerDatabase>;
  loadConfig: (env: Record<string, string>) => object;
  buildApp: (options: { config: object; database: ServerDatabase }) => Promise<FastifyInstance>;
}

async function serverModules(): Promise<ServerModules> {
  const source = '../packages/server/src/';
  const [database, config, app] = (await Promise.all([
    import(`${source}db/database.ts`),
    import(`${source}config.ts`),
    import(`${source}app.ts`),
  ])) as [
    Pick<ServerModules, 'openDatabase'>,
    Pick<ServerModules, 'loadConfig'>,
    Pick<ServerModules, 'buildApp'>,
  ];
  return { ...database, ...config, ...app };
}

/** Where the app's pages come from, as far as the server knows; sent as a browser would. */
export const APP_ORIGIN = 'http://localhost:8080';

/** What a device sends with each call of Docket's own API. */
export function apiHeaders(cookie: string): Record<string, string> {
  return { cookie, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };
}

/**
 * The server serves the built app too; a stand-in folder with an index.html keeps it from
 * needing a build. The caller removes it.
 */
export async function standInAppDir(): Promise<string> {
  const appDir = await mkdtemp(join(tmpdir(), 'docket-bench-app-'));
  await writeFile(join(appDir, 'index.html'), '<!doctype html><title>Docket</title>');
  return appDir;
}

export interface DocketServer {
  readonly origin: string;
  close(): Promise<void>;
}

export async function startDocketServer(): Promise<DocketServer> {
  const { openDatabase, loadConfig, buildApp } = await serverModules();
  const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
  const appDir = await standInAppDir();
  let app: FastifyInstance | undefined;
  try {
    const config = loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_URL: APP_ORIGIN,
      DOCKET_APP_DIR: appDir,
      AUTH_RATE_LIMIT_MAX: '10000',
      // A benchmark measures throughput, not one account's fair share.
      ACCOUNT_RATE_LIMIT_MAX: '1000000',
      ACCOUNT_MAX_CONCURRENT: '10000',
      ACCOUNT_WORK_PER_SECOND: '0',
    });
    app = await buildApp({ config, database });
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    const listening = app;
    return {
      origin,
      close: async () => {
        await listening.close();
        await database.close();
        await rm(appDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await app?.close();
    await database.close();
    await rm(appDir, { recursive: true, force: true });
    throw error;
  }
}

export interface DocketAccount {
  readonly userId: string;
  readonly cookie: string;
  readonly settings: SyncSettings;
}

export async function expectOk(response: Response, what: string): Promise<unknown> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response.json();
}

const BENCH_PASSWORD = 'correct horse battery';

/** A new user through better-auth's sign-up, as the app's Create account sends it. */
export async function signUp(origin: string, email: string): Promise<void> {
  const response = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: APP_ORIGIN },
    body: JSON.stringify({ email, password: BENCH_PASSWORD, name: 'bench' }),
  });
  await expectOk(response, 'sign-up');
}

/** A session of a user made by `signUp`: its id and the cookie a device sends. */
export async function signIn(
  origin: string,
  email: string,
): Promise<{ userId: string; cookie: string }> {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: APP_ORIGIN },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  const { user } = (await expectOk(response, 'sign-in')) as { user: { id: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0])
    .join('; ');
  return { userId: user.id, cookie };
}

/**
 * Turns sync on for the signed-in user: sync settings with a cloud password. The password
 * verifier and wrapped key are stand-ins (the server cannot tell): benchmarks hand devices the
 * data key directly, so no Argon2 runs.
 */
export async function putCloudSettings(origin: string, cookie: string): Promise<SyncSettings> {
  const written = await fetch(`${origin}${syncPaths.settings}`, {
    method: 'PUT',
    headers: { ...apiHeaders(cookie), 'content-type': 'application/json' },
    body: JSON.stringify({
      expectedVersion: 0,
      settings: {
        passwordHash: '$argon2id$v=19$m=65536,t=3,p=1$YmVuY2hzYWx0$aGFzaA',
        keyDerivation: {
          algorithm: 'argon2id',
          salt: randomBytes(16).toString('base64'),
          memoryKiB: 65536,
          iterations: 3,
          parallelism: 1,
        },
        wrappedDataKey: randomBytes(40).toString('base64'),
        keyEpoch: 0,
      },
    }),
  });
  return syncSettingsSchema.parse(await expectOk(written, 'sync settings'));
}

/** A new user, signed up and in over HTTP, with a cloud password in the sync settings. */
export async function signUpWithCloudPassword(origin: string): Promise<DocketAccount> {
  const email = `sync-bench-${randomUUID()}@example.test`;
  await signUp(origin, email);
  // Sign-up does not sign in (it answers a taken address like a free one): sign in next.
  const { userId, cookie } = await signIn(origin, email);
  const settings = await putCloudSettings(origin, cookie);
  return { userId, cookie, settings };
}

/** Time spent waiting on one kind of call, and how many calls. */
export interface Timing {
  ms: number;
  calls: number;
}

export const newTiming = (): Timing => ({ ms: 0, calls: 0 });

async function timed<T>(timing: Timing, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    timing.ms += performance.now() - start;
    timing.calls++;
  }
}

/**
 * The app's transport (packages/app/src/sync/sync-service.ts httpSyncTransport over
 * api-client.ts) reduced to what the engine calls: JSON over fetch with the protocol header,
 * answers checked against the protocol's schemas. `timing` collects the time from sending a
 * request to holding its checked answer, which includes everything the server did for it.
 */
export function fetchTransport(origin: string, cookie: string, timing: Timing): SyncTransport {
  const call = async <S extends z.ZodType>(
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.infer<S>> =>
    timed(timing, async () => {
      const headers = apiHeaders(cookie);
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${origin}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return schema.parse(await expectOk(response, path));
    });
  const blobHeaders = apiHeaders(cookie);
  return {
    push: (request) => call(syncPaths.push, pushResponseSchema, request),
    pull: (since, limit) =>
      call(`${syncPaths.pull}?since=${since}&limit=${limit}`, pullResponseSchema),
    // The rows benchmark has no datasets, so these are not called there; the dataset files
    // benchmark (sync-files-bench.ts) calls them. They are the real routes.
    putBlob: (address, bytes) =>
      timed(timing, async () => {
        const path = `${syncPaths.blobs}/${address}`;
        const response = await fetch(`${origin}${path}`, {
          method: 'PUT',
          headers: { ...blobHeaders, 'content-type': 'application/octet-stream' },
          body: bytes,
        });
        await expectOk(response, path);
      }),
    getBlob: (address) =>
      timed(timing, async () => {
        const response = await fetch(`${origin}${syncPaths.blobs}/${address}`, {
          headers: blobHeaders,
        });
        if (response.status === 404) return null;
        if (!response.ok) throw new Error(`GET blob ${address}: ${response.status}`);
        return new Uint8Array(await response.arrayBuffer());
      }),
    hasBlob: (address) =>
      timed(timing, async () => {
        const response = await fetch(`${origin}${syncPaths.blobs}/${address}`, {
          method: 'HEAD',
          headers: blobHeaders,
        });
        if (response.status === 404) return false;
        if (!response.ok) throw new Error(`HEAD blob ${address}: ${response.status}`);
        return true;
      }),
  };
}

/** The store, with the time spent inside its transactions (merging runs inside them). */
export function timedStore(inner: LocalStore, timing: Timing): LocalStore {
  return {
    read: (tables, body) => timed(timing, () => inner.read(tables, body)),
    write: (tables, body) => timed(timing, () => inner.write(tables, body)),
    close: () => {
      inner.close();
    },
  };
}

/** A data key as a device keeps it once unlocked: AES-256-GCM, not extractable. */
export function newDataKey(): Promise<OpaqueCryptoKey> {
  return webCrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

export interface DeviceSyncFigures {
  readonly report: SyncRunReport;
  readonly transport: Timing;
  readonly store: Timing;
}

/** One runSync of a device against the server, with where its time went. */
export async function syncDevice(
  origin: string,
  account: DocketAccount,
  store: LocalStore,
  deviceId: string,
  dataKey: OpaqueCryptoKey,
): Promise<DeviceSyncFigures> {
  const transport = newTiming();
  const storeTiming = newTiming();
  const session: SyncSession = {
    userId: account.userId,
    deviceId,
    epoch: account.settings.keyEpoch,
    dataKey,
    epochStartSeqno: account.settings.epochStartSeqno,
  };
  const report = await runSync({
    store: timedStore(store, storeTiming),
    transport: fetchTransport(origin, account.cookie, transport),
    crypto: webCrypto,
    session,
  });
  return { report, transport, store: storeTiming };
}

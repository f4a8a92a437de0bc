import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Everything the server reads from its environment, parsed once at the edge. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /** postgres://… when set; otherwise the server runs on PGlite in `dataDir/pglite`. */
  databaseUrl: string | null;
  /** Origin (plus optional path) the browser sees; better-auth's baseURL and the host of e-mail links. */
  publicUrl: string;
  /** Origins the server itself is reached at: publicUrl's, plus loopback aliases by default. */
  publicOrigins: string[];
  /** Other origins (TRUSTED_ORIGINS) allowed to call the API cross-origin and to sign in. */
  trustedOrigins: string[];
  /** Null means: use the secret in DOCKET_DATA_DIR/auth-secret, made on first start. */
  betterAuthSecret: string | null;
  /** NODE_ENV=production: the signing secret must then come from BETTER_AUTH_SECRET. */
  production: boolean;
  smtpUrl: string | null;
  mailFrom: string;
  requireEmailVerification: boolean;
  authRateLimitMax: number;
  appDir: string;
  /** Origin of the Sentry ingest host, so the CSP lets the app report errors there. */
  sentryOrigin: string | null;
  /**
   * Behind a load balancer the client IP (which rate limits key on) is in X-Forwarded-For:
   * true trusts every hop, a number that many hops, a list those proxy addresses or subnets.
   */
  trustProxy: boolean | number | string[];
  /** How often an idle sync event stream gets a heartbeat comment, so proxies keep it open. */
  syncHeartbeatMs: number;
  /** Longest a client may take to send a whole request (headers and body); then 408. */
  requestTimeoutMs: number;
  /** A connection silent this long (nothing read or written) is closed. */
  connectionTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open for its next request. */
  keepAliveTimeoutMs: number;
  /** Open connections a process accepts at once; more are closed as they arrive. */
  maxConnections: number;
  /**
   * Open connections one peer address may hold at once; more are closed as they arrive. 0 is no
   * cap, the default behind a proxy (TRUST_PROXY), where every connection is the proxy's.
   */
  maxConnectionsPerAddress: number;
  /** A request body must bring at least this many bytes in every window, or it gets 408. */
  bodyMinRate: { minBytes: number; windowMs: number };
  /** Requests one signed-in account may make to Docket's own API in a minute, per process. */
  accountRateLimitMax: number;
  /** Requests of one account a process works on at once; more get 429 straight away. */
  accountMaxConcurrent: number;
  /**
   * How long a 429 is held before it is sent once an account has had more than eight of them in
   * a second (a client ignoring Retry-After); 0 sends every one at once.
   */
  accountRefusalDelayMs: number;
  /**
   * The work one account may make a process do a second on average (changes pushed or pulled,
   * 16 KiB of blob each), and at most at once; 0 counts none (AccountLimits).
   */
  accountWorkPerSecond: number;
  accountWorkBurst: number;
  /** Bytes one account may keep on the server, per kind of data. */
  quotas: AccountQuotas;
  /** E-mails (reset, verification) one address may be sent in an hour. */
  mailPerRecipientPerHour: number;
  /** Wrong passwords an address may have before each further sign-in waits. */
  signInFreeFailures: number;
  /** The first such wait; it doubles with each further wrong password, up to 15 minutes. */
  signInDelaySeconds: number;
  /** Hosts the source relay may fetch from: the default sources' plus SOURCE_HOSTS. */
  sourceHosts: SourceHost[];
  /** Largest source answer the relay passes on; it stops reading there. */
  sourceMaxBytes: number;
  /** Bytes the relay's temporary files may hold at once, all accounts together, per process. */
  sourceTempSpaceBytes: number;
  /** Longest a source may take for its whole answer (redirects, headers and body). */
  sourceTimeoutMs: number;
  /** Relay requests one account may make in a minute. */
  sourceFetchPerMinute: number;
}

/**
 * One allowed source host. `port` null means the scheme's own (80, 443). `named` is true for
 * SOURCE_HOSTS entries: the operator vouched for that host, so it may resolve to a loopback or
 * private address (a simulator or a mirror on the local network).
 */
export interface SourceHost {
  hostname: string;
  port: number | null;
  named: boolean;
}

/**
 * The API and bulk-data hosts of LegiScan, Open States, GovInfo and congress.gov, and the hosts
 * their bills' text versions link to (legiscan.com's documents, GovInfo's packages,
 * www.congress.gov's text pages). A state legislature's own site is the operator's to add.
 */
export const DEFAULT_SOURCE_HOSTS = [
  'api.legiscan.com',
  'legiscan.com',
  'v3.openstates.org',
  'open.pluralpolicy.com',
  'data.openstates.org',
  'www.govinfo.gov',
  'api.govinfo.gov',
  'api.congress.gov',
  'www.congress.gov',
];

export interface AccountQuotas {
  blobBytes: number;
  logBytes: number;
  backupBytes: number;
}

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: optionalText,
  DOCKET_DATA_DIR: optionalText,
  INIT_CWD: optionalText,
  DATABASE_URL: optionalText.refine(
    (value) => value === undefined || /^postgres(ql)?:\/\//.test(value),
    'DATABASE_URL must start with postgres:// or postgresql://',
  ),
  PUBLIC_URL: optionalText.refine(
    (value) => value === undefined || /^https?:\/\/[^/]+/.test(value),
    'PUBLIC_URL must be an http:// or https:// URL',
  ),
  TRUSTED_ORIGINS: optionalText,
  NODE_ENV: optionalText,
  BETTER_AUTH_SECRET: optionalText.refine(
    (value) => value === undefined || value.length >= 32,
    'BETTER_AUTH_SECRET must be at least 32 characters',
  ),
  SMTP_URL: optionalText,
  MAIL_FROM: optionalText,
  REQUIRE_EMAIL_VERIFICATION: optionalText,
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(30),
  DOCKET_APP_DIR: optionalText,
  SENTRY_DSN: optionalText,
  VITE_SENTRY_DSN: optionalText,
  TRUST_PROXY: optionalText,
  SYNC_HEARTBEAT_SECONDS: z.coerce.number().positive().max(3600).default(25),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(300),
  CONNECTION_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(60),
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(10),
  MAX_CONNECTIONS: z.coerce.number().int().positive().default(1000),
  MAX_CONNECTIONS_PER_ADDRESS: optionalText.pipe(
    z.coerce.number<string | undefined>().int().nonnegative().optional(),
  ),
  BODY_MIN_RATE_BYTES: z.coerce.number().int().nonnegative().default(1024),
  BODY_MIN_RATE_SECONDS: z.coerce.number().positive().max(3600).default(10),
  ACCOUNT_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(1800),
  ACCOUNT_MAX_CONCURRENT: z.coerce.number().int().positive().default(8),
  ACCOUNT_REFUSAL_DELAY_SECONDS: z.coerce.number().nonnegative().max(60).default(1),
  ACCOUNT_WORK_PER_SECOND: z.coerce.number().int().nonnegative().default(1000),
  ACCOUNT_WORK_BURST: z.coerce.number().int().positive().default(20_000),
  QUOTA_BLOBS_MIB: z.coerce.number().positive().default(1024),
  QUOTA_LOG_MIB: z.coerce.number().positive().default(256),
  QUOTA_BACKUPS_MIB: z.coerce.number().positive().default(1024),
  MAIL_PER_RECIPIENT_PER_HOUR: z.coerce.number().int().positive().default(5),
  SIGN_IN_FREE_FAILURES: z.coerce.number().int().nonnegative().default(5),
  SIGN_IN_DELAY_SECONDS: z.coerce.number().positive().max(900).default(30),
  SOURCE_HOSTS: optionalText,
  SOURCE_MAX_MIB: z.coerce.number().positive().default(200),
  SOURCE_TEMP_SPACE_MIB: z.coerce.number().positive().default(1024),
  SOURCE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(50),
  SOURCE_FETCH_PER_MINUTE: z.coerce.number().int().positive().default(60),
});

const MIB = 1024 * 1024;

/** A browser opens at most six connections to a server: room for several people behind one NAT. */
const DEFAULT_CONNECTIONS_PER_ADDRESS = 50;

export type ServerEnv = Record<string, string | undefined>;

/** The built app, found relative to this file so it does not depend on the working directory. */
const defaultAppDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../app/dist');

export function loadConfig(env: ServerEnv): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid server configuration: ${problems.join('; ')}`);
  }
  const vars = parsed.data;
  if (vars.CONNECTION_TIMEOUT_SECONDS <= vars.SYNC_HEARTBEAT_SECONDS) {
    // An idle event stream would be cut before its heartbeat keeps it alive.
    throw new Error(
      'Invalid server configuration: CONNECTION_TIMEOUT_SECONDS must be longer than SYNC_HEARTBEAT_SECONDS',
    );
  }
  if (vars.SOURCE_TIMEOUT_SECONDS >= vars.CONNECTION_TIMEOUT_SECONDS) {
    // The relay reads a source's whole answer before it sends a byte: the connection is idle
    // meanwhile, and would be cut with no answer before the relay could say 504.
    throw new Error(
      'Invalid server configuration: SOURCE_TIMEOUT_SECONDS must be shorter than CONNECTION_TIMEOUT_SECONDS',
    );
  }
  if (vars.SOURCE_TEMP_SPACE_MIB < vars.SOURCE_MAX_MIB) {
    // The largest answer allowed could never be spooled: the relay would say "try again" for ever.
    throw new Error(
      'Invalid server configuration: SOURCE_TEMP_SPACE_MIB must be at least SOURCE_MAX_MIB',
    );
  }
  const host = vars.HOST ?? '127.0.0.1';
  const trustProxy = parseTrustProxy(vars.TRUST_PROXY);
  const port = vars.PORT;
  // `npm start` at the repo root runs this package's script with cwd packages/server; INIT_CWD is
  // where the user typed the command, which is where they expect ./data to appear.
  const baseDir = vars.INIT_CWD ?? process.cwd();
  const dataDir = resolveFrom(baseDir, vars.DOCKET_DATA_DIR ?? 'data');
  const defaultPublicUrl = `http://${hostForUrl(host)}:${port}`;
  const publicUrl = (vars.PUBLIC_URL ?? defaultPublicUrl).replace(/\/+$/, '');

  const publicOrigins = [new URL(publicUrl).origin];
  if (vars.PUBLIC_URL === undefined && isLoopback(host)) {
    // Without an explicit PUBLIC_URL people open http://localhost:PORT as often as
    // http://127.0.0.1:PORT; better-auth must accept the browser's Origin header for both.
    for (const name of ['localhost', '127.0.0.1', '[::1]']) {
      publicOrigins.push(`http://${name}:${port}`);
    }
  }

  return {
    host,
    port,
    dataDir,
    databaseUrl: vars.DATABASE_URL ?? null,
    publicUrl,
    publicOrigins: [...new Set(publicOrigins)],
    trustedOrigins: splitList(vars.TRUSTED_ORIGINS),
    betterAuthSecret: vars.BETTER_AUTH_SECRET ?? null,
    production: vars.NODE_ENV === 'production',
    smtpUrl: vars.SMTP_URL ?? null,
    mailFrom: vars.MAIL_FROM ?? `Docket <no-reply@${new URL(publicUrl).hostname}>`,
    requireEmailVerification: vars.REQUIRE_EMAIL_VERIFICATION === 'true',
    authRateLimitMax: vars.AUTH_RATE_LIMIT_MAX,
    appDir:
      vars.DOCKET_APP_DIR === undefined ? defaultAppDir : resolveFrom(baseDir, vars.DOCKET_APP_DIR),
    sentryOrigin: dsnOrigin(vars.VITE_SENTRY_DSN ?? vars.SENTRY_DSN),
    trustProxy,
    syncHeartbeatMs: Math.round(vars.SYNC_HEARTBEAT_SECONDS * 1000),
    requestTimeoutMs: Math.round(vars.REQUEST_TIMEOUT_SECONDS * 1000),
    connectionTimeoutMs: Math.round(vars.CONNECTION_TIMEOUT_SECONDS * 1000),
    keepAliveTimeoutMs: Math.round(vars.KEEP_ALIVE_TIMEOUT_SECONDS * 1000),
    maxConnections: vars.MAX_CONNECTIONS,
    maxConnectionsPerAddress:
      vars.MAX_CONNECTIONS_PER_ADDRESS ??
      (trustProxy === false ? DEFAULT_CONNECTIONS_PER_ADDRESS : 0),
    bodyMinRate: {
      minBytes: vars.BODY_MIN_RATE_BYTES,
      windowMs: Math.round(vars.BODY_MIN_RATE_SECONDS * 1000),
    },
    accountRateLimitMax: vars.ACCOUNT_RATE_LIMIT_MAX,
    accountMaxConcurrent: vars.ACCOUNT_MAX_CONCURRENT,
    accountRefusalDelayMs: Math.round(vars.ACCOUNT_REFUSAL_DELAY_SECONDS * 1000),
    accountWorkPerSecond: vars.ACCOUNT_WORK_PER_SECOND,
    accountWorkBurst: vars.ACCOUNT_WORK_BURST,
    quotas: {
      blobBytes: Math.floor(vars.QUOTA_BLOBS_MIB * MIB),
      logBytes: Math.floor(vars.QUOTA_LOG_MIB * MIB),
      backupBytes: Math.floor(vars.QUOTA_BACKUPS_MIB * MIB),
    },
    mailPerRecipientPerHour: vars.MAIL_PER_RECIPIENT_PER_HOUR,
    signInFreeFailures: vars.SIGN_IN_FREE_FAILURES,
    signInDelaySeconds: vars.SIGN_IN_DELAY_SECONDS,
    sourceHosts: [
      ...DEFAULT_SOURCE_HOSTS.map((hostname) => ({ hostname, port: null, named: false })),
      ...splitList(vars.SOURCE_HOSTS).map(parseSourceHost),
    ],
    sourceMaxBytes: Math.floor(vars.SOURCE_MAX_MIB * MIB),
    sourceTempSpaceBytes: Math.floor(vars.SOURCE_TEMP_SPACE_MIB * MIB),
    sourceTimeoutMs: Math.round(vars.SOURCE_TIMEOUT_SECONDS * 1000),
    sourceFetchPerMinute: vars.SOURCE_FETCH_PER_MINUTE,
  };
}

/** `host`, `host:port`, `[v6]` or `[v6]:port`, as a URL would write its host. */
function parseSourceHost(entry: string): SourceHost {
  let url: URL | null = null;
  try {
    url = new URL(`http://${entry}`);
  } catch {
    // Reported below with the entry itself.
  }
  const plain =
    url !== null &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    // URL drops a port of 80 for http://; an entry must still mean exactly what it says.
    entry.toLowerCase().replace(/:80$/, '') === url.host;
  if (url === null || !plain) {
    throw new Error(
      `Invalid server configuration: SOURCE_HOSTS entry "${entry}" is not host or host:port (IPv6 in brackets)`,
    );
  }
  const port = /:(\d+)$/.exec(entry)?.[1];
  return { hostname: url.hostname, port: port === undefined ? null : Number(port), named: true };
}

function resolveFrom(baseDir: string, path: string): string {
  return isAbsolute(path) ? path : join(baseDir, path);
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function isLoopback(host: string): boolean {
  return ['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'].includes(host);
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim().replace(/\/+$/, ''))
    .filter((item) => item !== '');
}

function dsnOrigin(dsn: string | undefined): string | null {
  if (dsn === undefined) return null;
  try {
    return new URL(dsn).origin;
  } catch {
    throw new Error('Invalid server configuration: SENTRY_DSN / VITE_SENTRY_DSN is not a URL');
  }
}

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return splitList(value);
}

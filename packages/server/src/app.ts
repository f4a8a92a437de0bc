import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { createAuth } from './auth/auth.ts';
import { loadAuthSecret } from './auth/auth-secret.ts';
import { createMailSender, withRecipientThrottle } from './auth/mail-sender.ts';
import { createRequireUser, markWorkDone } from './auth/require-user.ts';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { AccountLimits } from './http/account-limits.ts';
import { ApiHttpError, sendApiError } from './http/api-error.ts';
import { loggableError } from './http/loggable-error.ts';
import { capConnectionsPerAddress, cutSlowBodies } from './http/slow-clients.ts';
import { registerCors } from './plugins/cors.ts';
import { registerOriginCheck } from './plugins/origin-check.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerStaticFiles } from './plugins/static-files.ts';
import { BackupRepository } from './repositories/backup-repository.ts';
import { MailThrottleRepository } from './repositories/mail-throttle-repository.ts';
import { SignInFailureRepository } from './repositories/sign-in-failure-repository.ts';
import { PublicLinkRepository } from './repositories/public-link-repository.ts';
import { SyncBlobRepository } from './repositories/sync-blob-repository.ts';
import { SyncChangeRepository } from './repositories/sync-change-repository.ts';
import { SyncSettingsRepository } from './repositories/sync-settings-repository.ts';
import { TermsRepository } from './repositories/terms-repository.ts';
import { WorkspaceChangeRepository } from './repositories/workspace-change-repository.ts';
import { WorkspaceRepository } from './repositories/workspace-repository.ts';
import { appShellRoutes } from './routes/app-shell.ts';
import { authRoutes } from './routes/auth.ts';
import { backupRoutes } from './routes/backups.ts';
import { healthRoutes } from './routes/health.ts';
import { publicLinkRoutes } from './routes/public-links.ts';
import { sourceRoutes } from './routes/sources.ts';
import { syncEventsRoutes } from './routes/sync-events.ts';
import { syncRoutes } from './routes/sync.ts';
import { termsRoutes } from './routes/terms.ts';
import { workspaceRoutes } from './routes/workspaces.ts';
import { accountRoutes } from './routes/account.ts';
import { resolveWithDns, type ResolveHost } from './sources/source-fetcher.ts';
import { openSyncNudgeBus } from './sync/sync-nudge-bus.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Said at every start on PGlite. Its Node file system has no fsync (PGlite 0.5 starts PostgreSQL
 * with fsync off, and its fsync and fdatasync calls return without reaching the disk), so a
 * commit is in the operating system's cache, not on the disk, when the server acknowledges it.
 */
export const PGLITE_DURABILITY_WARNING =
  'PGlite does not flush writes to the disk: a crash of the machine or a power cut (not of this process) can lose changes the server acknowledged, or damage the database. For data that matters, run on PostgreSQL (DATABASE_URL).';

/** However many wrong passwords an address has had, its next try waits at most this long. */
const MAX_SIGN_IN_DELAY_SECONDS = 15 * 60;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How a route with its own bodyLimit names an oversized body: error code and subject. */
    tooLarge?: { error: string; what: string };
  }
}

type AppLogger = NonNullable<FastifyServerOptions['logger']>;

export interface BuildAppOptions {
  config: ServerConfig;
  /** Opened (and migrated) by the caller, who also closes it after the app. */
  database: Database;
  logger?: AppLogger;
  /** How the source relay resolves host names: DNS, or a test's own answers. */
  resolveSourceHost?: ResolveHost;
}

export async function buildApp({
  config,
  database,
  logger = false,
  resolveSourceHost = resolveWithDns,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withSafeSerializers(logger),
    bodyLimit: BODY_LIMIT_BYTES,
    // A client that sends its request slowly, or goes silent, must not hold a connection
    // (and a file descriptor) for ever: nobody signed in can open thousands of them.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Node's connection checker reads the request timeout when the server is made (setting it
    // afterwards, as Fastify does, is not enough) and looks only this often (30 s by default).
    http: {
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(config.requestTimeoutMs / 4)),
    },
    // Fastify's types leave out its hop-count form, so a count becomes the equivalent function.
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
  });
  // Only JSON reaches our own routes; anything else is refused with 415 instead of being
  // handed to a handler as a string.
  app.removeContentTypeParser('text/plain');
  // Connections past the cap are closed as they arrive, before any request is read.
  app.server.maxConnections = config.maxConnections;
  // And one address may not take them all, nor hold them with bodies that never finish.
  capConnectionsPerAddress(app.server, config.maxConnectionsPerAddress);
  cutSlowBodies(app.server, config.bodyMinRate);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(handleNotFound);
  app.addHook('onRequest', checkProtocolVersion);
  endKeepAliveWhenClosing(app);

  if (database.kind === 'pglite') app.log.warn(PGLITE_DURABILITY_WARNING);

  // External plugins first: their hooks must see every route registered after them.
  await registerSecurityHeaders(app, config);
  await registerCors(app, config);
  registerOriginCheck(app, config);
  await registerRateLimit(app, database.db);
  await registerStaticFiles(app, config);

  // Then the app's own services.
  const secret = await loadAuthSecret(config, database.db, app.log);
  const mailThrottle = new MailThrottleRepository(database.db);
  const mailSender = withRecipientThrottle(
    createMailSender({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, logger: app.log }),
    (recipient) => mailThrottle.take(recipient, config.mailPerRecipientPerHour),
    app.log,
  );
  // Mail goes out after the answer, so a known and an unknown address answer alike and as fast;
  // close() waits for what is still on its way, before the mailer and the database go.
  const backgroundTasks = new Set<Promise<unknown>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled(backgroundTasks);
    mailSender.close();
  });
  const auth = createAuth({
    config,
    db: database.db,
    secret,
    mailSender,
    logger: app.log,
    runInBackground: (task) => {
      backgroundTasks.add(task);
      void task.finally(() => backgroundTasks.delete(task));
    },
    signInFailures: new SignInFailureRepository(database.db, {
      freeFailures: config.signInFreeFailures,
      delaySeconds: config.signInDelaySeconds,
      maxDelaySeconds: MAX_SIGN_IN_DELAY_SECONDS,
    }),
  });
  const accountLimits = new AccountLimits({
    ratePerMinute: config.accountRateLimitMax,
    maxConcurrent: config.accountMaxConcurrent,
    refusalDelayMs: config.accountRefusalDelayMs,
    ...(config.accountWorkPerSecond > 0
      ? { workPerSecond: config.accountWorkPerSecond, workBurst: config.accountWorkBurst }
      : {}),
  });
  app.decorate('requireUser', createRequireUser(auth, accountLimits));
  app.addHook('onSend', (request, _reply, payload, done) => {
    markWorkDone(request);
    done(null, payload);
  });
  app.decorateRequest('signedInUser', null);
  const terms = new TermsRepository(database.db);
  const syncSettings = new SyncSettingsRepository(database.db);
  const syncChanges = new SyncChangeRepository(database.db);
  const syncBlobs = new SyncBlobRepository(database.db);
  const nudges = await openSyncNudgeBus(database, {
    readNudge: (userId) => syncChanges.readNudge(userId),
    logger: app.log,
  });
  // onClose runs after the event streams were ended (preClose) and before the caller closes
  // the database, which the bus listens on.
  app.addHook('onClose', () => nudges.close());

  // Routes last.
  healthRoutes(app, database);
  await authRoutes(app, auth, config);
  termsRoutes(app, terms);
  accountRoutes(app, database.db, config.quotas);
  await syncRoutes(app, {
    settings: syncSettings,
    changes: syncChanges,
    blobs: syncBlobs,
    quotas: config.quotas,
    limits: accountLimits,
  });
  syncEventsRoutes(app, {
    bus: nudges,
    changes: syncChanges,
    heartbeatMs: config.syncHeartbeatMs,
  });
  const backups = new BackupRepository(database.db);
  backupRoutes(app, backups, config.quotas);
  publicLinkRoutes(app, new PublicLinkRepository(database.db), config.quotas);
  workspaceRoutes(app, {
    workspaces: new WorkspaceRepository(database.db),
    changes: new WorkspaceChangeRepository(database.db),
    quotas: config.quotas,
    limits: accountLimits,
  });
  sourceRoutes(app, config, resolveSourceHost);
  appShellRoutes(app, config.appDir);

  return app;
}

/**
 * Fastify answers requests that arrive during close() with Connection: close, but a request
 * already inside its handler keeps its keep-alive socket, and the server then waits for that
 * idle socket until the client's keep-alive runs out (72 s). Closing those connections too
 * lets a shutdown finish as soon as the last answer is sent.
 */
function endKeepAliveWhenClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * Checks the protocol header on Docket's own API. Auth is better-auth's protocol, not ours, and
 * health must answer any client so it can tell the user which versions are in play.
 */
async function checkProtocolVersion(request: FastifyRequest, reply: FastifyReply) {
  const path = pathOf(request.url);
  if (!path.startsWith('/api/') || path.startsWith('/api/auth/') || path === '/api/health') return;
  const sent = request.headers[PROTOCOL_HEADER];
  if (sent === undefined || sent === String(PROTOCOL_VERSION)) return;
  const clientVersion = Number(sent);
  const advice =
    Number.isInteger(clientVersion) && clientVersion > PROTOCOL_VERSION
      ? 'This server is older than the app; ask whoever runs it to update Docket.'
      : 'Update the app (reload the page, or install the new version).';
  return sendApiError(
    reply,
    426,
    'protocol-mismatch',
    `This app speaks protocol ${String(sent)}; the server speaks ${PROTOCOL_VERSION}. ${advice}`,
  );
}

function handleError(
  error: FastifyError | ApiHttpError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof ApiHttpError) {
    return sendApiError(reply, error.statusCode, error.errorCode, error.message);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return sendApiError(reply, 400, 'invalid-json', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return sendApiError(
        reply,
        400,
        'invalid-json',
        'The request body is empty; send a JSON object.',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const tooLarge = request.routeOptions.config.tooLarge;
      const limit = request.routeOptions.bodyLimit;
      return sendApiError(
        reply,
        413,
        tooLarge?.error ?? 'too-large',
        `${tooLarge?.what ?? 'The request body'} is larger than the ${formatMiB(limit)} limit.`,
      );
    }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return sendApiError(
        reply,
        415,
        'unsupported-media-type',
        `Content type "${request.headers['content-type'] ?? ''}" is not accepted; send application/json.`,
      );
  }
  const statusCode = error.statusCode ?? 500;
  if (error.validation !== undefined || (statusCode >= 400 && statusCode < 500)) {
    return sendApiError(reply, statusCode, 'invalid-request', error.message);
  }
  request.log.error({ err: loggableError(error) }, 'Request failed');
  return sendApiError(
    reply,
    500,
    'internal',
    'Something went wrong on the server. Try again later.',
  );
}

/**
 * Request lines go to the log by path only: query strings and some paths carry tokens
 * (`?token=` of an e-mail link, `/reset-password/<token>`).
 */
function withSafeSerializers(logger: AppLogger): AppLogger {
  if (logger === false) return logger;
  const options = logger === true ? {} : logger;
  return {
    ...options,
    serializers: {
      ...options.serializers,
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggablePath(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}

export function loggablePath(url: string): string {
  return pathOf(url).replace(/(\/reset-password\/)[^/]+/, '$1[token]');
}

function handleNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendApiError(
    reply,
    404,
    'not-found',
    `Nothing at ${request.method} ${pathOf(request.url)}.`,
  );
}

function formatMiB(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(2))} MiB`;
}

function trustHops(count: number) {
  return (_address: string, hop: number) => hop < count;
}

function pathOf(url: string): string {
  return url.split('?', 1)[0] ?? url;
}

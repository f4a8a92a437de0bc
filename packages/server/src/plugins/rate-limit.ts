import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DocketDb } from '../db/database.ts';
import { ApiHttpError } from '../http/api-error.ts';
import { loggableError } from '../http/loggable-error.ts';
import { RateLimitRepository, type RateLimitCount } from '../repositories/rate-limit-repository.ts';

/** How often each process deletes the counts of windows that have ended. */
export const RATE_LIMIT_SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * Registers the limiter without applying it anywhere: routes opt in with `config.rateLimit`
 * (/api/auth/*, where password guessing and mail flooding happen, and public link opens). The
 * counts are kept in the database (`rate_limit_hits`), so server processes sharing a PostgreSQL
 * share each limit instead of multiplying it.
 */
export async function registerRateLimit(app: FastifyInstance, db: DocketDb): Promise<void> {
  const repository = new RateLimitRepository(db);
  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(repository, app.log),
    // Thrown by the plugin and answered by the global error handler in our JSON shape.
    errorResponseBuilder: (_request, context) =>
      new ApiHttpError(429, 'rate-limited', `Too many requests. Try again in ${context.after}.`),
  });
  sweepNowAndThen(app, repository);
}

/**
 * @fastify/rate-limit's store interface over `RateLimitRepository`. The plugin makes the root
 * store itself (`new Store(options)`) and one child per limited route, so each route counts
 * apart: a child's keys start with the route's methods and path.
 *
 * A database error fails closed: the request is refused with 503 rather than let through
 * uncounted (the plugin's `skipOnError`). Letting it through would lift the limit on password
 * guessing whenever the database is slow or failing, which someone can bring about on purpose;
 * and every limited route needs the database to answer anyway (better-auth reads accounts and
 * sessions, a public link is a row), so the refusal costs a user nothing the outage had not.
 * The error is logged and answered, never thrown out of the callback.
 */
export function databaseRateLimitStore(
  repository: RateLimitRepository,
  log: FastifyBaseLogger,
): FastifyRateLimitStoreCtor {
  const answer = (
    counted: Promise<RateLimitCount>,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
  ) => {
    counted.then(
      ({ hits, ttlMs }) => {
        callback(null, { current: hits, ttl: ttlMs });
      },
      (error: unknown) => {
        log.error(
          { err: error instanceof Error ? loggableError(error) : String(error) },
          'The rate limit could not be counted; the request was refused',
        );
        callback(
          new ApiHttpError(
            503,
            'database-unavailable',
            'The server cannot reach its database right now. Try again in a minute.',
          ),
        );
      },
    );
  };

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private namespace = '';

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      answer(repository.hit(this.namespace + key, timeWindow), callback);
    }

    /** What `createRateLimit(...)(request, { increment: false })` asks: the count, unchanged. */
    read(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    ): void {
      answer(repository.read(this.namespace + key), callback);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const store = new DatabaseRateLimitStore();
      store.namespace = `${this.namespace}${routeName(routeOptions)} `;
      return store;
    }
  }
  return DatabaseRateLimitStore;
}

/**
 * The plugin hands `child` the route's merged limit options with the route under `routeInfo`
 * (its types say otherwise); a limiter made by `createRateLimit` has an empty `routeInfo`.
 */
function routeName(options: unknown): string {
  const { routeInfo } = options as { routeInfo?: { method?: string | string[]; url?: string } };
  const methods = [routeInfo?.method ?? []].flat().join(',');
  return `${methods} ${routeInfo?.url ?? ''}`.trim();
}

/**
 * Ended windows are deleted every few minutes by each process, by the index on `expires_at`,
 * rather than on a request's path. A row past its end is harmless meanwhile: the next request
 * of its key starts a new window over it.
 */
function sweepNowAndThen(app: FastifyInstance, repository: RateLimitRepository): void {
  let sweeping: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (sweeping !== undefined) return;
    sweeping = repository
      .sweepExpired()
      .catch((error: unknown) => {
        app.log.warn(
          { err: error instanceof Error ? loggableError(error) : String(error) },
          'Could not delete ended rate limit windows; the next sweep tries again',
        );
      })
      .finally(() => {
        sweeping = undefined;
      });
  }, RATE_LIMIT_SWEEP_INTERVAL_MS);
  timer.unref();
  // Before the caller closes the database: a sweep under way finishes first.
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await sweeping;
  });
}

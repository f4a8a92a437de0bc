import { eq, lte, sql } from 'drizzle-orm';
import type { DocketDb } from '../db/database.ts';
import { rateLimitHits } from '../db/schema.ts';

export interface RateLimitCount {
  /** Requests in the key's current window, this one included. */
  hits: number;
  /** Milliseconds until the window ends and the count starts again. */
  ttlMs: number;
}

/**
 * Requests per key in fixed windows, in the database so every server process counts against one
 * limit. A key's window starts at its first request and lasts `windowMs`; the first request
 * after it starts the next one. Times are the database's (`now()`), so processes with different
 * clocks agree.
 */
export class RateLimitRepository {
  constructor(private readonly db: DocketDb) {}

  /**
   * Counts one request for `key` and returns the window's count. One statement, so concurrent
   * requests through any process each get their own count.
   */
  async hit(key: string, windowMs: number): Promise<RateLimitCount> {
    const window = sql`${windowMs}::double precision * interval '1 millisecond'`;
    const over = sql`${rateLimitHits.expiresAt} <= now()`;
    const [row] = await this.db
      .insert(rateLimitHits)
      .values({ key, hits: 1, windowStart: sql`now()`, expiresAt: sql`now() + ${window}` })
      .onConflictDoUpdate({
        target: rateLimitHits.key,
        set: {
          hits: sql`case when ${over} then 1 else ${rateLimitHits.hits} + 1 end`,
          windowStart: sql`case when ${over} then now() else ${rateLimitHits.windowStart} end`,
          expiresAt: sql`case when ${over} then now() + ${window} else ${rateLimitHits.expiresAt} end`,
        },
      })
      .returning({ hits: rateLimitHits.hits, ttlMs: ttlMs() });
    if (row === undefined) throw new Error('The rate limit upsert returned no row.');
    return row;
  }

  /** The count of `key`'s current window without counting a request; 0 when it has none. */
  async read(key: string): Promise<RateLimitCount> {
    const [row] = await this.db
      .select({ hits: rateLimitHits.hits, ttlMs: ttlMs() })
      .from(rateLimitHits)
      .where(sql`${eq(rateLimitHits.key, key)} and ${rateLimitHits.expiresAt} > now()`);
    return row ?? { hits: 0, ttlMs: 0 };
  }

  /** Deletes the rows of windows that have ended (by the index on `expires_at`). */
  async sweepExpired(): Promise<void> {
    await this.db.delete(rateLimitHits).where(lte(rateLimitHits.expiresAt, sql`now()`));
  }
}

function ttlMs() {
  return sql`greatest(0, ceil(extract(epoch from ${rateLimitHits.expiresAt} - now()) * 1000))`.mapWith(
    Number,
  );
}

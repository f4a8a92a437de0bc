import { eq, sql } from 'drizzle-orm';
import type { DocketDb } from '../db/database.ts';
import { signInFailures } from '../db/schema.ts';

export interface SignInDelayPolicy {
  /** Wrong passwords an address may have before each further try must wait. */
  freeFailures: number;
  /** The first wait; it doubles with each further failure, up to `maxDelaySeconds`. */
  delaySeconds: number;
  maxDelaySeconds: number;
}

/**
 * Each address's failed sign-ins, in the database so every process counts the same guesses.
 * Times are the database's (`now()`), so processes with different clocks agree.
 */
export class SignInFailureRepository {
  constructor(
    private readonly db: DocketDb,
    private readonly policy: SignInDelayPolicy,
  ) {}

  /** Seconds before `email` may try again; 0 when it may now. */
  async secondsToWait(email: string): Promise<number> {
    const [row] = await this.db
      .select({
        failures: signInFailures.failures,
        since: sql`extract(epoch from now() - ${signInFailures.lastFailureAt})`.mapWith(Number),
      })
      .from(signInFailures)
      .where(eq(signInFailures.email, normalise(email)));
    if (row === undefined) return 0;
    const over = row.failures - this.policy.freeFailures;
    if (over < 0) return 0;
    const delay = Math.min(this.policy.maxDelaySeconds, this.policy.delaySeconds * 2 ** over);
    return Math.max(0, Math.ceil(delay - row.since));
  }

  async recordFailure(email: string): Promise<void> {
    await this.db
      .insert(signInFailures)
      .values({ email: normalise(email), failures: 1 })
      .onConflictDoUpdate({
        target: signInFailures.email,
        set: { failures: sql`${signInFailures.failures} + 1`, lastFailureAt: sql`now()` },
      });
  }

  async clear(email: string): Promise<void> {
    await this.db.delete(signInFailures).where(eq(signInFailures.email, normalise(email)));
  }
}

function normalise(email: string): string {
  return email.trim().toLowerCase();
}

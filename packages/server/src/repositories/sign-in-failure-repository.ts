import { and, eq, sql } from 'drizzle-orm';
import type { DocketDb } from '../db/database.ts';
import { signInFailures } from '../db/schema.ts';

export interface SignInDelayPolicy {
  /** Wrong passwords a client may give for one address before each further try must wait. */
  freeFailures: number;
  /** The first wait; it doubles with each further failure, up to `maxDelaySeconds`. */
  delaySeconds: number;
  maxDelaySeconds: number;
}

/** Whether a sign-in may check its password now, and if not, for how long it must wait. */
export type SignInAttempt =
  { readonly allowed: true } | { readonly allowed: false; readonly secondsToWait: number };

/**
 * Failed sign-ins per (address typed, client address), in the database so every process counts
 * the same guesses. Times are the database's (`now()`), so processes with different clocks agree.
 *
 * An attempt is counted as a failure *before* its password is checked, in one statement that
 * also decides whether it may go ahead: forty guesses at once get exactly the free failures
 * checked, never more (a check first and a count after let 13 of them through). A right password
 * clears the count; an attempt that ended some other way (a malformed request, an unverified
 * address) gives its count back.
 */
export class SignInFailureRepository {
  constructor(
    private readonly db: DocketDb,
    private readonly policy: SignInDelayPolicy,
  ) {}

  /** Counts an attempt of `email` from `client` if it may go ahead; says how long to wait if not. */
  async beginAttempt(email: string, client: string): Promise<SignInAttempt> {
    const { freeFailures, delaySeconds, maxDelaySeconds } = this.policy;
    // How long the row's failures make the next try wait, in seconds (0 while under the free
    // failures); the doubling's exponent is capped so the power cannot overflow.
    const wait = sql`(case when ${signInFailures.failures} < ${freeFailures} then 0
      else least(${maxDelaySeconds}::double precision,
        ${delaySeconds}::double precision * power(2::double precision,
          least(${signInFailures.failures} - ${freeFailures}, 40))) end)`;
    // Never below 0: on PostgreSQL an attempt whose transaction began just before another's
    // failure was written sees that failure's time after its own now().
    const since = sql`greatest(extract(epoch from now() - ${signInFailures.lastFailureAt}), 0)`;
    const allowed = sql`(${since} >= ${wait})`;
    const rows = await this.db
      .insert(signInFailures)
      .values({ email: normalise(email), clientAddress: client, failures: 1 })
      .onConflictDoUpdate({
        target: [signInFailures.email, signInFailures.clientAddress],
        set: {
          failures: sql`case when ${allowed} then ${signInFailures.failures} + 1 else ${signInFailures.failures} end`,
          lastFailureAt: sql`case when ${allowed} then now() else ${signInFailures.lastFailureAt} end`,
        },
      })
      .returning({
        // Counted now (its time is this statement's): the attempt goes ahead.
        counted: sql<boolean>`${signInFailures.lastFailureAt} = now()`.mapWith(Boolean),
        failures: signInFailures.failures,
        since: sql`extract(epoch from now() - ${signInFailures.lastFailureAt})`.mapWith(Number),
      });
    const row = rows[0];
    if (row === undefined || row.counted) return { allowed: true };
    const over = row.failures - freeFailures;
    const delay = Math.min(maxDelaySeconds, delaySeconds * 2 ** Math.min(over, 40));
    return { allowed: false, secondsToWait: Math.max(1, Math.ceil(delay - row.since)) };
  }

  /** The attempt's password was right: this client starts afresh for this address. */
  async clear(email: string, client: string): Promise<void> {
    await this.db
      .delete(signInFailures)
      .where(
        and(eq(signInFailures.email, normalise(email)), eq(signInFailures.clientAddress, client)),
      );
  }

  /** The attempt ended without checking a password (or with another refusal): not a failure. */
  async giveBack(email: string, client: string): Promise<void> {
    await this.db
      .update(signInFailures)
      .set({ failures: sql`greatest(${signInFailures.failures} - 1, 0)` })
      .where(
        and(eq(signInFailures.email, normalise(email)), eq(signInFailures.clientAddress, client)),
      );
  }
}

function normalise(email: string): string {
  return email.trim().toLowerCase();
}

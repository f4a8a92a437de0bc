const WINDOW_MS = 60_000;

export type Admission =
  | { admitted: true; release: () => void }
  | {
      admitted: false;
      error: 'rate-limited' | 'too-many-concurrent';
      message: string;
      retryAfterSeconds: number;
    };

export interface AccountLimitOptions {
  /** Requests per account in a minute (a fixed window starting at its first request). */
  ratePerMinute: number;
  /** Requests per account in progress at once. */
  maxConcurrent: number;
  now?: () => number;
}

interface AccountState {
  windowStart: number;
  count: number;
  inFlight: number;
}

/**
 * Each account's share of this process: a request budget per minute and a cap on requests in
 * progress. The cap is what keeps one account's flood from queueing in front of everyone else
 * on PGlite's single connection: an account holds at most `maxConcurrent` places in that queue,
 * and whatever it sends beyond them is refused before it reaches the database.
 *
 * Counts live in this process: behind a load balancer each process gives an account its own
 * budget.
 */
export class AccountLimits {
  private readonly accounts = new Map<string, AccountState>();
  private readonly now: () => number;
  private lastSweep = 0;

  constructor(private readonly options: AccountLimitOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The refusal `admit` would give `userId` now, without counting anything; null when it would
   * admit. For refusing before the work of finding out who is asking (see require-user.ts).
   */
  refusal(
    userId: string,
    { concurrent = true }: { concurrent?: boolean } = {},
  ): Exclude<Admission, { admitted: true }> | null {
    const state = this.accounts.get(userId);
    if (state === undefined) return null;
    const now = this.now();
    if (now - state.windowStart < WINDOW_MS && state.count >= this.options.ratePerMinute) {
      return this.rateLimited(state, now);
    }
    if (concurrent && state.inFlight >= this.options.maxConcurrent) return this.tooManyConcurrent();
    return null;
  }

  /** Counts a request of `userId`; an admitted one holds its place until `release`. */
  admit(userId: string, { concurrent = true }: { concurrent?: boolean } = {}): Admission {
    const now = this.now();
    this.sweep(now);
    let state = this.accounts.get(userId);
    if (state === undefined) {
      state = { windowStart: now, count: 0, inFlight: 0 };
      this.accounts.set(userId, state);
    } else if (now - state.windowStart >= WINDOW_MS) {
      // In place: the releases of requests still in progress hold this object.
      state.windowStart = now;
      state.count = 0;
    }
    if (state.count >= this.options.ratePerMinute) return this.rateLimited(state, now);
    if (concurrent && state.inFlight >= this.options.maxConcurrent) return this.tooManyConcurrent();
    state.count += 1;
    if (!concurrent) return { admitted: true, release: () => undefined };
    state.inFlight += 1;
    const held = state;
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        held.inFlight -= 1;
      },
    };
  }

  private rateLimited(state: AccountState, now: number): Exclude<Admission, { admitted: true }> {
    const seconds = Math.max(1, Math.ceil((state.windowStart + WINDOW_MS - now) / 1000));
    return {
      admitted: false,
      error: 'rate-limited',
      message: `This account made more than ${this.options.ratePerMinute} requests in a minute. Try again in ${seconds} s.`,
      retryAfterSeconds: seconds,
    };
  }

  private tooManyConcurrent(): Exclude<Admission, { admitted: true }> {
    return {
      admitted: false,
      error: 'too-many-concurrent',
      message: `This account already has ${this.options.maxConcurrent} requests in progress. Wait for them, then try again.`,
      retryAfterSeconds: 1,
    };
  }

  /** Forgets accounts whose window ended with nothing in progress, once a window. */
  private sweep(now: number): void {
    if (now - this.lastSweep < WINDOW_MS) return;
    this.lastSweep = now;
    for (const [userId, state] of this.accounts) {
      if (state.inFlight === 0 && now - state.windowStart >= WINDOW_MS) {
        this.accounts.delete(userId);
      }
    }
  }
}

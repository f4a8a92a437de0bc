const WINDOW_MS = 60_000;
/** Refusals of one account answered at once in a second; past them each one waits. */
const PROMPT_REFUSALS_PER_SECOND = 8;

export type Admission =
  | {
      admitted: true;
      /**
       * The request's work is done: its answer is made and only its sending is left. Frees what
       * it holds in common with other accounts (its turn in the lane, its count among the
       * requests in progress others wait for), so a client reading its answer slowly holds back
       * nobody else; the account's own place among its requests in progress stays until
       * `release`. Once is enough; `release` does it too.
       */
      workDone: () => void;
      /** Frees the request's place, and its turn in the lane if it has one; once is enough. */
      release: () => void;
      /**
       * null for an account within its light share: it goes at once. For a heavy account's
       * request, its turn in the lane: true once it may go, false if it was released first.
       */
      turn: Promise<boolean> | null;
    }
  | {
      admitted: false;
      error: 'rate-limited' | 'too-many-concurrent' | 'over-share';
      message: string;
      retryAfterSeconds: number;
    };

export interface AccountLimitOptions {
  /** Requests per account in a minute (a fixed window starting at its first request). */
  ratePerMinute: number;
  /** Requests per account in progress at once. */
  maxConcurrent: number;
  /**
   * How long a refusal is held before it is answered once the account has had more than
   * `PROMPT_REFUSALS_PER_SECOND` refusals in the last second (0: answer every one at once).
   */
  refusalDelayMs?: number;
  /**
   * The work an account may make the server do, in units (a change pushed or pulled, 16 KiB of
   * a blob; `WORK_BYTES_PER_UNIT`), a second on average, and at most at once (a bucket of
   * `workBurst` units refilled at `workPerSecond`). Work is charged once a request is served;
   * while an account's bucket is below zero its requests are refused. Absent: not counted.
   */
  workPerSecond?: number;
  workBurst?: number;
  /**
   * The longest a heavy account's request waits for the other accounts' requests to finish
   * before it goes anyway (see `AccountLimits`). Default 250 ms.
   */
  heavyMaxWaitMs?: number;
  now?: () => number;
}

/** An account is heavy once it used this many seconds' refill beyond it (see `isHeavy`). */
const HEAVY_AFTER_SECONDS = 0.1;

/**
 * An account's requests in progress at once beyond which the next one is heavy: half its cap
 * (`maxConcurrent` is sized as two a device, a sync step and a blob), so each of its devices may
 * have one at once (a nudge makes every device of the account pull together), and at least two,
 * one device's step and blob. More at once is a flood's first seconds, before any is charged.
 */
function lightConcurrentOf(maxConcurrent: number): number {
  return Math.max(2, Math.floor(maxConcurrent / 2));
}

/**
 * While other accounts are working, the heavy accounts' lane rests this many times as long as its
 * last request took: heavy work gets at most a third of the time, on a database of any speed.
 */
const HEAVY_REST_RATIO = 2;

/** Requests of heavy accounts in progress at once in this process. */
const HEAVY_LANE_SLOTS = 1;

interface LaneWaiter {
  userId: string;
  since: number;
  start: () => void;
}

/**
 * The key a team workspace's own share is kept under, beside its members' accounts' (issue 39):
 * the requests to its change log and the work they do count against it as an account's count
 * against the account's, so twenty members together move no more than one account may.
 */
export function workspaceShareKey(workspaceId: string): string {
  return `${WORKSPACE_KEY_PREFIX}${workspaceId}`;
}

const WORKSPACE_KEY_PREFIX = 'workspace:';

/** Who a share is, as a refusal names it. */
function holderOf(key: string): string {
  return key.startsWith(WORKSPACE_KEY_PREFIX) ? 'This workspace' : 'This account';
}

/** One unit of work is a change pushed or pulled, or this many bytes of a blob. */
export const WORK_BYTES_PER_UNIT = 16 * 1024;

interface AccountState {
  userId: string;
  windowStart: number;
  count: number;
  inFlight: number;
  /** Of those, the ones admitted while the account was light. */
  lightInFlight: number;
  /** Units of work left in the bucket (below zero: in debt), as of `workAt`. */
  work: number;
  workAt: number;
}

/**
 * Each account's share of this process: a request budget per minute and a cap on requests in
 * progress. The cap is what keeps one account's flood from queueing in front of everyone else
 * on PGlite's single connection: an account holds at most `maxConcurrent` places in that queue,
 * and whatever it sends beyond them is refused before it reaches the database.
 *
 * Within its share an account may still be heavy: one that moved more than a tenth of a second's
 * worth of work beyond its refill lately (a first sync, a restore, a flood held to the share). Its
 * requests go through a lane: one at a time in this process, and each starts only when no
 * other account's request is in progress, or after `heavyMaxWaitMs`. While other accounts are
 * working (a request of theirs in the last second), the lane also keeps to one account's
 * sustained rate: after a request that moved n units it opens again n / `workPerSecond`
 * seconds after that request began. So the burst is spent fast only on a server nobody else is
 * using; a light account's push meets at most one heavy request, at a sustained pace, not all
 * of a flood's.
 *
 * A request's turn in the lane ends when its work is done (`workDone`: the answer is made), not
 * when a client that reads slowly has taken the last byte of it.
 *
 * Counts live in this process: behind a load balancer each process gives an account its own
 * budget.
 */
export class AccountLimits {
  private readonly accounts = new Map<string, AccountState>();
  private readonly refusals = new Map<string, { secondStart: number; count: number }>();
  private readonly now: () => number;
  private lastSweep = 0;
  /** Light accounts' requests in progress (long-lived ones not counted). */
  private lightInFlight = 0;
  private heavyInFlight = 0;
  private readonly lane: LaneWaiter[] = [];
  private laneTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the last light request was admitted, and whose it was. */
  private lastLightAt = Number.NEGATIVE_INFINITY;
  private lastLightUser: string | null = null;
  /** The last light request of another account than `lastLightUser`. */
  private otherLightAt = Number.NEGATIVE_INFINITY;
  /** When the lane's running request began, and who it is for. */
  private heavyStartedAt = 0;
  private heavyUser: string | null = null;
  /** While other accounts are working, the lane starts nothing before this. */
  private laneOpensAt = 0;

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
    if (this.refill(state, now) < 0) return this.overShare(state);
    return null;
  }

  /**
   * Charges `units` of work to `userId`'s bucket once a request was served (its size is known
   * only then: the changes a pull found, the envelopes a push carried). The bucket may go below
   * zero; the account's next requests wait until it is refilled above it.
   */
  charge(userId: string, units: number): void {
    if (this.options.workPerSecond === undefined || units <= 0) return;
    const state = this.accounts.get(userId);
    if (state === undefined) return;
    const now = this.now();
    this.refill(state, now);
    state.work -= units;
    if (this.heavyUser === userId && this.othersActive(userId, now)) {
      this.laneOpensAt = Math.max(
        this.laneOpensAt,
        this.heavyStartedAt + (units * 1000) / this.options.workPerSecond,
      );
    }
  }

  /**
   * Counts a request served for a share that is not an account's (a workspace's,
   * `workspaceShareKey`) and charges its work, so `refusal` holds the next ones to the same
   * budget and share as an account's. Counted once served, so only requests the workspace's
   * rules let through (its members') spend its share, never an outsider's.
   */
  record(key: string, units: number): void {
    const now = this.now();
    this.sweep(now);
    this.stateOf(key, now).count += 1;
    this.charge(key, units);
  }

  /** `key`'s state, made on its first request and its window started again once it ended. */
  private stateOf(key: string, now: number): AccountState {
    const state = this.accounts.get(key);
    if (state === undefined) {
      const made: AccountState = {
        userId: key,
        windowStart: now,
        count: 0,
        inFlight: 0,
        lightInFlight: 0,
        work: this.options.workBurst ?? 0,
        workAt: now,
      };
      this.accounts.set(key, made);
      return made;
    }
    if (now - state.windowStart >= WINDOW_MS) {
      // In place: the releases of requests still in progress hold this object.
      state.windowStart = now;
      state.count = 0;
    }
    return state;
  }

  /** Counts a request of `userId`; an admitted one holds its place until `release`. */
  admit(userId: string, { concurrent = true }: { concurrent?: boolean } = {}): Admission {
    const now = this.now();
    this.sweep(now);
    const state = this.stateOf(userId, now);
    if (state.count >= this.options.ratePerMinute) return this.rateLimited(state, now);
    if (concurrent && state.inFlight >= this.options.maxConcurrent) return this.tooManyConcurrent();
    if (this.refill(state, now) < 0) return this.overShare(state);
    state.count += 1;
    if (!concurrent) {
      return { admitted: true, workDone: () => undefined, release: () => undefined, turn: null };
    }
    // More at once than the account's devices have (`lightConcurrentOf`) is heavy use before
    // the first of them is even charged (a flood's first seconds).
    const heavy =
      this.isHeavy(state) || state.inFlight >= lightConcurrentOf(this.options.maxConcurrent);
    state.inFlight += 1;
    const held = state;
    let released = false;
    let done = false;
    if (!heavy) {
      this.lightInFlight += 1;
      state.lightInFlight += 1;
      if (userId !== this.lastLightUser) {
        this.otherLightAt = this.lastLightAt;
        this.lastLightUser = userId;
      }
      this.lastLightAt = now;
      const workDone = () => {
        if (done) return;
        done = true;
        this.lightInFlight -= 1;
        held.lightInFlight -= 1;
        this.pumpLane();
      };
      return {
        admitted: true,
        turn: null,
        workDone,
        release: () => {
          if (released) return;
          released = true;
          held.inFlight -= 1;
          workDone();
        },
      };
    }
    let started = false;
    let settle: (go: boolean) => void = () => undefined;
    const turn = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    const waiter: LaneWaiter = {
      userId,
      since: now,
      start: () => {
        started = true;
        this.heavyInFlight += 1;
        this.heavyStartedAt = this.now();
        this.heavyUser = userId;
        settle(true);
      },
    };
    this.lane.push(waiter);
    this.pumpLane();
    const workDone = () => {
      if (done) return;
      done = true;
      if (started) {
        const end = this.now();
        // Whatever its size, heavy work takes at most a share of the time while others work:
        // the lane rests `HEAVY_REST_RATIO` times as long as the request took (on PGlite's one
        // connection, the time it kept everyone else's queries waiting).
        if (this.othersActive(userId, end)) {
          this.laneOpensAt = Math.max(
            this.laneOpensAt,
            end + (end - this.heavyStartedAt) * HEAVY_REST_RATIO,
          );
        }
        this.heavyInFlight -= 1;
        if (this.heavyUser === userId) this.heavyUser = null;
      } else {
        const index = this.lane.indexOf(waiter);
        if (index >= 0) this.lane.splice(index, 1);
        settle(false);
      }
      this.pumpLane();
    };
    return {
      admitted: true,
      turn,
      workDone,
      release: () => {
        if (released) return;
        released = true;
        held.inFlight -= 1;
        workDone();
      },
    };
  }

  /** Requests waiting in the heavy accounts' lane; for tests and the load test's reading. */
  get laneLength(): number {
    return this.lane.length;
  }

  /**
   * Whether `state`'s account moved more than a tenth of a second's worth of work beyond its
   * refill lately (`HEAVY_AFTER_SECONDS`): a device's pushes of a few changes never do, a flood's
   * first push of a hundred does.
   */
  private isHeavy(state: AccountState): boolean {
    const { workPerSecond, workBurst } = this.options;
    if (workPerSecond === undefined) return false;
    return state.work < (workBurst ?? workPerSecond) - workPerSecond * HEAVY_AFTER_SECONDS;
  }

  /** Whether an account other than `userId` is working: a light request of it now or in the last second. */
  private othersActive(userId: string, now: number): boolean {
    return this.othersInFlight(userId) > 0 || now - this.othersLastLightAt(userId) < 1000;
  }

  /** Light requests in progress of other accounts than `userId`. */
  private othersInFlight(userId: string): number {
    return this.lightInFlight - (this.accounts.get(userId)?.lightInFlight ?? 0);
  }

  private othersLastLightAt(userId: string): number {
    return userId === this.lastLightUser ? this.otherLightAt : this.lastLightAt;
  }

  /** Starts the lane's next requests that may go now, and sets a timer for the one that waits. */
  private pumpLane(): void {
    if (this.laneTimer !== undefined) {
      clearTimeout(this.laneTimer);
      this.laneTimer = undefined;
    }
    const maxWaitMs = this.options.heavyMaxWaitMs ?? 250;
    while (this.heavyInFlight < HEAVY_LANE_SLOTS) {
      const head = this.lane[0];
      if (head === undefined) return;
      const now = this.now();
      const othersInFlight = this.othersInFlight(head.userId);
      let waitMs = 0;
      if (this.othersActive(head.userId, now) && now < this.laneOpensAt) {
        // Kept to the sustained pace; looked at again when it opens or the others go quiet.
        waitMs =
          othersInFlight > 0
            ? this.laneOpensAt - now
            : Math.min(this.laneOpensAt, this.othersLastLightAt(head.userId) + 1000) - now;
      } else if (othersInFlight > 0 && now - head.since < maxWaitMs) {
        waitMs = maxWaitMs - (now - head.since);
      }
      if (waitMs > 0) {
        this.laneTimer = setTimeout(() => {
          this.laneTimer = undefined;
          this.pumpLane();
        }, waitMs);
        this.laneTimer.unref();
        return;
      }
      this.lane.shift();
      head.start();
    }
  }

  /**
   * How long to hold a refusal of `userId` before answering it, in milliseconds, counting it.
   *
   * A client that sends again at once whatever Retry-After says (a broken retry loop, or a
   * flood) would otherwise get hundreds of refusals a second, each costing the server Node's
   * and Fastify's work for a request: on a small machine that alone takes the CPU the other
   * accounts need. Held, each of its connections gets about one answer a second, for the cost
   * of a timer. A client that honours Retry-After never gets past the prompt ones.
   */
  refusalDelay(userId: string): number {
    const delayMs = this.options.refusalDelayMs ?? 0;
    if (delayMs <= 0) return 0;
    const now = this.now();
    let recent = this.refusals.get(userId);
    if (recent === undefined || now - recent.secondStart >= 1000) {
      if (this.refusals.size >= 10_000) this.forgetOldRefusals(now);
      recent = { secondStart: now, count: 0 };
      this.refusals.set(userId, recent);
    }
    recent.count += 1;
    return recent.count > PROMPT_REFUSALS_PER_SECOND ? delayMs : 0;
  }

  private forgetOldRefusals(now: number): void {
    for (const [userId, recent] of this.refusals) {
      if (now - recent.secondStart >= 1000) this.refusals.delete(userId);
    }
  }

  private rateLimited(state: AccountState, now: number): Exclude<Admission, { admitted: true }> {
    const seconds = Math.max(1, Math.ceil((state.windowStart + WINDOW_MS - now) / 1000));
    return {
      admitted: false,
      error: 'rate-limited',
      message: `${holderOf(state.userId)} made more than ${this.options.ratePerMinute} requests in a minute. Try again in ${seconds} s.`,
      retryAfterSeconds: seconds,
    };
  }

  /** The bucket's units now, refilled for the time since it was last looked at. */
  private refill(state: AccountState, now: number): number {
    const { workPerSecond, workBurst } = this.options;
    if (workPerSecond === undefined) return 0;
    const elapsed = Math.max(0, now - state.workAt);
    state.work = Math.min(
      workBurst ?? workPerSecond,
      state.work + (elapsed / 1000) * workPerSecond,
    );
    state.workAt = now;
    return state.work;
  }

  private overShare(state: AccountState): Exclude<Admission, { admitted: true }> {
    const perSecond = this.options.workPerSecond ?? 1;
    const seconds = Math.max(1, Math.ceil(-state.work / perSecond));
    return {
      admitted: false,
      error: 'over-share',
      message: `${holderOf(state.userId)} moved more than its share of changes lately (${perSecond} a second on average). Try again in ${seconds} s.`,
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
    this.forgetOldRefusals(now);
    for (const [userId, state] of this.accounts) {
      if (
        state.inFlight === 0 &&
        now - state.windowStart >= WINDOW_MS &&
        this.refill(state, now) >= (this.options.workBurst ?? 0)
      ) {
        this.accounts.delete(userId);
      }
    }
  }
}

import { apiErrorSchema } from '@docket/protocol/api-error';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedInUserOf } from '../src/auth/require-user.ts';
import { AccountLimits } from '../src/http/account-limits.ts';
import { session } from '../src/db/schema.ts';
import { listen, openSocket } from './raw-http.ts';
import { makeBatch, pull, push, readSettings } from './sync-client.ts';
import { setup, signUp } from './test-server.ts';

// One account's fair share: a request budget a minute and a cap on requests in progress, so
// that its flood is refused at the door instead of queueing in front of everyone else.

const RATE = 8;
const CONCURRENT = 2;
const server = setup({
  env: {
    ACCOUNT_RATE_LIMIT_MAX: String(RATE),
    ACCOUNT_MAX_CONCURRENT: String(CONCURRENT),
  },
});
/** Requests of /api/test/hold wait here until the test lets them go. */
let holding: Array<() => void> = [];

beforeAll(() => {
  server.app.get('/api/test/hold', { onRequest: server.app.requireUser }, async (request) => {
    signedInUserOf(request);
    await new Promise<void>((resolve) => {
      holding.push(resolve);
    });
    return { held: true };
  });
});

function app(): FastifyInstance {
  return server.app;
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('per-account rate limit', () => {
  it(`answers 429 rate-limited with Retry-After past ${RATE} requests a minute; other accounts go on`, async () => {
    const flooder = await signUp(app());
    const other = await signUp(app());
    for (let index = 1; index <= RATE; index += 1) {
      expect((await readSettings(app(), flooder.cookie)).statusCode, `request ${index}`).toBe(200);
    }
    const limited = await readSettings(app(), flooder.cookie);
    expect(limited.statusCode).toBe(429);
    expect(apiErrorSchema.parse(limited.json()).error).toBe('rate-limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Bearer or cookie, it is the account that is counted.
    const byBearer = await app().inject({
      method: 'GET',
      url: '/api/sync/settings',
      headers: { authorization: `Bearer ${flooder.bearer}` },
    });
    expect(byBearer.statusCode).toBe(429);

    expect((await readSettings(app(), other.cookie)).statusCode).toBe(200);
    expect((await app().inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('per-account cap on requests in progress', () => {
  it(`holds ${CONCURRENT} requests of one account at once, refuses the rest with 429, and answers another account meanwhile`, async () => {
    const flooder = await signUp(app());
    const other = await signUp(app());
    holding = [];
    const flood = Array.from({ length: 6 }, () =>
      app().inject({ method: 'GET', url: '/api/test/hold', headers: { cookie: flooder.cookie } }),
    );
    let answered = 0;
    for (const each of flood) {
      void each.then(() => {
        answered += 1;
      });
    }
    // The ones past the cap are answered while the first ones are still held.
    await until(() => holding.length === CONCURRENT && answered === flood.length - CONCURRENT);

    // Another account is answered while the flooder's requests are held.
    const otherPull = await pull(app(), other.cookie, 'since=0');
    expect(otherPull.statusCode).toBe(200);
    expect(holding).toHaveLength(CONCURRENT);
    expect(answered).toBe(flood.length - CONCURRENT);

    for (const release of holding) release();
    const responses = await Promise.all(flood);
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    for (const response of responses.filter((each) => each.statusCode === 429)) {
      expect(apiErrorSchema.parse(response.json()).error).toBe('too-many-concurrent');
      expect(response.headers['retry-after']).toBe('1');
    }
    // The places are given back once the answers are sent.
    holding = [];
    const again = app().inject({
      method: 'GET',
      url: '/api/test/hold',
      headers: { cookie: flooder.cookie },
    });
    await until(() => holding.length === 1);
    for (const release of holding) release();
    expect((await again).statusCode).toBe(200);
  });

  it('refuses a request past the cap before looking up its session, and still checks the admitted ones', async () => {
    const flooder = await signUp(app());
    holding = [];
    const held = Array.from({ length: CONCURRENT }, () =>
      app().inject({ method: 'GET', url: '/api/test/hold', headers: { cookie: flooder.cookie } }),
    );
    await until(() => holding.length === CONCURRENT);
    // The session is gone from the database (revoked elsewhere): a lookup would answer 401.
    await server.database.db.delete(session).where(eq(session.userId, flooder.userId));

    const refused = await readSettings(app(), flooder.cookie);
    expect(refused.statusCode).toBe(429);
    expect(apiErrorSchema.parse(refused.json()).error).toBe('too-many-concurrent');

    for (const release of holding) release();
    expect((await Promise.all(held)).map((response) => response.statusCode)).toEqual([200, 200]);
    // Under the cap again, the request is looked up, and the revoked session is refused.
    expect((await readSettings(app(), flooder.cookie)).statusCode).toBe(401);
  });

  it('keeps another account answered while one floods pushes on the database', async () => {
    const flooder = await signUp(app());
    const other = await signUp(app());
    const flood = Array.from({ length: 30 }, () => push(app(), flooder.cookie, makeBatch(20)));
    const answered = await pull(app(), other.cookie, 'since=0');
    expect(answered.statusCode).toBe(200);
    const statuses = (await Promise.all(flood)).map((response) => response.statusCode);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
  });
});

describe('a client that sends again at once whatever Retry-After says', () => {
  it('gets its first eight refusals of a second at once, then each one held, and they start again prompt the next second', () => {
    let now = 1_000_000;
    const limits = new AccountLimits({
      ratePerMinute: 100,
      maxConcurrent: 1,
      refusalDelayMs: 1000,
      now: () => now,
    });
    const delays = Array.from({ length: 10 }, () => limits.refusalDelay('flooder'));
    expect(delays).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1000, 1000]);
    // Another account's refusals are its own.
    expect(limits.refusalDelay('other')).toBe(0);
    now += 1000;
    expect(limits.refusalDelay('flooder')).toBe(0);
    // Turned off, nothing is held.
    const off = new AccountLimits({ ratePerMinute: 100, maxConcurrent: 1, now: () => now });
    expect(Array.from({ length: 20 }, () => off.refusalDelay('flooder'))).not.toContain(1000);
  });

  it('is answered 429 with Retry-After after the hold, while another account is answered at once', async () => {
    const holdMs = 300;
    const paced = await server.build({
      ACCOUNT_MAX_CONCURRENT: '1',
      ACCOUNT_REFUSAL_DELAY_SECONDS: String(holdMs / 1000),
    });
    const released: Array<() => void> = [];
    paced.app.get('/api/test/hold', { onRequest: paced.app.requireUser }, async () => {
      await new Promise<void>((resolve) => {
        released.push(resolve);
      });
      return { held: true };
    });
    try {
      const flooder = await signUp(paced.app);
      const other = await signUp(paced.app);
      const holder = paced.app.inject({
        method: 'GET',
        url: '/api/test/hold',
        headers: { cookie: flooder.cookie },
      });
      await until(() => released.length === 1);
      // Nine refusals in a row, each sent as soon as the last is answered: the ninth is held.
      const took: number[] = [];
      for (let index = 0; index < 9; index += 1) {
        const started = performance.now();
        const refused = await readSettings(paced.app, flooder.cookie);
        took.push(performance.now() - started);
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['retry-after']).toBe('1');
        expect(apiErrorSchema.parse(refused.json()).error).toBe('too-many-concurrent');
      }
      expect(took[8]).toBeGreaterThanOrEqual(holdMs - 5);
      // While the flooder's next refusal is held, another account's request is served.
      const heldRefusal = readSettings(paced.app, flooder.cookie);
      expect((await readSettings(paced.app, other.cookie)).statusCode).toBe(200);
      expect((await heldRefusal).statusCode).toBe(429);
      for (const release of released) release();
      expect((await holder).statusCode).toBe(200);
    } finally {
      await paced.app.close();
    }
  });
});

describe('per-account share of the work: changes and blob bytes a second', () => {
  it('lets an account spend its burst, refuses it over-share while in debt, and refills at the rate', () => {
    let now = 5_000_000;
    const limits = new AccountLimits({
      ratePerMinute: 1000,
      maxConcurrent: 4,
      workPerSecond: 100,
      workBurst: 500,
      now: () => now,
    });
    const served = limits.admit('flooder');
    expect(served.admitted).toBe(true);
    if (served.admitted) served.release();
    // A pull of 700 changes is served whole (its size is known only once served): 200 in debt.
    limits.charge('flooder', 700);
    const refused = limits.admit('flooder');
    expect(refused).toMatchObject({ admitted: false, error: 'over-share', retryAfterSeconds: 2 });
    expect(limits.refusal('flooder')).toMatchObject({ error: 'over-share' });
    // Another account has its own bucket.
    expect(limits.admit('other').admitted).toBe(true);
    // Two seconds refill 200 units: back at zero, admitted again.
    now += 2_000;
    expect(limits.admit('flooder').admitted).toBe(true);
    // The bucket never holds more than the burst, however long the account was quiet.
    now += 3_600_000;
    limits.charge('flooder', 501);
    expect(limits.admit('flooder')).toMatchObject({ admitted: false, error: 'over-share' });
  });

  it('refuses a flood of pushes with 429 over-share and Retry-After, and serves another account meanwhile', async () => {
    const shared = await server.build({
      ACCOUNT_WORK_PER_SECOND: '10',
      ACCOUNT_WORK_BURST: '100',
    });
    try {
      const flooder = await signUp(shared.app);
      const other = await signUp(shared.app);
      const statuses: number[] = [];
      let refusal: {
        statusCode: number;
        headers: Record<string, unknown>;
        json(): unknown;
      } | null = null;
      for (let index = 0; index < 8; index += 1) {
        const response = await push(shared.app, flooder.cookie, makeBatch(40));
        statuses.push(response.statusCode);
        if (response.statusCode === 429) refusal ??= response;
      }
      // 100 units: the first three pushes of 40 are served (the third goes 20 into debt).
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses.slice(3).every((status) => status === 429)).toBe(true);
      expect(refusal?.headers['retry-after']).toBe('2');
      const body = apiErrorSchema.parse(refusal?.json());
      expect(body.error).toBe('over-share');
      expect(body.message).toMatch(/more than its share of changes/);
      expect((await pull(shared.app, other.cookie, 'since=0')).statusCode).toBe(200);
      // The debt is the account's, whatever the route: its own pull waits too.
      expect((await pull(shared.app, flooder.cookie, 'since=0')).statusCode).toBe(429);
    } finally {
      await shared.app.close();
    }
  });
});

describe("a heavy account's lane: it yields to the others' requests", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function laneLimits(now: () => number, maxConcurrent = 4): AccountLimits {
    return new AccountLimits({
      ratePerMinute: 1000,
      maxConcurrent,
      workPerSecond: 100,
      workBurst: 1000,
      heavyMaxWaitMs: 250,
      now,
    });
  }

  /** Whether `turn` has settled, and how, after the promise jobs already queued. */
  async function settled(turn: Promise<boolean> | null): Promise<boolean | 'waiting'> {
    if (turn === null) return true;
    return Promise.race([
      turn,
      new Promise<'waiting'>((resolve) => setTimeout(resolve, 0, 'waiting')),
    ]);
  }

  it("keeps a device's pushes of a few changes light: its requests go at once", () => {
    let now = 0;
    const limits = laneLimits(() => now);
    admitted(limits.admit('device')).release();
    // 5 changes at 100 units a second: within a tenth of a second's refill.
    limits.charge('device', 5);
    expect(admitted(limits.admit('device')).turn).toBeNull();
    // A pull of 50 is past it: heavy until refilled, half a second later.
    limits.charge('device', 50);
    const heavy = admitted(limits.admit('device'));
    expect(heavy.turn).not.toBeNull();
    heavy.release();
    now += 500;
    expect(admitted(limits.admit('device')).turn).toBeNull();
  });

  it("puts an account's third request at once in the lane, before any of them was charged", async () => {
    const limits = laneLimits(() => Date.now());
    const step = admitted(limits.admit('phone'));
    const blob = admitted(limits.admit('phone'));
    expect(step.turn).toBeNull();
    expect(blob.turn).toBeNull();
    const third = admitted(limits.admit('phone'));
    expect(third.turn).not.toBeNull();
    // Nobody else is working: its turn comes at once.
    expect(await settled(third.turn)).toBe(true);
    for (const admission of [step, blob, third]) admission.release();
    expect(admitted(limits.admit('phone')).turn).toBeNull();
  });

  it("keeps an account's devices pulling together after a nudge light, up to half its cap", () => {
    // A cap of 8 is four devices' step and blob: all four pulling at once go at once; a fifth
    // request at once is more than its devices have, and waits in the lane.
    const limits = laneLimits(() => Date.now(), 8);
    const pulls = [1, 2, 3, 4].map(() => admitted(limits.admit('four-devices')));
    for (const pull of pulls) expect(pull.turn).toBeNull();
    const fifth = admitted(limits.admit('four-devices'));
    expect(fifth.turn).not.toBeNull();
    for (const admission of [...pulls, fifth]) admission.release();
    expect(limits.laneLength).toBe(0);
  });

  it("holds a heavy account's request while another account's is in progress, and starts it when that one ends", async () => {
    vi.useFakeTimers();
    const limits = laneLimits(() => Date.now());
    admitted(limits.admit('sync')).release();
    // A first sync that moved 300 changes beyond its refill: heavy from now on.
    limits.charge('sync', 300);
    const other = admitted(limits.admit('other'));
    expect(other.turn).toBeNull();
    const heavy = admitted(limits.admit('sync'));
    expect(heavy.turn).not.toBeNull();
    expect(limits.laneLength).toBe(1);
    vi.advanceTimersByTime(100);
    expect(await settledFake(heavy.turn)).toBe('waiting');
    other.release();
    expect(await settledFake(heavy.turn)).toBe(true);
    expect(limits.laneLength).toBe(0);
    heavy.release();
  });

  it('lets a heavy request go after the longest wait, even while others keep working', async () => {
    vi.useFakeTimers();
    const limits = laneLimits(() => Date.now());
    admitted(limits.admit('sync')).release();
    limits.charge('sync', 300);
    const other = admitted(limits.admit('other'));
    const heavy = admitted(limits.admit('sync'));
    vi.advanceTimersByTime(249);
    expect(await settledFake(heavy.turn)).toBe('waiting');
    vi.advanceTimersByTime(1);
    expect(await settledFake(heavy.turn)).toBe(true);
    heavy.release();
    other.release();
  });

  it('keeps a heavy account to its sustained rate while others work, and lets it spend its burst when they are quiet', async () => {
    vi.useFakeTimers();
    const limits = laneLimits(() => Date.now());
    admitted(limits.admit('sync')).release();
    limits.charge('sync', 300);
    // Another account was served a moment ago: the server is in use.
    admitted(limits.admit('other')).release();
    const first = admitted(limits.admit('sync'));
    expect(await settledFake(first.turn)).toBe(true);
    vi.advanceTimersByTime(20);
    // A pull of 50 changes at 100 units a second: the lane opens half a second after it began.
    limits.charge('sync', 50);
    first.release();
    const second = admitted(limits.admit('sync'));
    vi.advanceTimersByTime(200);
    admitted(limits.admit('other')).release();
    vi.advanceTimersByTime(279);
    expect(await settledFake(second.turn)).toBe('waiting');
    vi.advanceTimersByTime(1);
    expect(await settledFake(second.turn)).toBe(true);
    limits.charge('sync', 50);
    second.release();
    // The others go quiet for a second: the burst is the heavy account's to spend at once.
    vi.advanceTimersByTime(1000);
    const third = admitted(limits.admit('sync'));
    expect(await settledFake(third.turn)).toBe(true);
    limits.charge('sync', 500);
    third.release();
    const fourth = admitted(limits.admit('sync'));
    expect(await settledFake(fourth.turn)).toBe(true);
    fourth.release();
  });

  it('rests the lane twice as long as its last request took while others work, whatever its size', async () => {
    let now = 0;
    const limits = laneLimits(() => now);
    admitted(limits.admit('sync')).release();
    limits.charge('sync', 300);
    const first = admitted(limits.admit('sync'));
    expect(await settledFake(first.turn)).toBe(true);
    // Another account's request is in progress while the heavy one takes 400 ms.
    const other = admitted(limits.admit('other'));
    now = 400;
    first.workDone();
    const second = admitted(limits.admit('sync'));
    // A light request's end looks at the lane again: still resting at 1,199 ms, open at 1,200.
    now = 1199;
    admitted(limits.admit('third')).release();
    expect(await settledFake(second.turn)).toBe('waiting');
    now = 1200;
    admitted(limits.admit('third')).release();
    expect(await settledFake(second.turn)).toBe(true);
    second.release();
    other.release();
    first.release();
  });

  it('runs heavy requests one at a time, and one given up before its turn leaves the lane', async () => {
    const limits = laneLimits(() => Date.now());
    admitted(limits.admit('a')).release();
    admitted(limits.admit('b')).release();
    limits.charge('a', 300);
    limits.charge('b', 300);
    const first = admitted(limits.admit('a'));
    const second = admitted(limits.admit('b'));
    const third = admitted(limits.admit('a'));
    expect(await settled(first.turn)).toBe(true);
    expect(await settled(second.turn)).toBe('waiting');
    // The client of the second went away: its turn says so, and the third's comes next.
    second.release();
    expect(await settled(second.turn)).toBe(false);
    expect(await settled(third.turn)).toBe('waiting');
    first.release();
    // After the lane's rest (twice as long as the first took, as b worked a moment ago).
    expect(await third.turn).toBe(true);
    third.release();
    // Light again once refilled: a full bucket goes at once.
    expect(limits.laneLength).toBe(0);
  });

  it("answers another account's request while a heavy account's flood of pushes is held in its lane", async () => {
    const shared = await server.build({
      ACCOUNT_WORK_PER_SECOND: '10',
      ACCOUNT_WORK_BURST: '1000',
      ACCOUNT_MAX_CONCURRENT: '4',
    });
    shared.app.get('/api/test/hold', { onRequest: shared.app.requireUser }, async (request) => {
      signedInUserOf(request);
      await new Promise<void>((resolve) => {
        holding.push(resolve);
      });
      return { held: true };
    });
    try {
      const heavy = await signUp(shared.app);
      const other = await signUp(shared.app);
      // 40 changes beyond a second's refill of 10: the account is heavy.
      expect((await push(shared.app, heavy.cookie, makeBatch(40))).statusCode).toBe(200);
      holding = [];
      const held = shared.app.inject({
        method: 'GET',
        url: '/api/test/hold',
        headers: { cookie: other.cookie },
      });
      await until(() => holding.length === 1);
      // The heavy account's push waits for the other account's request (up to 250 ms).
      let pushed = false;
      const heavyPush = push(shared.app, heavy.cookie, makeBatch(5)).then((response) => {
        pushed = true;
        return response;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(pushed).toBe(false);
      holding.shift()?.();
      expect((await held).statusCode).toBe(200);
      expect((await heavyPush).statusCode).toBe(200);
      // Nothing was lost on the way: both pushes are in the account's log.
      const page = await pull(shared.app, heavy.cookie, 'since=0');
      expect(page.statusCode).toBe(200);
      expect(page.json<{ changes: unknown[] }>().changes).toHaveLength(45);
    } finally {
      await shared.app.close();
    }
  });
});

describe('a client reading its answer slowly', () => {
  it("holds back no other account: another heavy account's pull is answered within a second", async () => {
    const shared = await server.build({
      ACCOUNT_WORK_PER_SECOND: '10',
      ACCOUNT_WORK_BURST: '1000',
      ACCOUNT_MAX_CONCURRENT: '4',
    });
    let answered = false;
    // 32 MiB: more than loopback's socket buffers take, so a client that reads nothing leaves
    // most of it unsent for as long as it likes.
    shared.app.get(
      '/api/test/large',
      { onRequest: shared.app.requireUser },
      async (request, reply) => {
        signedInUserOf(request);
        answered = true;
        return reply.type('application/octet-stream').send(Buffer.alloc(32 * 1024 * 1024, 1));
      },
    );
    const port = await listen(shared.app);
    const slowReader = await signUp(shared.app);
    const other = await signUp(shared.app);
    try {
      // 40 changes beyond a second's refill of 10: both accounts are heavy, their requests go
      // through the lane one at a time.
      expect((await push(shared.app, slowReader.cookie, makeBatch(40))).statusCode).toBe(200);
      expect((await push(shared.app, other.cookie, makeBatch(40))).statusCode).toBe(200);
      const socket = await openSocket(port);
      socket.pause();
      socket.write(
        `GET /api/test/large HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${slowReader.cookie}\r\n\r\n`,
      );
      await until(() => answered);
      const started = Date.now();
      const page = await pull(shared.app, other.cookie, 'since=0');
      expect(page.statusCode).toBe(200);
      expect(page.json<{ changes: unknown[] }>().changes).toHaveLength(40);
      expect(Date.now() - started).toBeLessThan(1000);
      socket.destroy();
    } finally {
      await shared.app.close();
    }
  });

  it("frees the lane when the work is done, and the account's own place only at release", () => {
    // A clock that stands still: the slow request took no time, so the lane owes no rest (it
    // rests twice a request's time while others work, and 'next' was working a moment ago). With
    // the real clock a busy machine let a millisecond pass, and 'next' waited for the rest.
    const limits = new AccountLimits({
      ratePerMinute: 100,
      maxConcurrent: 1,
      workPerSecond: 10,
      workBurst: 1000,
      now: () => 1_000_000,
    });
    admitted(limits.admit('slow')).release();
    admitted(limits.admit('next')).release();
    limits.charge('slow', 40);
    limits.charge('next', 40);
    const slow = admitted(limits.admit('slow'));
    const next = admitted(limits.admit('next'));
    expect(limits.laneLength).toBe(1);
    slow.workDone();
    // The next heavy request starts at once; the slow account still holds its one place.
    expect(limits.laneLength).toBe(0);
    expect(limits.admit('slow')).toMatchObject({ admitted: false, error: 'too-many-concurrent' });
    slow.release();
    expect(admitted(limits.admit('slow')).turn).not.toBeNull();
    next.release();
  });
});

function admitted(admission: ReturnType<AccountLimits['admit']>) {
  if (!admission.admitted) throw new Error(`refused: ${admission.error}`);
  return admission;
}

/** `settled` under fake timers: the queued promise jobs run, no timer is needed. */
async function settledFake(turn: Promise<boolean> | null): Promise<boolean | 'waiting'> {
  if (turn === null) return true;
  let outcome: boolean | 'waiting' = 'waiting';
  void turn.then((go) => {
    outcome = go;
  });
  await Promise.resolve();
  await Promise.resolve();
  return outcome;
}

import { beforeAll, describe, expect, it } from 'vitest';
import { pushResponseSchema } from '@docket/protocol/sync-changes';
import { sql } from 'drizzle-orm';
import { listenerName } from '../src/db/database.ts';
import {
  makeBatch,
  openEventStream,
  passwordSettings,
  push,
  writeSettings,
} from './sync-client.ts';
import { buildTestApp, openTestDatabase, setup, signUp } from './test-server.ts';

// Server-sent events over real HTTP: inject cannot hold a stream open while other requests run.

const server = setup({ env: { SYNC_HEARTBEAT_SECONDS: '0.2' } });
let address: string;

beforeAll(async () => {
  address = await server.app.listen({ host: '127.0.0.1', port: 0 });
});

describe('sync events', () => {
  it('start with where things stand, then nudge after a push and a settings change', async () => {
    const { cookie } = await signUp(server.app);
    await push(server.app, cookie, makeBatch(2));
    const stream = await openEventStream(address, cookie);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(await stream.nextNudge()).toEqual({ latestSeqno: 2, settingsVersion: 0 });

      await push(server.app, cookie, makeBatch(3));
      expect(await stream.nextNudge()).toEqual({ latestSeqno: 5, settingsVersion: 0 });

      // A password change on another device must reach this one as surely as a new change.
      await writeSettings(server.app, cookie, 0, passwordSettings(0));
      expect(await stream.nextNudge()).toEqual({ latestSeqno: 5, settingsVersion: 1 });
    } finally {
      stream.close();
    }
  });

  it("never nudge a user about another user's changes", async () => {
    const alice = await signUp(server.app);
    const bob = await signUp(server.app);
    const stream = await openEventStream(address, alice.cookie);
    try {
      expect(await stream.nextNudge()).toEqual({ latestSeqno: 0, settingsVersion: 0 });
      await push(server.app, bob.cookie, makeBatch(4));
      await push(server.app, alice.cookie, makeBatch(1));
      // The next nudge is Alice's own push; Bob's four changes never showed up.
      expect(await stream.nextNudge()).toEqual({ latestSeqno: 1, settingsVersion: 0 });
    } finally {
      stream.close();
    }
  });

  it('send heartbeats while idle, and nothing for a repeated batch', async () => {
    const { cookie } = await signUp(server.app);
    const batch = makeBatch(1);
    await push(server.app, cookie, batch);
    const stream = await openEventStream(address, cookie);
    try {
      expect(await stream.nextNudge()).toEqual({ latestSeqno: 1, settingsVersion: 0 });
      await push(server.app, cookie, batch);
      // Two heartbeats (0.2 s apart) and no nudge among what came before them.
      const seen: string[] = [];
      while (seen.filter((event) => event === 'comment').length < 2) {
        seen.push((await stream.next())?.event ?? 'end');
      }
      expect(seen.filter((event) => event !== 'comment' && event !== 'retry')).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it('refuse a signed-out client', async () => {
    const response = await fetch(`${address}/api/sync/events`);
    expect(response.status).toBe(401);
  });
});

it('ends open event streams when the server closes, and the close does not wait for them', async () => {
  const own = await server.build();
  const ownAddress = await own.app.listen({ host: '127.0.0.1', port: 0 });
  const { cookie } = await signUp(own.app);
  const stream = await openEventStream(ownAddress, cookie);
  expect(await stream.nextNudge()).toEqual({ latestSeqno: 0, settingsVersion: 0 });
  const started = Date.now();
  await own.app.close();
  expect(Date.now() - started).toBeLessThan(5000);
  // The stream ends cleanly (done), not with an error.
  for (;;) {
    const event = await stream.next();
    if (event === null) break;
  }
});

// Several server processes on one PostgreSQL: a push taken by one must nudge the devices
// connected to another. PGlite is one process's database, so there is nothing to cross there.
describe.skipIf(!process.env.DATABASE_URL)('two server processes on one PostgreSQL', () => {
  it('pass a nudge from the process that took the push to the one holding the stream', async () => {
    const otherDatabase = await openTestDatabase();
    const other = await buildTestApp(otherDatabase);
    try {
      const otherAddress = await other.app.listen({ host: '127.0.0.1', port: 0 });
      const { cookie } = await signUp(server.app);
      const stream = await openEventStream(otherAddress, cookie);
      try {
        expect(await stream.nextNudge()).toEqual({ latestSeqno: 0, settingsVersion: 0 });
        await push(server.app, cookie, makeBatch(3));
        expect(await stream.nextNudge()).toEqual({ latestSeqno: 3, settingsVersion: 0 });
        await writeSettings(server.app, cookie, 0, passwordSettings(0));
        expect(await stream.nextNudge()).toEqual({ latestSeqno: 3, settingsVersion: 1 });
      } finally {
        stream.close();
      }
    } finally {
      await other.app.close();
      await otherDatabase.close();
    }
  });

  it('keep nudging after the listening connection was cut', async () => {
    const otherDatabase = await openTestDatabase();
    const other = await buildTestApp(otherDatabase);
    try {
      const { cookie } = await signUp(server.app);
      const stream = await openEventStream(address, cookie);
      try {
        expect(await stream.nextNudge()).toEqual({ latestSeqno: 0, settingsVersion: 0 });
        // Cut every LISTEN session of this test process, as a database failover would.
        const cut: unknown = await server.database.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${listenerName()}`,
        );
        // Both apps' listeners (this file's and the other one's) were cut.
        expect((cut as { rows: unknown[] }).rows.length).toBeGreaterThanOrEqual(2);
        // Pushed while the listener may still be down: the nudge arrives live after the
        // reconnect, or as the catch-up nudge sent on reconnecting.
        await push(other.app, cookie, makeBatch(3));
        expect(await stream.nextNudge()).toEqual({ latestSeqno: 3, settingsVersion: 0 });
        await push(other.app, cookie, makeBatch(1));
        expect(await stream.nextNudge()).toEqual({ latestSeqno: 4, settingsVersion: 0 });
      } finally {
        stream.close();
      }
    } finally {
      await other.app.close();
      await otherDatabase.close();
    }
  });

  it('number pushes taken by two processes at once without duplicates or gaps', async () => {
    const otherDatabase = await openTestDatabase();
    const other = await buildTestApp(otherDatabase);
    try {
      const { cookie } = await signUp(server.app);
      const batches = Array.from({ length: 16 }, (_item, index) => makeBatch((index % 4) + 1));
      const responses = await Promise.all(
        batches.map((batch, index) => push((index % 2 === 0 ? server : other).app, cookie, batch)),
      );
      const seqnos = responses
        .flatMap((response) => pushResponseSchema.parse(response.json()).seqnos)
        .sort((a, b) => a - b);
      const total = batches.reduce((sum, batch) => sum + batch.envelopes.length, 0);
      expect(seqnos).toEqual(Array.from({ length: total }, (_item, index) => index + 1));
    } finally {
      await other.app.close();
      await otherDatabase.close();
    }
  });
});

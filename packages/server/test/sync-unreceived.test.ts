import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { pushResponseSchema, unreceivedResponseSchema } from '@docket/protocol/sync-changes';
import { syncPaths } from '@docket/protocol/sync-wire';
import { describe, expect, it } from 'vitest';
import { makeBatch, passwordSettings, push, writeSettings } from './sync-client.ts';
import { setup, signUp } from './test-server.ts';

// GET /api/sync/unreceived: what a cloud password reset on the asking device would take out of
// the account, counted from seqnos, device ids and epochs alone.

const server = setup();

function app() {
  return server.app;
}

function unreceived(cookie: string, query: string) {
  return app().inject({
    method: 'GET',
    url: `${syncPaths.unreceived}?${query}`,
    headers: { cookie, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) },
  });
}

async function countFor(cookie: string, since: number, deviceId: string): Promise<number> {
  const response = await unreceived(cookie, `since=${since}&deviceId=${deviceId}`);
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return unreceivedResponseSchema.parse(response.json()).envelopes;
}

async function pushAs(cookie: string, deviceId: string, envelopes: number, epoch = 0) {
  const response = await push(app(), cookie, makeBatch(envelopes, { deviceId, epoch }));
  expect(response.statusCode).toBe(200);
  return pushResponseSchema.parse(response.json());
}

describe('what a device has not received', () => {
  it("counts the other devices' envelopes after the cursor, not the asker's own", async () => {
    const { cookie } = await signUp(app());
    expect(await countFor(cookie, 0, 'device-b')).toBe(0);

    await pushAs(cookie, 'device-a', 3); // seqnos 1-3
    await pushAs(cookie, 'device-b', 2); // 4-5, the asker's own
    await pushAs(cookie, 'device-c', 1); // 6

    expect(await countFor(cookie, 0, 'device-b')).toBe(4);
    expect(await countFor(cookie, 2, 'device-b')).toBe(2);
    expect(await countFor(cookie, 5, 'device-b')).toBe(1);
    expect(await countFor(cookie, 6, 'device-b')).toBe(0);
    // A cursor past the log's end (a log cleared since) counts nothing.
    expect(await countFor(cookie, 1000, 'device-b')).toBe(0);
    // Another asker counts B's envelopes among the others'.
    expect(await countFor(cookie, 0, 'device-a')).toBe(3);
  });

  it('counts only the current key epoch: what an earlier reset left behind is gone already', async () => {
    const { cookie } = await signUp(app());
    await pushAs(cookie, 'device-a', 2); // epoch 0, seqnos 1-2
    const reset = await writeSettings(app(), cookie, 0, passwordSettings(1));
    expect(reset.statusCode).toBe(200);
    await pushAs(cookie, 'device-a', 1, 1); // epoch 1, seqno 3

    // A device whose cursor is under the old epoch sends the epoch's start; 0 counts the same.
    expect(await countFor(cookie, 2, 'device-b')).toBe(1);
    expect(await countFor(cookie, 0, 'device-b')).toBe(1);
  });

  it("never counts another user's log", async () => {
    const alice = await signUp(app());
    const bob = await signUp(app());
    await pushAs(alice.cookie, 'device-a', 5);
    expect(await countFor(bob.cookie, 0, 'device-b')).toBe(0);
    await pushAs(bob.cookie, 'device-a', 1);
    expect(await countFor(bob.cookie, 0, 'device-b')).toBe(1);
    expect(await countFor(alice.cookie, 0, 'device-b')).toBe(5);
  });

  it('refuses a bad query with a 400 that names the field', async () => {
    const { cookie } = await signUp(app());
    const cases = [
      ['', /"since"/],
      ['since=0', /"deviceId"/],
      ['deviceId=device-a', /"since"/],
      ['since=-1&deviceId=device-a', /"since"/],
      ['since=abc&deviceId=device-a', /"since"/],
      ['since=0&deviceId=', /"deviceId"/],
      ['since=0&deviceId=has%20space', /"deviceId"/],
      ['since=0&deviceId=device-a&limit=5', /"limit"/],
    ] as const;
    for (const [query, names] of cases) {
      const response = await unreceived(cookie, query);
      expect(response.statusCode, query).toBe(400);
      const body = response.json<{ error: string; message: string }>();
      expect(body.error, query).toBe('invalid-request');
      expect(body.message, query).toMatch(names);
    }
  });

  it('needs a signed-in user', async () => {
    const response = await app().inject({
      method: 'GET',
      url: `${syncPaths.unreceived}?since=0&deviceId=device-a`,
    });
    expect(response.statusCode).toBe(401);
  });
});

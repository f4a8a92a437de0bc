import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listen, openSocket, timedGet, untilClosed } from './raw-http.ts';
import { setup } from './test-server.ts';

// Issue 42: one address trickling bodies must not hold the connections everyone else needs.

const server = setup({ app: false });

/** A second client on this machine (Linux routes 127.0.0.0/8 to loopback). */
const OTHER_CLIENT = '127.0.0.2';

/** A sign-in body of `length` bytes (JSON padded with spaces) and the headers announcing it. */
function signInRequest(length: number): { head: string; body: Buffer } {
  const json = JSON.stringify({ email: 'nobody@example.test', password: 'not the password' });
  const body = Buffer.from(json.padEnd(length, ' '));
  const head =
    'POST /api/auth/sign-in/email HTTP/1.1\r\nHost: localhost\r\n' +
    `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
  return { head, body };
}

/** Writes `body` in `chunk`-byte pieces, one every `everyMs`, until it is sent or the socket ends. */
function trickle(socket: Socket, body: Buffer, chunk: number, everyMs: number): () => void {
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= body.length || socket.destroyed) {
      clearInterval(timer);
      return;
    }
    socket.write(body.subarray(sent, sent + chunk));
    sent += chunk;
  }, everyMs);
  return () => {
    clearInterval(timer);
  };
}

describe('a request body', () => {
  it('arriving slower than the minimum rate gets 408 and its connection closed; one at a normal rate does not', async () => {
    const { app } = await server.build({
      BODY_MIN_RATE_BYTES: '1024',
      BODY_MIN_RATE_SECONDS: '1',
    });
    const port = await listen(app);
    try {
      const request = signInRequest(10 * 1024);
      const slow = await openSocket(port);
      slow.write(request.head);
      // Ten bytes a second: the request timeout (300 s) would let this hold on for minutes.
      const stopSlow = trickle(slow, request.body, 1, 100);
      // Five KiB a second, for two seconds: over several windows, each above the minimum.
      const normal = await openSocket(port);
      normal.write(request.head);
      trickle(normal, request.body, 1024, 200);
      normal.once('data', () => normal.end());

      const [cut, served] = await Promise.all([untilClosed(slow, 5000), untilClosed(normal, 5000)]);
      stopSlow();
      expect(cut.closed).toBe(true);
      expect(cut.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(cut.received).toContain('"error":"request-too-slow"');
      expect(cut.afterMs).toBeLessThan(3000);
      // better-auth read it all and refused the unknown address.
      expect(served.received).toMatch(/^HTTP\/1\.1 401 /);
      expect(served.afterMs).toBeGreaterThan(1500);
    } finally {
      await app.close();
    }
  });

  it('is not cut while the server is the one not reading it', async () => {
    const { app } = await server.build({
      BODY_MIN_RATE_BYTES: '1024',
      BODY_MIN_RATE_SECONDS: '0.5',
    });
    // Stands in for a route still waiting (on the database, in a lane) before it reads a body.
    app.post(
      '/test/late-reader',
      {
        onRequest: (_request, _reply, done) => {
          setTimeout(done, 2000);
        },
      },
      (request) => ({ read: (request.body as { pad: string }).pad.length }),
    );
    const port = await listen(app);
    try {
      const socket = await openSocket(port);
      // Far more than Node buffers before it stops reading the socket (16 KiB).
      const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(512 * 1024) }));
      socket.write(
        'POST /test/late-reader HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n' +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body);
      const { received, closed } = await untilClosed(socket, 8000);
      expect(closed).toBe(true);
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await app.close();
    }
  });
});

describe('connections per address', () => {
  it('past the cap are closed on arrival, while another address is served', async () => {
    const { app } = await server.build({ MAX_CONNECTIONS_PER_ADDRESS: '5' });
    const port = await listen(app);
    const held: Socket[] = [];
    try {
      for (let index = 0; index < 5; index += 1) held.push(await openSocket(port));
      const refused = await untilClosed(await openSocket(port), 3000);
      expect(refused).toMatchObject({ closed: true, received: '' });
      expect(refused.afterMs).toBeLessThan(1000);

      const other = await timedGet(port, '/api/health', OTHER_CLIENT);
      expect(other.status).toBe(200);
      expect(other.ms).toBeLessThan(1000);

      // A closed connection gives its place back.
      held.shift()?.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await timedGet(port, '/api/health', '127.0.0.1')).status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
      await app.close();
    }
  });
});

it('one address trickling many sign-ins leaves the server answering another within a second', async () => {
  // Issue 42's 1,000 slow bodies against MAX_CONNECTIONS 1,000, scaled down by five.
  const { app } = await server.build({
    MAX_CONNECTIONS: '200',
    MAX_CONNECTIONS_PER_ADDRESS: '50',
    // Longer than the wait below, so that without the cap the server is still full then.
    BODY_MIN_RATE_SECONDS: '3',
  });
  const port = await listen(app);
  const stops: Array<() => void> = [];
  let sockets: Socket[] = [];
  try {
    const request = signInRequest(200);
    // All at once, so that none of the first is cut before the last arrive.
    sockets = await Promise.all(Array.from({ length: 200 }, () => openSocket(port)));
    let refused = 0;
    let burstTakenIn = () => {};
    const taken = new Promise<void>((resolve) => (burstTakenIn = resolve));
    const outcomes = sockets.map(async (socket) => {
      socket.write(request.head);
      // A byte every half second.
      stops.push(trickle(socket, request.body, 1, 500));
      const outcome = await untilClosed(socket, 8000);
      if (outcome.received === '' && (refused += 1) === 150) burstTakenIn();
      return outcome;
    });

    // While they are held: once the server has turned the excess away (or, without a cap,
    // well before the first window ends).
    await Promise.race([taken, new Promise((resolve) => setTimeout(resolve, 1500))]);
    const health = await timedGet(port, '/api/health', OTHER_CLIENT);
    expect(health.status).toBe(200);
    expect(health.ms).toBeLessThan(1000);

    // The fifty let in are cut by the body rate, the rest were never let in.
    const ended = await Promise.all(outcomes);
    expect(ended.every((outcome) => outcome.closed)).toBe(true);
    expect(ended.filter((outcome) => outcome.received.startsWith('HTTP/1.1 408 ')).length).toBe(50);
    expect(refused).toBe(150);
    expect(Math.max(...ended.map((outcome) => outcome.afterMs))).toBeLessThan(6000);
  } finally {
    for (const stop of stops) stop();
    for (const socket of sockets) socket.destroy();
    await app.close();
  }
});

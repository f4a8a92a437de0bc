import { once } from 'node:events';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

// Real sockets, for what inject cannot show: timeouts, closed connections, client addresses.
// Linux routes all of 127.0.0.0/8 to loopback, so 127.0.0.2 is another client on this machine.

/** Listens on a free loopback port and answers it. */
export async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function openSocket(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  // A server that refuses a connection resets it, maybe before the caller listens: that shows
  // as the close untilClosed reports.
  socket.on('error', () => {});
  await once(socket, 'connect');
  return socket;
}

/**
 * What the server sent before it closed the socket, and how long it took to close it; a socket
 * still open after `giveUpMs` is destroyed and reported with `closed: false`.
 */
export async function untilClosed(
  socket: Socket,
  giveUpMs = 10_000,
): Promise<{ received: string; afterMs: number; closed: boolean }> {
  const started = Date.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  let closed = true;
  const giveUp = setTimeout(() => {
    closed = false;
    socket.destroy();
  }, giveUpMs);
  // Not events.once: it would reject on the reset that comes with a refused connection.
  if (!socket.closed) await new Promise((resolve) => socket.once('close', resolve));
  clearTimeout(giveUp);
  return { received, afterMs: Date.now() - started, closed };
}

/** A GET on a connection of its own from `localAddress`: its status and how long it took. */
export async function timedGet(
  port: number,
  path: string,
  localAddress: string,
): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port, path, localAddress, agent: false, timeout: 5000 },
      (response) => {
        response.resume();
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, ms: Date.now() - started });
        });
      },
    );
    sent.on('timeout', () => sent.destroy(new Error(`GET ${path} timed out`)));
    sent.on('error', reject);
    sent.end();
  });
}

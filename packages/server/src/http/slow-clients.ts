import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// A client that holds connections open without sending (slowloris, a body trickled a byte every
// few seconds) costs it nothing and costs the server a connection each, out of MAX_CONNECTIONS:
// enough of them from one machine and nobody else gets in. Both guards act on the Node server,
// before Fastify: the first on the socket, the second on the body whatever the route does.

/**
 * Closes a connection on arrival while its peer address already holds `maxPerAddress` (0: no
 * cap). The peer is the TCP one: behind a proxy, the proxy (forwarded headers come later, with a
 * request, and a connection is refused before any is read).
 */
export function capConnectionsPerAddress(server: Server, maxPerAddress: number): void {
  if (maxPerAddress === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // already gone
    const count = open.get(address) ?? 0;
    if (count >= maxPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

export interface BodyMinRate {
  /** Bytes a body must bring in every window while it is incomplete; 0 turns the check off. */
  minBytes: number;
  windowMs: number;
}

/**
 * Cuts a request whose body brings fewer than `minBytes` in a window with 408 and closes the
 * connection (Apache's mod_reqtimeout MinRate; nginx's client_body_timeout, between reads). The
 * request timeout alone let a trickle hold its connection for minutes. Windows run only while
 * the server is reading the socket: when it pauses (a route has not started on the body yet and
 * the buffer is full), the client is not the one holding things up.
 */
export function cutSlowBodies(server: Server, { minBytes, windowMs }: BodyMinRate): void {
  if (minBytes === 0) return;
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!hasBody(request)) return;
    const socket = request.socket;
    let timer: NodeJS.Timeout | undefined;
    let baseline = 0;
    const pause = () => {
      clearTimeout(timer);
      timer = undefined;
    };
    const startWindow = () => {
      pause();
      baseline = socket.bytesRead;
      timer = setTimeout(endWindow, windowMs).unref();
    };
    const stop = () => {
      pause();
      socket.off('pause', pause);
      socket.off('resume', startWindow);
      socket.off('close', stop);
    };
    const endWindow = () => {
      // `complete` is set when the last byte is parsed, whether or not a route has read it.
      if (request.complete || socket.destroyed) {
        stop();
      } else if (socket.bytesRead - baseline >= minBytes) {
        startWindow();
      } else {
        stop();
        cut(socket, response, minBytes, windowMs);
      }
    };
    socket.on('pause', pause);
    socket.on('resume', startWindow);
    socket.once('close', stop);
    // At once when the body has been read (a keep-alive socket carries many requests).
    request.once('end', stop);
    request.once('close', stop);
    if (!socket.isPaused()) startWindow();
  });
}

/** HTTP/1.1 requests carry a body only with one of these headers (RFC 9112, 6.3). */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

function cut(socket: Socket, response: ServerResponse, minBytes: number, windowMs: number): void {
  if (!response.headersSent) {
    const body = JSON.stringify({
      error: 'request-too-slow',
      message: `The request arrived slower than ${minBytes} bytes in ${windowMs / 1000} s; send it again.`,
    });
    // Written on the socket, as Node writes its own 408: the route may still be waiting for
    // the body, and nothing else may follow on this connection.
    socket.write(
      'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n' +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
}

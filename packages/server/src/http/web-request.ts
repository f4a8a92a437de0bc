import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The header that hands better-auth's hooks the client's address (never a client's own). */
export const CLIENT_ADDRESS_HEADER = 'x-docket-client-address';

/** better-auth speaks the Fetch API; these carry a Fastify exchange across that boundary. */
export function toWebHeaders(headers: IncomingHttpHeaders): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) result.append(name, item);
  }
  return result;
}

/**
 * The URL is rebuilt on the public origin rather than the Host header: better-auth compares it
 * with its baseURL, and a Host header is whatever the client chose to send.
 */
export function toWebRequest(request: FastifyRequest, publicUrl: string): Request {
  const url = new URL(request.url, `${new URL(publicUrl).origin}/`);
  const headers = toWebHeaders(request.headers);
  // The client's address as Fastify resolved it (TRUST_PROXY decides whether forwarded headers
  // count), for the hooks that count per client; one a client sent itself is dropped.
  headers.delete(CLIENT_ADDRESS_HEADER);
  headers.set(CLIENT_ADDRESS_HEADER, request.ip);
  const init: RequestInit = { method: request.method, headers };
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  if (hasBody && Buffer.isBuffer(request.body)) init.body = request.body;
  return new Request(url, init);
}

/** Copies status, every header (each Set-Cookie separately) and the body onto the reply. */
export async function sendWebResponse(
  reply: FastifyReply,
  response: Response,
): Promise<FastifyReply> {
  reply.code(response.status);
  copyWebHeaders(reply, response.headers);
  const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
  return reply.send(body);
}

export function copyWebHeaders(reply: FastifyReply, headers: Headers): void {
  for (const [name, value] of headers) {
    // Set-Cookie cannot be folded into one line; content-length is recomputed by Fastify.
    if (name === 'set-cookie' || name === 'content-length') continue;
    reply.header(name, value);
  }
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
}

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { apiErrorSchema } from '@docket/protocol/api-error';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import {
  sourceFetchErrorSchema,
  sourceRelayHeaders,
  sourceRelayPaths,
} from '@docket/protocol/source-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specialAddressKind } from '../src/sources/address-policy.ts';
import { resolveWithDns, type ResolveHost } from '../src/sources/source-fetcher.ts';
import { PUBLIC_URL, setup, signUp } from './test-server.ts';

// The relay against a real HTTP server standing in for a source, on 127.0.0.1 and named in
// SOURCE_HOSTS, and a second one that is not named (a loopback service the relay must not
// reach). Host names of the default allowlist are answered by the test's resolver, so "a name
// that resolves to loopback" is tested without touching real DNS.

const BODY = randomBytes(6000);
const MAX_BYTES = 16 * 1024;
const TIMEOUT_SECONDS = 1;
const API_KEY = 'secret-api-key-6b1f';
const QUERY_KEY = 'secret-query-key-93ad';

let source: Server;
let sourcePort: number;
let hidden: Server;
let hiddenPort: number;
/** The last X-API-Key the source was sent, per path. */
const receivedKeys = new Map<string, string | undefined>();
const receivedAccepts = new Map<string, string | undefined>();
let hiddenHits = 0;
/** Answers of /held that have sent their bytes and wait for the test to end them. */
const heldAnswers: ServerResponse[] = [];
/** Names the test resolver answers; others go to real DNS. */
const fakeDns = new Map<string, string[]>();
const lookups: string[] = [];

const resolve: ResolveHost = async (hostname) => {
  lookups.push(hostname);
  const answer = fakeDns.get(hostname);
  if (answer === undefined) return resolveWithDns(hostname);
  return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

function handleSource(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://source');
  receivedKeys.set(url.pathname, request.headers['x-api-key'] as string | undefined);
  receivedAccepts.set(url.pathname, request.headers.accept);
  switch (url.pathname) {
    case '/data.bin': {
      if (request.headers['if-none-match'] === '"v1"') {
        response.writeHead(304, { etag: '"v1"', 'last-modified': 'Tue, 01 Jul 2025 10:00:00 GMT' });
        response.end();
        return;
      }
      response.writeHead(200, {
        etag: '"v1"',
        'last-modified': 'Tue, 01 Jul 2025 10:00:00 GMT',
        'content-type': 'application/zip',
      });
      response.end(BODY);
      return;
    }
    case '/gzip': {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
      response.end(gzipSync(BODY));
      return;
    }
    case '/redirect':
      response.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      response.end();
      return;
    case '/loop':
      response.writeHead(301, { location: '/loop' });
      response.end();
      return;
    case '/big': {
      // Chunked, no Content-Length: the relay finds out only by reading.
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(4096, 7);
      for (let index = 0; index < 64; index += 1) response.write(chunk);
      response.end();
      return;
    }
    case '/big-announced':
      response.writeHead(200, { 'content-length': String(MAX_BYTES * 100) });
      response.end(Buffer.alloc(10));
      return;
    case '/slow': {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 100);
      response.once('close', () => {
        clearInterval(timer);
      });
      setTimeout(() => {
        clearInterval(timer);
        response.end();
      }, 5000).unref();
      return;
    }
    case '/sized':
    case '/held': {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.write(Buffer.alloc(Number(url.searchParams.get('bytes')), 1));
      if (url.pathname === '/held') heldAnswers.push(response);
      else response.end();
      return;
    }
    case '/stall':
      // Headers never come: the relay waits for its own deadline.
      return;
    case '/cut':
      response.writeHead(200, { 'content-length': '1000' });
      response.write(Buffer.alloc(10));
      setTimeout(() => response.destroy(), 20);
      return;
    case '/limited':
      response.writeHead(429, { 'retry-after': '42' });
      response.end('slow down');
      return;
    case '/refused':
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end('{"error":"invalid key"}');
      return;
    default:
      response.writeHead(404);
      response.end();
  }
}

async function listen(server: Server, host: string): Promise<number> {
  server.listen(0, host);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  source = createServer(handleSource);
  sourcePort = await listen(source, '127.0.0.1');
  hidden = createServer((_request, response) => {
    hiddenHits += 1;
    response.end('internal');
  });
  hiddenPort = await listen(hidden, '127.0.0.1');
});

afterAll(() => {
  source.closeAllConnections();
  hidden.closeAllConnections();
  source.close();
  hidden.close();
});

// After the beforeAll above, which learns the ports the app's settings name.
const server = setup({
  env: () => ({
    SOURCE_HOSTS: `127.0.0.1:${sourcePort}, sim.test:${sourcePort}`,
    SOURCE_MAX_MIB: String(MAX_BYTES / (1024 * 1024)),
    SOURCE_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
  }),
  resolveSourceHost: resolve,
});

const sourceUrl = (path: string) => `http://127.0.0.1:${sourcePort}${path}`;

function relay(cookie: string | null, body: Record<string, unknown>, origin?: string) {
  return server.app.inject({
    method: 'POST',
    url: sourceRelayPaths.fetch,
    headers: {
      [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
      ...(cookie === null ? {} : { cookie }),
      ...(origin === undefined ? {} : { origin }),
    },
    payload: body,
  });
}

function refusal(response: { json: () => unknown }) {
  return sourceFetchErrorSchema.parse(response.json());
}

describe('source relay', () => {
  it('streams an allowed source’s bytes with its ETag, Last-Modified, type and final URL', async () => {
    const { cookie } = await signUp(server.app);
    const response = await relay(cookie, { url: sourceUrl('/data.bin'), apiKeyHeader: API_KEY });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.rawPayload.equals(BODY)).toBe(true);
    expect(response.headers[sourceRelayHeaders.etag]).toBe('"v1"');
    expect(response.headers[sourceRelayHeaders.lastModified]).toBe('Tue, 01 Jul 2025 10:00:00 GMT');
    expect(response.headers[sourceRelayHeaders.contentType]).toBe('application/zip');
    expect(response.headers[sourceRelayHeaders.url]).toBe(sourceUrl('/data.bin'));
    expect(receivedKeys.get('/data.bin')).toBe(API_KEY);
    expect(receivedAccepts.get('/data.bin')).toBe('*/*');
  });

  it('sends the Accept a request names (GovInfo’s bulk data listings answer 406 to another)', async () => {
    const { cookie } = await signUp(server.app);
    const response = await relay(cookie, {
      url: sourceUrl('/data.bin'),
      accept: 'application/json',
    });
    expect(response.statusCode).toBe(200);
    expect(receivedAccepts.get('/data.bin')).toBe('application/json');
  });

  it('answers 304 with the same headers when the ETag still holds, and no body', async () => {
    const { cookie } = await signUp(server.app);
    const response = await relay(cookie, { url: sourceUrl('/data.bin'), etag: '"v1"' });
    expect(response.statusCode).toBe(304);
    expect(response.rawPayload.length).toBe(0);
    expect(response.headers[sourceRelayHeaders.etag]).toBe('"v1"');
    expect(response.headers[sourceRelayHeaders.lastModified]).toBe('Tue, 01 Jul 2025 10:00:00 GMT');
    const changed = await relay(cookie, { url: sourceUrl('/data.bin'), etag: '"v0"' });
    expect(changed.statusCode).toBe(200);
  });

  it('decodes a gzip-encoded answer and follows a redirect, saying the final URL', async () => {
    const { cookie } = await signUp(server.app);
    const response = await relay(cookie, { url: sourceUrl('/redirect?to=/gzip') });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(BODY)).toBe(true);
    expect(response.headers[sourceRelayHeaders.url]).toBe(sourceUrl('/gzip'));
  });

  it('connects to the address it checked: a name is looked up once, never again at connect', async () => {
    const { cookie } = await signUp(server.app);
    // sim.test is in no DNS: only the checked answer can have been used to connect.
    fakeDns.set('sim.test', ['127.0.0.1']);
    lookups.length = 0;
    const response = await relay(cookie, { url: `http://sim.test:${sourcePort}/data.bin` });
    expect(response.statusCode).toBe(200);
    expect(lookups).toEqual(['sim.test']);
  });

  it('refuses hosts that are not on the allowlist, naming the host and SOURCE_HOSTS', async () => {
    const { cookie } = await signUp(server.app);
    const response = await relay(cookie, { url: 'https://example.com/bills.zip' });
    expect(response.statusCode).toBe(403);
    const body = refusal(response);
    expect(body.error).toBe('host-not-allowed');
    expect(body.message).toContain('example.com');
    expect(body.message).toContain('SOURCE_HOSTS');
  });

  it('refuses loopback, private and link-local addresses that SOURCE_HOSTS does not name', async () => {
    const { cookie } = await signUp(server.app);
    for (const url of [
      `http://127.0.0.1:${hiddenPort}/`,
      'http://10.0.0.8/',
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${hiddenPort}/`,
      `http://localhost:${hiddenPort}/`,
    ]) {
      const response = await relay(cookie, { url });
      expect(response.statusCode, url).toBe(403);
      expect(refusal(response).error, url).toBe('host-not-allowed');
    }
    expect(hiddenHits).toBe(0);
  });

  it('refuses an allowed name that resolves to a loopback, private or link-local address', async () => {
    const { cookie } = await signUp(server.app);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.1.20',
      '169.254.169.254',
      '::1',
      '::ffff:127.0.0.1',
      'fd12::1',
      'fe80::1',
      '0.0.0.0',
    ]) {
      fakeDns.set('api.legiscan.com', ['93.184.215.14', address]);
      const response = await relay(cookie, { url: 'https://api.legiscan.com/?op=getDatasetList' });
      expect(response.statusCode, address).toBe(403);
      const body = refusal(response);
      expect(body.error, address).toBe('host-not-allowed');
      expect(body.message, address).toContain(`resolves to ${address}`);
    }
  });

  it('checks a redirect’s target again: to a loopback address or a name that resolves to one', async () => {
    const { cookie } = await signUp(server.app);
    fakeDns.set('api.legiscan.com', ['127.0.0.1']);
    for (const target of [
      `http://127.0.0.1:${hiddenPort}/`,
      `http://[::1]:${hiddenPort}/`,
      `http://api.legiscan.com:${hiddenPort}/`,
      'http://api.legiscan.com/',
    ]) {
      const url = sourceUrl(`/redirect?to=${encodeURIComponent(target)}`);
      const response = await relay(cookie, { url });
      expect(response.statusCode, target).toBe(403);
      expect(refusal(response).error, target).toBe('host-not-allowed');
    }
    expect(hiddenHits).toBe(0);
  });

  it('stops after five redirects', async () => {
    const { cookie } = await signUp(server.app);
    const response = await relay(cookie, { url: sourceUrl('/loop') });
    expect(response.statusCode).toBe(502);
    expect(refusal(response)).toMatchObject({ error: 'source-status', status: 301 });
  });

  it('refuses an answer larger than SOURCE_MAX_MIB, announced or found out by reading', async () => {
    const { cookie } = await signUp(server.app);
    for (const path of ['/big', '/big-announced']) {
      const response = await relay(cookie, { url: sourceUrl(path) });
      expect(response.statusCode, path).toBe(413);
      const body = refusal(response);
      expect(body.error, path).toBe('source-too-large');
      expect(body.message, path).toContain('SOURCE_MAX_MIB');
    }
  });

  it('gives up on a source slower than SOURCE_TIMEOUT_SECONDS, even one that keeps sending', async () => {
    const { cookie } = await signUp(server.app);
    const started = Date.now();
    const response = await relay(cookie, { url: sourceUrl('/slow') });
    expect(response.statusCode).toBe(504);
    expect(refusal(response).error).toBe('source-timeout');
    expect(Date.now() - started).toBeLessThan(TIMEOUT_SECONDS * 1000 + 2000);
  });

  it('says an answer cut short is unreachable, not a whole file', async () => {
    const { cookie } = await signUp(server.app);
    const response = await relay(cookie, { url: sourceUrl('/cut') });
    expect(response.statusCode).toBe(502);
    expect(refusal(response).error).toBe('source-unreachable');
  });

  it('passes a source’s 429 on with its Retry-After', async () => {
    const { cookie } = await signUp(server.app);
    const response = await relay(cookie, { url: sourceUrl('/limited') });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('42');
    expect(refusal(response).error).toBe('source-rate-limited');
  });

  it('answers a refused key (source 401) with 502 source-status 401', async () => {
    const { cookie } = await signUp(server.app);
    const response = await relay(cookie, { url: sourceUrl('/refused'), apiKeyHeader: 'wrong' });
    expect(response.statusCode).toBe(502);
    const body = refusal(response);
    expect(body).toMatchObject({ error: 'source-status', status: 401 });
    expect(body.message).toContain('API key');
  });

  it('answers 502 source-unreachable when nothing listens there', async () => {
    const { cookie } = await signUp(server.app);
    fakeDns.set('sim.test', ['127.0.0.1']);
    const closed = createServer();
    const port = await listen(closed, '127.0.0.1');
    closed.close();
    await once(closed, 'close');
    const app = await server.build(
      { SOURCE_HOSTS: `127.0.0.1:${port}` },
      { resolveSourceHost: resolve },
    );
    try {
      const response = await app.app.inject({
        method: 'POST',
        url: sourceRelayPaths.fetch,
        headers: { cookie },
        payload: { url: `http://127.0.0.1:${port}/` },
      });
      expect(response.statusCode).toBe(502);
      expect(refusal(response).error).toBe('source-unreachable');
    } finally {
      await app.app.close();
    }
  });

  it('refuses what is not an http(s) URL with 400 invalid-url', async () => {
    const { cookie } = await signUp(server.app);
    for (const url of ['not a url', 'file:///etc/passwd', 'ftp://legiscan.com/x', 'gopher://x']) {
      const response = await relay(cookie, { url });
      expect(response.statusCode, url).toBe(400);
      expect(refusal(response).error, url).toBe('invalid-url');
    }
  });

  it('refuses a signed-out client with 401 and a foreign origin with 403', async () => {
    const signedOut = await relay(null, { url: sourceUrl('/data.bin') });
    expect(signedOut.statusCode).toBe(401);
    const { cookie } = await signUp(server.app);
    const foreign = await relay(cookie, { url: sourceUrl('/data.bin') }, 'https://evil.example');
    expect(foreign.statusCode).toBe(403);
    expect(apiErrorSchema.parse(foreign.json()).error).toBe('forbidden-origin');
    const own = await relay(cookie, { url: sourceUrl('/data.bin') }, PUBLIC_URL);
    expect(own.statusCode).toBe(200);
  });

  it('never logs the query string or the API key, only host and path', async () => {
    const { cookie } = await signUp(server.app);
    await relay(cookie, { url: sourceUrl(`/data.bin?key=${QUERY_KEY}`), apiKeyHeader: API_KEY });
    await relay(cookie, { url: sourceUrl(`/refused?key=${QUERY_KEY}`), apiKeyHeader: API_KEY });
    const logged = JSON.stringify(server.logs);
    expect(logged).toContain('/data.bin');
    expect(logged).not.toContain(QUERY_KEY);
    expect(logged).not.toContain(API_KEY);
  });
});

describe('source relay rate limit', () => {
  it('answers 429 rate-limited with Retry-After past SOURCE_FETCH_PER_MINUTE; others go on', async () => {
    const limited = await server.build(
      { SOURCE_FETCH_PER_MINUTE: '3', SOURCE_HOSTS: `127.0.0.1:${sourcePort}` },
      { resolveSourceHost: resolve },
    );
    try {
      const send = (cookie: string) =>
        limited.app.inject({
          method: 'POST',
          url: sourceRelayPaths.fetch,
          headers: { cookie },
          payload: { url: sourceUrl('/data.bin'), etag: '"v1"' },
        });
      const flooder = await signUp(limited.app);
      for (let index = 1; index <= 3; index += 1) {
        expect((await send(flooder.cookie)).statusCode, `request ${index}`).toBe(304);
      }
      const refused = await send(flooder.cookie);
      expect(refused.statusCode).toBe(429);
      expect(apiErrorSchema.parse(refused.json()).error).toBe('rate-limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const other = await signUp(limited.app);
      expect((await send(other.cookie)).statusCode).toBe(304);
    } finally {
      await limited.app.close();
    }
  });
});

describe('the relay’s temporary space (issue 42)', () => {
  it('is capped for every account together: past it 503 relay-busy with Retry-After', async () => {
    const kib = (count: number) => count * 1024;
    const spaced = await server.build(
      {
        SOURCE_HOSTS: `127.0.0.1:${sourcePort}`,
        SOURCE_MAX_MIB: String(kib(16) / (1024 * 1024)),
        SOURCE_TEMP_SPACE_MIB: String(kib(24) / (1024 * 1024)),
        SOURCE_FETCH_PER_MINUTE: '1000',
      },
      { resolveSourceHost: resolve },
    );
    const send = (cookie: string, path: string, etag?: string) =>
      spaced.app.inject({
        method: 'POST',
        url: sourceRelayPaths.fetch,
        headers: { cookie },
        payload: { url: sourceUrl(path), ...(etag === undefined ? {} : { etag }) },
      });
    /** A 304 takes no space, so it shows whether new requests are let in, without changing it. */
    const untilAdmission = async (cookie: string, status: 304 | 503) => {
      for (let tries = 0; tries < 50; tries += 1) {
        if ((await send(cookie, '/data.bin', '"v1"')).statusCode === status) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`The relay never answered ${status}`);
    };
    const release = () => {
      for (const answer of heldAnswers.splice(0)) answer.end();
    };
    try {
      const [first, second, third] = [
        await signUp(spaced.app),
        await signUp(spaced.app),
        await signUp(spaced.app),
      ];
      // Two accounts' downloads fill the space between them...
      const held = [
        send(first.cookie, `/held?bytes=${kib(12)}`),
        send(second.cookie, `/held?bytes=${kib(12)}`),
      ];
      await untilAdmission(third.cookie, 503);
      // ...so a third account is refused before anything is fetched.
      const refused = await send(third.cookie, '/data.bin');
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('30');
      const body = refusal(refused);
      expect(body.error).toBe('relay-busy');
      expect(body.message).toContain('try again in 30 s');

      // Their answers sent, the space is free again.
      release();
      for (const answer of await Promise.all(held)) {
        expect(answer.statusCode).toBe(200);
        expect(answer.rawPayload.length).toBe(kib(12));
      }
      await untilAdmission(third.cookie, 304);
      expect((await send(third.cookie, '/data.bin')).statusCode).toBe(200);

      // A download that would take the space past the cap stops there, not at the end.
      const holding = send(first.cookie, `/held?bytes=${kib(12)}`);
      while (heldAnswers.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const over = await send(third.cookie, `/sized?bytes=${kib(14)}`);
      expect(over.statusCode).toBe(503);
      expect(refusal(over).error).toBe('relay-busy');
      release();
      expect((await holding).statusCode).toBe(200);
      await untilAdmission(third.cookie, 304);
      expect((await send(third.cookie, `/sized?bytes=${kib(14)}`)).statusCode).toBe(200);
    } finally {
      release();
      await spaced.app.close();
    }
  });
});

describe('a source that stalls, over a real connection (issue 42)', () => {
  it('gets 504 source-timeout before the connection’s idle timeout could cut it', async () => {
    const idle = await server.build(
      {
        SOURCE_HOSTS: `127.0.0.1:${sourcePort}`,
        SOURCE_TIMEOUT_SECONDS: '2',
        CONNECTION_TIMEOUT_SECONDS: '3',
        SYNC_HEARTBEAT_SECONDS: '1',
      },
      { resolveSourceHost: resolve },
    );
    try {
      const { cookie } = await signUp(idle.app);
      await idle.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = idle.app.server.address() as AddressInfo;
      const started = Date.now();
      const response = await fetch(`http://127.0.0.1:${port}${sourceRelayPaths.fetch}`, {
        method: 'POST',
        headers: {
          cookie,
          'content-type': 'application/json',
          [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
        },
        body: JSON.stringify({ url: sourceUrl('/stall') }),
      });
      expect(response.status).toBe(504);
      expect(sourceFetchErrorSchema.parse(await response.json()).error).toBe('source-timeout');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await idle.app.close();
    }
  });
});

describe('special addresses', () => {
  it('tells public addresses from the rest', () => {
    for (const address of ['93.184.215.14', '2606:4700::6810:84e5', '8.8.8.8', '172.32.0.1']) {
      expect(specialAddressKind(address), address).toBeNull();
    }
    expect(specialAddressKind('127.0.0.5')).toBe('a loopback');
    expect(specialAddressKind('172.16.4.4')).toBe('a private');
    expect(specialAddressKind('100.64.0.1')).toBe('a shared (carrier-grade NAT)');
    expect(specialAddressKind('::ffff:10.0.0.1')).toBe('a private');
    expect(specialAddressKind('64:ff9b::a9fe:a9fe')).toBe('a link-local');
    expect(specialAddressKind('2002:7f00:1::')).toBe('a loopback');
    expect(specialAddressKind('fe80::1%eth0')).toBe('a link-local');
    expect(specialAddressKind('ff02::1')).toBe('a multicast');
  });
});

import { randomUUID } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { SourceFetchRequest } from '@docket/protocol/source-relay';
import type { SourceHost } from '../config.ts';
import { specialAddressKind } from './address-policy.ts';
import { RELAY_BUSY_RETRY_SECONDS, type RelayTempSpace } from './relay-temp-space.ts';

/** Redirects followed before the relay gives up (each one checked like the first URL). */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to; a test may put its own resolver here. */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const resolveWithDns: ResolveHost = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true });

export interface SourceFetcherOptions {
  hosts: SourceHost[];
  maxBytes: number;
  timeoutMs: number;
  resolve: ResolveHost;
  /** Where the spooled bytes are counted, all downloads of the process together. */
  space: RelayTempSpace;
}

/** What the source said about its answer, passed on as the relay's X-Source-* headers. */
export interface SourceMeta {
  etag: string | null;
  lastModified: string | null;
  contentType: string | null;
  /** The final URL, after redirects. */
  url: string;
}

export type SourceFetchOutcome =
  | {
      kind: 'body';
      meta: SourceMeta;
      /** The whole (decoded) answer, in an unlinked temporary file read from position 0. */
      file: FileHandle;
      size: number;
      /** Gives the file's bytes back to the relay's space; call it once the file is closed. */
      release: () => void;
    }
  | { kind: 'not-modified'; meta: SourceMeta };

/** A refusal the route answers as-is: `{ error, message, status? }`, Retry-After if set. */
export class SourceRelayError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: string,
    message: string,
    readonly extra: { status?: number; retryAfter?: string } = {},
  ) {
    super(message);
    this.name = 'SourceRelayError';
  }
}

/**
 * Fetches a source for the relay: only http(s), only allowed hosts, only public addresses
 * (unless SOURCE_HOSTS named the host), checked again at every redirect, and connected to the
 * very address that was checked so a DNS answer that changes in between cannot send it
 * elsewhere. The answer is read whole into a temporary file, under the size and time caps,
 * before the relay answers: a source that is too large, too slow or cut short then reaches the
 * app as a clear error instead of a download that stops half-way.
 */
export async function fetchSource(
  request: SourceFetchRequest,
  options: SourceFetcherOptions,
  clientGone: AbortSignal,
): Promise<SourceFetchOutcome> {
  let url = parseSourceUrl(request.url);
  const deadline = new AbortController();
  const timer = setTimeout(() => {
    deadline.abort();
  }, options.timeoutMs);
  const signal = AbortSignal.any([deadline.signal, clientGone]);
  const seconds = Number((options.timeoutMs / 1000).toFixed(1));
  try {
    let apiKey = request.apiKeyHeader;
    for (let redirects = 0; ; redirects += 1) {
      const response = await requestOnce(
        url,
        { ...request, apiKeyHeader: apiKey },
        options,
        signal,
      );
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        response.destroy();
        if (redirects >= MAX_REDIRECTS) {
          throw new SourceRelayError(
            502,
            'source-status',
            `${url.host} redirected more than ${MAX_REDIRECTS} times; the relay stopped following.`,
            { status },
          );
        }
        const next = redirectTarget(url, location, status);
        // A key belongs to the site it was given for, as fetch drops Authorization.
        if (next.origin !== url.origin) apiKey = undefined;
        url = next;
        continue;
      }
      const meta = metaOf(response, url, request);
      if (status === 304) {
        response.destroy();
        return { kind: 'not-modified', meta };
      }
      if (status === 429) {
        response.destroy();
        const retryAfter = response.headers['retry-after'];
        throw new SourceRelayError(
          429,
          'source-rate-limited',
          `${url.hostname} says too many requests${retryAfter === undefined ? '' : `; try again after ${retryAfter}${/^\d+$/.test(retryAfter) ? ' s' : ''}`}.`,
          retryAfter === undefined ? {} : { retryAfter },
        );
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw new SourceRelayError(
          502,
          'source-status',
          `${url.hostname} answered ${status}${statusAdvice(status)}.`,
          { status },
        );
      }
      const announced = Number(response.headers['content-length']);
      if (response.headers['content-encoding'] === undefined && announced > options.maxBytes) {
        response.destroy();
        throw tooLarge(url, options.maxBytes);
      }
      const spooled = await spool(response, url, options, signal);
      return { kind: 'body', meta, ...spooled };
    }
  } catch (error) {
    if (error instanceof SourceRelayError) throw error;
    if (deadline.signal.aborted) {
      throw new SourceRelayError(
        504,
        'source-timeout',
        `${url.hostname} did not send its whole answer within ${seconds} s.`,
      );
    }
    throw new SourceRelayError(
      502,
      'source-unreachable',
      `Could not reach ${url.hostname}: ${describeNetworkError(error)}.`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** Where a source's path may be logged: never its query, which may carry an API key. */
export function loggableSource(url: string): { host: string; path: string } | null {
  try {
    const parsed = new URL(url);
    return { host: parsed.host, path: parsed.pathname };
  } catch {
    return null;
  }
}

function parseSourceUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SourceRelayError(
      400,
      'invalid-url',
      'That is not a web address (http:// or https://).',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SourceRelayError(
      400,
      'invalid-url',
      `The relay fetches only http:// and https:// addresses, not ${url.protocol}.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new SourceRelayError(
      400,
      'invalid-url',
      'The address holds a user name or password; the relay does not send those. Send an API key as apiKeyHeader.',
    );
  }
  url.hash = '';
  return url;
}

function redirectTarget(from: URL, location: string, status: number): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new SourceRelayError(
      502,
      'source-status',
      `${from.hostname} redirected to an address that is not one.`,
      { status },
    );
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new SourceRelayError(
      502,
      'source-status',
      `${from.hostname} redirected to a ${next.protocol} address; the relay follows only http and https.`,
      { status },
    );
  }
  next.hash = '';
  return next;
}

/** The allowlist entry of `url`'s host and port, or null. */
function allowedHost(url: URL, hosts: SourceHost[]): SourceHost | null {
  const port = url.port === '' ? null : Number(url.port);
  return (
    hosts.find(
      (host) =>
        host.hostname === url.hostname &&
        (host.port === null ? port === null : host.port === (port ?? defaultPort(url))),
    ) ?? null
  );
}

function defaultPort(url: URL): number {
  return url.protocol === 'https:' ? 443 : 80;
}

/** Checks the host and its addresses, then sends one GET to the checked address. */
async function requestOnce(
  url: URL,
  request: SourceFetchRequest,
  options: SourceFetcherOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const allowed = allowedHost(url, options.hosts);
  if (allowed === null) {
    throw new SourceRelayError(
      403,
      'host-not-allowed',
      `The relay does not fetch from ${url.host}. Whoever runs this Docket server can name it in SOURCE_HOSTS.`,
    );
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  try {
    addresses = await abortable(options.resolve(hostname), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new SourceRelayError(
      502,
      'source-unreachable',
      `Could not find ${url.hostname}: ${describeNetworkError(error)}.`,
    );
  }
  const [pinned] = addresses;
  if (pinned === undefined) {
    throw new SourceRelayError(502, 'source-unreachable', `${url.hostname} has no address.`);
  }
  if (!allowed.named) {
    for (const { address } of addresses) {
      const kind = specialAddressKind(address);
      if (kind !== null) {
        throw new SourceRelayError(
          403,
          'host-not-allowed',
          `${url.hostname} resolves to ${address}, ${kind} address; the relay reaches those only for hosts named in SOURCE_HOSTS.`,
        );
      }
    }
  }
  const headers: OutgoingHttpHeaders = {
    host: url.host,
    'user-agent': 'Docket source relay',
    accept: request.accept ?? '*/*',
    'accept-encoding': 'gzip, deflate, br',
  };
  if (request.etag !== undefined) headers['if-none-match'] = request.etag;
  if (request.lastModified !== undefined) headers['if-modified-since'] = request.lastModified;
  if (request.apiKeyHeader !== undefined) headers['x-api-key'] = request.apiKeyHeader;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send({
      protocol: url.protocol,
      hostname,
      port: url.port === '' ? defaultPort(url) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers,
      // Connect to the address just checked, not to a second DNS answer (DNS rebinding).
      lookup: pinnedLookup(pinned),
      // TLS checks the certificate against the host name, as it would without the pin.
      servername: hostname,
      agent: false,
      signal,
    });
    outgoing.once('response', resolve);
    outgoing.once('error', reject);
    outgoing.end();
  });
}

function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) {
      (callback as (error: null, addresses: ResolvedAddress[]) => void)(null, [pinned]);
    } else {
      callback(null, pinned.address, pinned.family);
    }
  };
}

/**
 * Reads the answer, decoded, into an unlinked temporary file, stopping at `maxBytes` or when the
 * relay's space is full.
 */
async function spool(
  response: IncomingMessage,
  url: URL,
  { maxBytes, space }: Pick<SourceFetcherOptions, 'maxBytes' | 'space'>,
  signal: AbortSignal,
): Promise<{ file: FileHandle; size: number; release: () => void }> {
  const path = join(tmpdir(), `docket-source-${randomUUID()}`);
  const file = await open(path, 'wx+', 0o600);
  // Unlinked at once: the open handle keeps the bytes, and nothing is left behind on any exit.
  await unlink(path);
  // An object, not lets: the stream callbacks below change it behind the compiler's back.
  const seen = { size: 0, tooBig: false, noSpace: false, cutShort: false };
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (seen.size + chunk.length > maxBytes) {
        seen.tooBig = true;
        callback(new Error('too large'));
        return;
      }
      if (!space.take(chunk.length)) {
        seen.noSpace = true;
        callback(new Error('no space'));
        return;
      }
      seen.size += chunk.length;
      callback(null, chunk);
    },
  });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    space.give(seen.size);
  };
  // The answer must arrive whole: Node reports a connection that ends early as 'aborted'.
  response.once('aborted', () => {
    seen.cutShort = true;
  });
  try {
    const decoder = decoderFor(response.headers['content-encoding']);
    // Plain writes, not file.createWriteStream: a stream holds the handle until it closes it,
    // and the read stream made next could then never close it either.
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        file.write(chunk).then(
          () => {
            callback();
          },
          (error: unknown) => {
            callback(error instanceof Error ? error : new Error(String(error)));
          },
        );
      },
    });
    if (decoder === null) await pipeline(response, counter, sink, { signal });
    else await pipeline(response, decoder, counter, sink, { signal });
    if (seen.cutShort || !response.complete) throw new Error('cut short');
    return { file, size: seen.size, release };
  } catch (error) {
    response.destroy();
    await file.close();
    release();
    if (seen.tooBig) throw tooLarge(url, maxBytes);
    if (seen.noSpace) throw relayBusy(space);
    if (signal.aborted) throw error;
    throw new SourceRelayError(
      502,
      'source-unreachable',
      seen.cutShort || !response.complete
        ? `${url.hostname} closed the connection before its whole answer arrived (${seen.size} bytes came).`
        : `The answer of ${url.hostname} could not be read: ${describeNetworkError(error)}.`,
    );
  }
}

function decoderFor(encoding: string | undefined): Transform | null {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      // identity, or an encoding we cannot decode: the bytes go on as they came.
      return null;
  }
}

function metaOf(response: IncomingMessage, url: URL, request: SourceFetchRequest): SourceMeta {
  const notModified = response.statusCode === 304;
  return {
    // A 304 may leave its validators out; the copy the device has is still the current one.
    etag: response.headers.etag ?? (notModified ? (request.etag ?? null) : null),
    lastModified:
      response.headers['last-modified'] ?? (notModified ? (request.lastModified ?? null) : null),
    contentType: response.headers['content-type'] ?? null,
    url: url.href,
  };
}

function tooLarge(url: URL, maxBytes: number): SourceRelayError {
  const mib = Number((maxBytes / (1024 * 1024)).toFixed(2));
  return new SourceRelayError(
    413,
    'source-too-large',
    `The answer of ${url.hostname} is larger than the relay's ${mib} MiB limit (SOURCE_MAX_MIB).`,
  );
}

/** The relay's temporary space is taken by other downloads: 503, try again later. */
export function relayBusy(space: RelayTempSpace): SourceRelayError {
  const mib = Number((space.capBytes / (1024 * 1024)).toFixed(2));
  return new SourceRelayError(
    503,
    'relay-busy',
    `The Docket server is holding as many downloads as it has room for (${mib} MiB); try again in ${RELAY_BUSY_RETRY_SECONDS} s.`,
    { retryAfter: String(RELAY_BUSY_RETRY_SECONDS) },
  );
}

function statusAdvice(status: number): string {
  if (status === 401 || status === 403) return ': the API key is missing or was refused';
  if (status === 404) return ': nothing at that address';
  if (status >= 500) return ': the source has a problem; try again later';
  return '';
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : error.message;
  }
  return String(error);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

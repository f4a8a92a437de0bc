import {
  sourceFetchRequestSchema,
  sourceRelayHeaders,
  sourceRelayPaths,
  type SourceFetchError,
} from '@docket/protocol/source-relay';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { signedInUserOf } from '../auth/require-user.ts';
import type { ServerConfig } from '../config.ts';
import { AccountLimits } from '../http/account-limits.ts';
import { sendApiError } from '../http/api-error.ts';
import { parseRequest } from '../http/parse-request.ts';
import { RelayTempSpace } from '../sources/relay-temp-space.ts';
import {
  fetchSource,
  loggableSource,
  relayBusy,
  SourceRelayError,
  type ResolveHost,
  type SourceFetchOutcome,
  type SourceMeta,
} from '../sources/source-fetcher.ts';

/**
 * POST /api/sources/fetch: the source relay, for sources a browser cannot fetch itself (no
 * CORS). It sees the source's URL and the API key sent with it, never the user's data; it logs
 * the host and path only, because query strings and the key header carry users' API keys.
 */
export function sourceRoutes(
  app: FastifyInstance,
  config: ServerConfig,
  resolve: ResolveHost,
): void {
  // A budget of its own: a relay request costs the server a whole download.
  const limits = new AccountLimits({
    ratePerMinute: config.sourceFetchPerMinute,
    maxConcurrent: Number.MAX_SAFE_INTEGER,
  });
  const space = new RelayTempSpace(config.sourceTempSpaceBytes);
  async function refuseWhenSpaceFull(_request: FastifyRequest, reply: FastifyReply) {
    // Before the account's budget is spent on a request that cannot be served.
    if (!space.full) return;
    const busy = relayBusy(space);
    reply.header('retry-after', busy.extra.retryAfter);
    return sendApiError(reply, busy.statusCode, busy.errorCode, busy.message);
  }
  async function limitSourceFetches(request: FastifyRequest, reply: FastifyReply) {
    // Counted only: the relay's downloads are not capped by requests in progress.
    const admission = limits.admit(signedInUserOf(request).id, { concurrent: false });
    if (!admission.admitted) {
      reply.header('retry-after', String(admission.retryAfterSeconds));
      return sendApiError(
        reply,
        429,
        'rate-limited',
        `This account asked the relay for more than ${config.sourceFetchPerMinute} sources in a minute. Try again in ${admission.retryAfterSeconds} s.`,
      );
    }
  }

  app.post(
    sourceRelayPaths.fetch,
    { onRequest: [app.requireUser, refuseWhenSpaceFull, limitSourceFetches] },
    async (request, reply) => {
      const body = parseRequest(sourceFetchRequestSchema, request.body, 'body');
      const started = Date.now();
      const source = loggableSource(body.url);
      // The client going away stops the download it asked for.
      const clientGone = new AbortController();
      reply.raw.once('close', () => {
        clientGone.abort();
      });
      let outcome: SourceFetchOutcome;
      try {
        outcome = await fetchSource(
          body,
          {
            hosts: config.sourceHosts,
            maxBytes: config.sourceMaxBytes,
            timeoutMs: config.sourceTimeoutMs,
            resolve,
            space,
          },
          clientGone.signal,
        );
      } catch (error) {
        if (!(error instanceof SourceRelayError)) throw error;
        request.log.info(
          { source, refused: error.errorCode, status: error.extra.status },
          'Source not relayed',
        );
        if (error.extra.retryAfter !== undefined) {
          reply.header('retry-after', error.extra.retryAfter);
        }
        const answer: SourceFetchError = {
          error: error.errorCode,
          message: error.message,
          ...(error.extra.status === undefined ? {} : { status: error.extra.status }),
        };
        return reply.code(error.statusCode).type('application/json; charset=utf-8').send(answer);
      }
      request.log.info(
        {
          source,
          outcome: outcome.kind,
          bytes: outcome.kind === 'body' ? outcome.size : 0,
          ms: Date.now() - started,
        },
        'Source relayed',
      );
      setSourceHeaders(reply, outcome.meta);
      reply.header('cache-control', 'no-store');
      if (outcome.kind === 'not-modified') return reply.code(304).send();
      // Fastify destroys the stream when the answer ends, sent or cut; the stream then closes
      // the file, and its bytes are free again.
      const stream = outcome.file
        .createReadStream({ start: 0, autoClose: true })
        .once('close', outcome.release);
      return reply
        .code(200)
        .type('application/octet-stream')
        .header('content-length', String(outcome.size))
        .send(stream);
    },
  );
}

function setSourceHeaders(reply: FastifyReply, meta: SourceMeta): void {
  reply.header(sourceRelayHeaders.url, meta.url);
  if (meta.etag !== null) reply.header(sourceRelayHeaders.etag, meta.etag);
  if (meta.lastModified !== null) reply.header(sourceRelayHeaders.lastModified, meta.lastModified);
  if (meta.contentType !== null) reply.header(sourceRelayHeaders.contentType, meta.contentType);
}

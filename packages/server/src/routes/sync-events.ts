import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { SYNC_NUDGE_EVENT, syncNudgeSchema, type SyncNudge } from '@docket/protocol/sync-events';
import { syncPaths } from '@docket/protocol/sync-wire';
import type { FastifyInstance } from 'fastify';
import { signedInUserOf } from '../auth/require-user.ts';
import type { SyncChangeRepository } from '../repositories/sync-change-repository.ts';
import type { SyncNudgeBus } from '../sync/sync-nudge-bus.ts';

/** How long a browser's EventSource waits before reconnecting after the stream ends. */
const RECONNECT_MS = 3000;

export interface SyncEventsOptions {
  bus: SyncNudgeBus;
  changes: SyncChangeRepository;
  heartbeatMs: number;
}

/**
 * GET /api/sync/events: a server-sent event stream of nudges for the signed-in user. It starts
 * with where things stand, then sends a nudge whenever the user's log or settings move on, from
 * whichever server process took the write. Streams are ended when the server closes, so a
 * shutdown does not wait for clients that would never hang up.
 */
export function syncEventsRoutes(
  app: FastifyInstance,
  { bus, changes, heartbeatMs }: SyncEventsOptions,
): void {
  const streams = new Set<ServerResponse>();
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    for (const stream of streams) stream.end();
    streams.clear();
    done();
  });

  app.get(
    syncPaths.events,
    { onRequest: app.requireUser, config: { longLived: true } },
    async (request, reply) => {
      const user = signedInUserOf(request);
      const raw = reply.raw;
      // An object, not two lets: the close handler flips them while this handler awaits.
      const stream = { started: false, closed: false };
      let known: SyncNudge = { latestSeqno: 0, settingsVersion: 0 };
      let sent: SyncNudge | null = null;

      const flush = () => {
        if (!stream.started || stream.closed) return;
        if (
          sent !== null &&
          known.latestSeqno <= sent.latestSeqno &&
          known.settingsVersion <= sent.settingsVersion
        ) {
          return;
        }
        sent = known;
        raw.write(
          `event: ${SYNC_NUDGE_EVENT}\ndata: ${JSON.stringify(syncNudgeSchema.parse(known))}\n\n`,
        );
      };
      // Nudges only ever move forward; one that arrives late (or twice) is folded in, not resent.
      const learn = (nudge: SyncNudge) => {
        known = {
          latestSeqno: Math.max(known.latestSeqno, nudge.latestSeqno),
          settingsVersion: Math.max(known.settingsVersion, nudge.settingsVersion),
        };
        flush();
      };

      // Subscribed before reading the current state, so a push in between is not missed.
      const unsubscribe = bus.subscribe(user.id, learn);
      const heartbeat = setInterval(() => {
        if (stream.started && !stream.closed) raw.write(': heartbeat\n\n');
      }, heartbeatMs);
      const cleanUp = () => {
        stream.closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        streams.delete(raw);
      };
      raw.on('close', cleanUp);

      let current: SyncNudge;
      try {
        current = await changes.readNudge(user.id);
      } catch (error) {
        cleanUp();
        throw error;
      }
      // From here the stream is written by hand; headers set so far (helmet's, a refreshed
      // session cookie) go out with it.
      reply.hijack();
      if (stream.closed || closing) {
        // The client left, or the server began to close, while the state was read.
        raw.end();
        return reply;
      }
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) headers[name] = value;
      }
      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        // nginx and similar proxies would otherwise hold events back in a buffer.
        'x-accel-buffering': 'no',
      });
      raw.write(`retry: ${RECONNECT_MS}\n\n`);
      streams.add(raw);
      stream.started = true;
      learn(current);
      return reply;
    },
  );
}

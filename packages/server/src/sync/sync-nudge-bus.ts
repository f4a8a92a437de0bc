import { syncNudgeSchema, type SyncNudge } from '@docket/protocol/sync-events';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Database, DocketTransaction } from '../db/database.ts';

// "New changes" signals, fanned out through the database's LISTEN/NOTIFY so that every server
// process, not only the one that took the push, tells its SSE clients. A writer sends the NOTIFY
// inside its own transaction: PostgreSQL (and PGlite) deliver it at commit and drop it on
// rollback, so no device is ever nudged towards a change that is not there. One channel carries
// every user's nudges and each process hands them to its own subscribers for that user; at a
// scale where that fan-in is too much, a channel per user shard is the next step.

const CHANNEL = 'docket_sync_nudge';

const notificationSchema = syncNudgeSchema.extend({ userId: z.string().min(1) });

/** Sends a nudge for `userId` when `tx` commits. */
export async function notifyNudge(
  tx: DocketTransaction,
  userId: string,
  nudge: SyncNudge,
): Promise<void> {
  const payload = JSON.stringify({ userId, ...nudge } satisfies z.infer<typeof notificationSchema>);
  await tx.execute(sql`select pg_notify(${CHANNEL}, ${payload})`);
}

export type NudgeListener = (nudge: SyncNudge) => void;

export interface SyncNudgeBus {
  /** Calls `listener` with each nudge for `userId` until the returned function is called. */
  subscribe(userId: string, listener: NudgeListener): () => void;
  close(): Promise<void>;
}

export async function openSyncNudgeBus(
  database: Database,
  options: {
    /** Where a user's log and settings stand now; used to catch up after a lost connection. */
    readNudge: (userId: string) => Promise<SyncNudge>;
    logger: FastifyBaseLogger;
  },
): Promise<SyncNudgeBus> {
  const subscribers = new Map<string, Set<NudgeListener>>();

  const deliver = (userId: string, nudge: SyncNudge) => {
    for (const listener of subscribers.get(userId) ?? []) listener(nudge);
  };

  const stopListening = await database.listen(CHANNEL, {
    onPayload: (payload) => {
      let parsed: z.infer<typeof notificationSchema>;
      try {
        parsed = notificationSchema.parse(JSON.parse(payload));
      } catch (error) {
        options.logger.warn({ err: error }, 'Ignored a malformed sync nudge');
        return;
      }
      const { userId, ...nudge } = parsed;
      deliver(userId, nudge);
    },
    onResume: () => {
      // Nudges sent while the listening connection was down are lost; tell every connected
      // device where things stand now, and it pulls whatever it missed.
      options.logger.info('Sync nudge listener reconnected; nudging every connected device');
      for (const userId of subscribers.keys()) {
        options.readNudge(userId).then(
          (nudge) => {
            deliver(userId, nudge);
          },
          (error: unknown) => {
            options.logger.error({ err: error }, 'Could not read sync state to catch up');
          },
        );
      }
    },
  });

  return {
    subscribe(userId, listener) {
      let listeners = subscribers.get(userId);
      if (listeners === undefined) {
        listeners = new Set();
        subscribers.set(userId, listeners);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && subscribers.get(userId) === listeners)
          subscribers.delete(userId);
      };
    },
    close: stopListening,
  };
}

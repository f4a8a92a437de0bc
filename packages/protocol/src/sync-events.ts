import { z } from 'zod';
import { seqnoSchema } from './sync-wire.ts';

// GET /api/sync/events: server-sent events for the signed-in user. The first event is sent at
// once with the current state; after that one per change in the user's log or settings. A
// comment line (`: heartbeat`) keeps idle connections from being cut by proxies.

/** The SSE `event:` name of a nudge. */
export const SYNC_NUDGE_EVENT = 'nudge';

/**
 * The `data:` of a nudge: where the user's log and settings stand. A device behind on either
 * syncs; a nudge carries no content, so a lost or repeated one is harmless.
 */
export const syncNudgeSchema = z.object({
  latestSeqno: seqnoSchema,
  settingsVersion: z.number().int().nonnegative(),
});
export type SyncNudge = z.infer<typeof syncNudgeSchema>;

import { z } from 'zod';
import { backupIdSchema } from './backups.ts';
import { base64Schema } from './sync-wire.ts';

// Public links: a backup's contents re-encrypted on the device under a fresh random key that
// travels only in the link's fragment (`/public-link/{id}#k=…`), which browsers never send. The
// server stores the ciphertext and when the link was made, expires and was revoked, and counts
// views; it can hand the ciphertext to anyone with the id but can never read it.
//
// POST /api/links                 create a link of one of the user's backups
// GET  /api/links?backupId=       the user's links of that backup (without ciphertext)
// POST /api/links/:id/revoke      revoke: the ciphertext is dropped, the row says "revoked"
// GET  /api/links/:id/public      open, no sign-in: the ciphertext, and one view counted;
//                                 410 `link-revoked` / `link-expired`, 404 `not-found`

/** Largest encrypted contents of one link, in bytes (`link-too-large` beyond). */
export const MAX_LINK_BYTES = 16 * 1024 * 1024;

/** Most links (revoked ones included) one backup may have. */
export const MAX_LINKS_PER_BACKUP = 50;

/** Longest a link may live: a year. */
export const MAX_LINK_LIFETIME_MS = 366 * 24 * 60 * 60 * 1000;

export const MAX_LINK_BODY_BYTES = Math.ceil(MAX_LINK_BYTES / 3) * 4 + 4096;

/** A link's id: a v4 UUID the client makes before it encrypts (it is bound into the ciphertext). */
export const linkIdSchema = z.uuid();

export const linkParamsSchema = z.strictObject({ id: linkIdSchema });

export const linkListQuerySchema = z.strictObject({ backupId: backupIdSchema });

const isoTime = z.iso.datetime({ offset: true });

export const createLinkRequestSchema = z.strictObject({
  id: linkIdSchema,
  backupId: backupIdSchema,
  ciphertext: base64Schema,
  /** When the link stops opening; null for never. In the future, at most a year away. */
  expiresAt: isoTime.nullable(),
});
export type CreateLinkRequest = z.infer<typeof createLinkRequestSchema>;

export const linkSummarySchema = z.object({
  id: linkIdSchema,
  backupId: backupIdSchema,
  size: z.number().int().nonnegative(),
  createdAt: isoTime,
  expiresAt: isoTime.nullable(),
  revokedAt: isoTime.nullable(),
  viewCount: z.number().int().nonnegative(),
});
export type LinkSummary = z.infer<typeof linkSummarySchema>;

export const linkListResponseSchema = z.object({ links: z.array(linkSummarySchema) });

/** What anyone with the id gets: the ciphertext, and when it was made and expires. */
export const publicLinkResponseSchema = z.object({
  id: linkIdSchema,
  createdAt: isoTime,
  expiresAt: isoTime.nullable(),
  ciphertext: base64Schema,
});
export type PublicLinkResponse = z.infer<typeof publicLinkResponseSchema>;

/** Error codes of the public route, so the viewer can say which case it is. */
export const publicLinkErrors = {
  revoked: 'link-revoked',
  expired: 'link-expired',
  unknown: 'not-found',
} as const;

export const linkPaths = {
  links: '/api/links',
} as const;

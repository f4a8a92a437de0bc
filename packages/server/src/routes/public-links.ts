import {
  createLinkRequestSchema,
  linkListQuerySchema,
  linkListResponseSchema,
  linkParamsSchema,
  linkPaths,
  linkSummarySchema,
  MAX_LINK_BODY_BYTES,
  MAX_LINK_BYTES,
  MAX_LINK_LIFETIME_MS,
  MAX_LINKS_PER_BACKUP,
  publicLinkErrors,
  publicLinkResponseSchema,
} from '@docket/protocol/public-links';
import { base64ByteLength } from '@docket/protocol/sync-wire';
import type { FastifyInstance } from 'fastify';
import type { AccountQuotas } from '../config.ts';
import { quotaExceeded } from '../http/quota-error.ts';
import { signedInUserOf } from '../auth/require-user.ts';
import { ApiHttpError, sendApiError } from '../http/api-error.ts';
import { parseRequest } from '../http/parse-request.ts';
import type { PublicLinkRepository } from '../repositories/public-link-repository.ts';

/** Opening a link is open to anyone; this bounds guessing ids and scraping per client. */
const PUBLIC_OPENS_PER_MINUTE = 120;

/**
 * /api/links: public links of the signed-in user's backups (create, list, revoke), and the one
 * open route that hands a link's ciphertext to anyone who has its id.
 */
export function publicLinkRoutes(
  app: FastifyInstance,
  links: PublicLinkRepository,
  quotas: AccountQuotas,
): void {
  const onRequest = app.requireUser;

  app.post(
    linkPaths.links,
    {
      onRequest,
      bodyLimit: MAX_LINK_BODY_BYTES,
      config: { tooLarge: { error: 'link-too-large', what: 'The link' } },
    },
    async (request, reply) => {
      const user = signedInUserOf(request);
      const body = parseRequest(createLinkRequestSchema, request.body, 'body');
      const size = base64ByteLength(body.ciphertext);
      if (size > MAX_LINK_BYTES) {
        throw new ApiHttpError(
          413,
          'link-too-large',
          `A link holds at most ${MAX_LINK_BYTES} bytes encrypted; this one has ${size}.`,
        );
      }
      const expiresAt = body.expiresAt === null ? null : new Date(body.expiresAt);
      if (expiresAt !== null) {
        const left = expiresAt.getTime() - Date.now();
        if (left <= 0 || left > MAX_LINK_LIFETIME_MS) {
          throw new ApiHttpError(
            400,
            'invalid-expiry',
            'A link expires in the future, and at most a year from now.',
          );
        }
      }
      const outcome = await links.create(
        user.id,
        { id: body.id, backupId: body.backupId, ciphertext: body.ciphertext, size, expiresAt },
        { maxPerBackup: MAX_LINKS_PER_BACKUP, maxBackupSpaceBytes: quotas.backupBytes },
      );
      switch (outcome.kind) {
        case 'created':
          return reply.code(201).send(linkSummarySchema.parse(outcome.link));
        case 'no-backup':
          return sendApiError(reply, 404, 'not-found', `No backup ${body.backupId}.`);
        case 'exists':
          return sendApiError(reply, 409, 'link-exists', 'That link id is taken; make another.');
        case 'too-many':
          return sendApiError(
            reply,
            409,
            'too-many-links',
            `A backup has at most ${MAX_LINKS_PER_BACKUP} links, revoked ones included.`,
          );
        case 'quota-exceeded':
          throw quotaExceeded('backups', outcome.usedBytes, quotas.backupBytes);
      }
    },
  );

  app.get(linkPaths.links, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { backupId } = parseRequest(linkListQuerySchema, request.query, 'query');
    const body = linkListResponseSchema.parse({ links: await links.list(user.id, backupId) });
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.post(`${linkPaths.links}/:id/revoke`, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { id } = parseRequest(linkParamsSchema, request.params, 'path');
    const link = await links.revoke(user.id, id);
    if (link === null) return sendApiError(reply, 404, 'not-found', `No link ${id}.`);
    return linkSummarySchema.parse(link);
  });

  app.get(
    `${linkPaths.links}/:id/public`,
    { config: { rateLimit: { max: PUBLIC_OPENS_PER_MINUTE, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const { id } = parseRequest(linkParamsSchema, request.params, 'path');
      const outcome = await links.open(id);
      reply.header('cache-control', 'no-store');
      switch (outcome.kind) {
        case 'open':
          return reply.send(publicLinkResponseSchema.parse(outcome.link));
        case 'revoked':
          return sendApiError(
            reply,
            410,
            publicLinkErrors.revoked,
            'This link was revoked by the person who shared it.',
          );
        case 'expired':
          return sendApiError(reply, 410, publicLinkErrors.expired, 'This link has expired.');
        case 'unknown':
          return sendApiError(reply, 404, publicLinkErrors.unknown, 'There is no such link.');
      }
    },
  );
}

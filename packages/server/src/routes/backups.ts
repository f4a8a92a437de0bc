import {
  backupListResponseSchema,
  backupParamsSchema,
  backupPaths,
  backupResponseSchema,
  backupSummarySchema,
  createBackupRequestSchema,
  MAX_BACKUP_BODY_BYTES,
  MAX_BACKUP_BYTES,
  MAX_BACKUP_METADATA_BYTES,
  MAX_BACKUPS_PER_USER,
  updateBackupMetadataRequestSchema,
} from '@docket/protocol/backups';
import { base64ByteLength } from '@docket/protocol/sync-wire';
import type { FastifyInstance } from 'fastify';
import type { AccountQuotas } from '../config.ts';
import { quotaExceeded } from '../http/quota-error.ts';
import { signedInUserOf } from '../auth/require-user.ts';
import { ApiHttpError, sendApiError } from '../http/api-error.ts';
import { parseRequest } from '../http/parse-request.ts';
import type { BackupRepository } from '../repositories/backup-repository.ts';

/**
 * /api/backups: the signed-in user's encrypted backups. The server checks sizes and ids and
 * never sees a name, a description or a row. Another user's backup is answered exactly like a
 * missing one, so ids reveal nothing.
 */
export function backupRoutes(
  app: FastifyInstance,
  backups: BackupRepository,
  quotas: AccountQuotas,
): void {
  const onRequest = app.requireUser;
  const byId = `${backupPaths.backups}/:id`;

  app.post(
    backupPaths.backups,
    {
      onRequest,
      bodyLimit: MAX_BACKUP_BODY_BYTES,
      config: { tooLarge: { error: 'backup-too-large', what: 'The backup' } },
    },
    async (request, reply) => {
      const user = signedInUserOf(request);
      const body = parseRequest(createBackupRequestSchema, request.body, 'body');
      const size = base64ByteLength(body.ciphertext);
      if (size > MAX_BACKUP_BYTES) {
        throw new ApiHttpError(
          413,
          'backup-too-large',
          `A backup is at most ${MAX_BACKUP_BYTES} bytes encrypted; this one has ${size}.`,
        );
      }
      if (base64ByteLength(body.metadata) > MAX_BACKUP_METADATA_BYTES) {
        throw new ApiHttpError(
          413,
          'backup-too-large',
          `A backup's name and description are at most ${MAX_BACKUP_METADATA_BYTES} bytes encrypted.`,
        );
      }
      const outcome = await backups.create(
        user.id,
        {
          id: body.id,
          epoch: body.epoch,
          metadata: body.metadata,
          ciphertext: body.ciphertext,
          size,
        },
        { maxCount: MAX_BACKUPS_PER_USER, maxTotalBytes: quotas.backupBytes },
      );
      switch (outcome.kind) {
        case 'created':
          return reply.code(201).send(backupSummarySchema.parse(outcome.backup));
        case 'exists':
          return sendApiError(reply, 409, 'backup-exists', `There is already a backup ${body.id}.`);
        case 'too-many':
          return sendApiError(
            reply,
            409,
            'too-many-backups',
            `You keep ${MAX_BACKUPS_PER_USER} backups on the server, the most there can be. Delete one first.`,
          );
        case 'quota-exceeded':
          throw quotaExceeded('backups', outcome.usedBytes, quotas.backupBytes);
      }
    },
  );

  app.get(backupPaths.backups, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const body = backupListResponseSchema.parse({ backups: await backups.list(user.id) });
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.get(byId, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { id } = parseRequest(backupParamsSchema, request.params, 'path');
    const backup = await backups.get(user.id, id);
    if (backup === null) return sendApiError(reply, 404, 'not-found', `No backup ${id}.`);
    return reply.header('cache-control', 'no-store').send(backupResponseSchema.parse(backup));
  });

  app.put(`${byId}/metadata`, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { id } = parseRequest(backupParamsSchema, request.params, 'path');
    const { metadata } = parseRequest(updateBackupMetadataRequestSchema, request.body, 'body');
    if (base64ByteLength(metadata) > MAX_BACKUP_METADATA_BYTES) {
      throw new ApiHttpError(
        413,
        'backup-too-large',
        `A backup's name and description are at most ${MAX_BACKUP_METADATA_BYTES} bytes encrypted.`,
      );
    }
    const backup = await backups.updateMetadata(user.id, id, metadata);
    if (backup === null) return sendApiError(reply, 404, 'not-found', `No backup ${id}.`);
    return backupSummarySchema.parse(backup);
  });

  app.delete(byId, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { id } = parseRequest(backupParamsSchema, request.params, 'path');
    if (!(await backups.delete(user.id, id))) {
      return sendApiError(reply, 404, 'not-found', `No backup ${id}.`);
    }
    return reply.code(200).send({ deleted: id });
  });
}

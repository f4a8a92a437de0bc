import { createHash } from 'node:crypto';
import {
  BLOB_CONTENT_TYPE,
  blobParamsSchema,
  blobPutResponseSchema,
  MAX_BLOB_BYTES,
} from '@docket/protocol/sync-blobs';
import {
  MAX_PULL_LIMIT,
  MAX_PUSH_BODY_BYTES,
  pullQuerySchema,
  pullResponseSchema,
  pushRequestSchema,
  pushResponseSchema,
  unreceivedQuerySchema,
  unreceivedResponseSchema,
} from '@docket/protocol/sync-changes';
import {
  putSyncSettingsRequestSchema,
  syncSettingsConflictSchema,
  syncSettingsSchema,
} from '@docket/protocol/sync-settings';
import { syncPaths } from '@docket/protocol/sync-wire';
import type { FastifyInstance } from 'fastify';
import { signedInUserOf } from '../auth/require-user.ts';
import type { AccountQuotas } from '../config.ts';
import { ApiHttpError, sendApiError } from '../http/api-error.ts';
import { parseRequest } from '../http/parse-request.ts';
import { checkPushSizes } from '../http/push-sizes.ts';
import { quotaExceeded } from '../http/quota-error.ts';
import { type AccountLimits, WORK_BYTES_PER_UNIT } from '../http/account-limits.ts';
import type { SyncBlobRepository } from '../repositories/sync-blob-repository.ts';
import type { SyncChangeRepository } from '../repositories/sync-change-repository.ts';
import type { SyncSettingsRepository } from '../repositories/sync-settings-repository.ts';

export interface SyncRepositories {
  settings: SyncSettingsRepository;
  changes: SyncChangeRepository;
  blobs: SyncBlobRepository;
  quotas: AccountQuotas;
  /** Where the work each request did is charged to its account (AccountLimits). */
  limits: Pick<AccountLimits, 'charge'>;
}

/** The work of moving a blob's bytes, in AccountLimits' units. */
function blobWork(bytes: number): number {
  return Math.ceil(bytes / WORK_BYTES_PER_UNIT);
}

/**
 * /api/sync/*: settings (compare-and-set), the change log (push, pull, the count of what a
 * device has not received) and blobs. The server checks sizes, hashes, versions and epochs; what
 * the bytes mean it never knows. The user is resolved in onRequest, before a body is read, so
 * nobody signed out can make the server take in a large upload.
 */
export async function syncRoutes(
  app: FastifyInstance,
  { settings, changes, blobs, quotas, limits }: SyncRepositories,
): Promise<void> {
  const onRequest = app.requireUser;

  app.get(syncPaths.settings, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const body = syncSettingsSchema.parse(await settings.get(user.id));
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.put(syncPaths.settings, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const write = parseRequest(putSyncSettingsRequestSchema, request.body, 'body');
    const outcome = await settings.compareAndSet(user.id, write.expectedVersion, write.settings);
    switch (outcome.kind) {
      case 'written':
        return syncSettingsSchema.parse(outcome.settings);
      case 'version-conflict':
        return reply.code(409).send(
          syncSettingsConflictSchema.parse({
            error: 'version-conflict',
            message: `The settings are at version ${outcome.current.version}, not ${write.expectedVersion}: another device changed them. Start again from the current settings.`,
            current: outcome.current,
          }),
        );
      case 'epoch-regression':
        return sendApiError(
          reply,
          409,
          'epoch-regression',
          `The key epoch is ${outcome.current.keyEpoch}; it cannot go back to ${write.settings.keyEpoch}.`,
        );
    }
  });

  app.post(
    syncPaths.push,
    {
      onRequest,
      bodyLimit: MAX_PUSH_BODY_BYTES,
      config: { tooLarge: { error: 'batch-too-large', what: 'The push' } },
    },
    async (request, reply) => {
      const user = signedInUserOf(request);
      checkPushSizes(request.body);
      const push = parseRequest(pushRequestSchema, request.body, 'body');
      const outcome = await changes.push(
        user.id,
        {
          batchId: push.batchId,
          deviceId: push.deviceId,
          epoch: push.epoch,
          envelopes: push.envelopes,
        },
        quotas.logBytes,
      );
      limits.charge(user.id, push.envelopes.length);
      switch (outcome.kind) {
        case 'stored':
          return pushResponseSchema.parse({
            batchId: push.batchId,
            seqnos: outcome.seqnos,
            duplicate: outcome.duplicate,
            latestSeqno: outcome.latestSeqno,
          });
        case 'epoch-mismatch':
          return sendApiError(
            reply,
            409,
            'epoch-mismatch',
            `This push was encrypted under key epoch ${push.epoch}, but the current key epoch is ${outcome.keyEpoch}: the cloud password was reset on another device. Read the settings and enter the new password.`,
          );
        case 'batch-conflict':
          return sendApiError(
            reply,
            409,
            'batch-conflict',
            `Batch "${push.batchId}" was already pushed with different contents; give each batch its own id.`,
          );
        case 'quota-exceeded':
          throw quotaExceeded('log', outcome.usedBytes, quotas.logBytes);
      }
    },
  );

  app.get(syncPaths.pull, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const query = parseRequest(pullQuerySchema, request.query, 'query');
    const page = await changes.pull(user.id, query.since, query.limit ?? MAX_PULL_LIMIT);
    limits.charge(user.id, Math.max(1, page.changes.length));
    const body = pullResponseSchema.parse({
      changes: page.changes,
      hasMore: page.hasMore,
      latestSeqno: page.latestSeqno,
    });
    return reply.header('cache-control', 'no-store').send(body);
  });

  // What a cloud password reset on the asking device would take out of the account: the
  // envelopes other devices pushed in this epoch after its cursor. Counted, never read.
  app.get(syncPaths.unreceived, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const query = parseRequest(unreceivedQuerySchema, request.query, 'query');
    const envelopes = await changes.countUnreceived(user.id, query.since, query.deviceId);
    limits.charge(user.id, 1);
    const body = unreceivedResponseSchema.parse({ envelopes });
    return reply.header('cache-control', 'no-store').send(body);
  });

  // Blobs travel as raw bytes; the octet-stream parser is registered only in this scope, so
  // every other route still accepts JSON alone.
  await app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      BLOB_CONTENT_TYPE,
      { parseAs: 'buffer', bodyLimit: MAX_BLOB_BYTES },
      (_request, body, done) => {
        done(null, body);
      },
    );

    scope.put(
      `${syncPaths.blobs}/:sha256`,
      {
        onRequest,
        bodyLimit: MAX_BLOB_BYTES,
        config: { tooLarge: { error: 'blob-too-large', what: 'The blob' } },
      },
      async (request, reply) => {
        const user = signedInUserOf(request);
        const { sha256 } = parseRequest(blobParamsSchema, request.params, 'path');
        const bytes = request.body;
        if (!Buffer.isBuffer(bytes)) {
          throw new ApiHttpError(
            415,
            'unsupported-media-type',
            `Send the blob's bytes as ${BLOB_CONTENT_TYPE}.`,
          );
        }
        const actual = createHash('sha256').update(bytes).digest('hex');
        if (actual !== sha256) {
          throw new ApiHttpError(
            400,
            'blob-hash-mismatch',
            `The bytes hash to ${actual}, not ${sha256}: the upload was changed or cut short.`,
          );
        }
        const outcome = await blobs.put(user.id, sha256, bytes, quotas.blobBytes);
        limits.charge(user.id, blobWork(bytes.length));
        if (outcome.kind === 'quota-exceeded') {
          throw quotaExceeded('blobs', outcome.usedBytes, quotas.blobBytes);
        }
        const { created } = outcome;
        return reply
          .code(created ? 201 : 200)
          .send(blobPutResponseSchema.parse({ sha256, size: bytes.length, created }));
      },
    );

    // Whether the user has a blob, without its bytes: a device asks before putting a pack it
    // may have put already (the same files seal to the same pack), so a repeat sends nothing.
    scope.head(`${syncPaths.blobs}/:sha256`, { onRequest }, async (request, reply) => {
      const user = signedInUserOf(request);
      const { sha256 } = parseRequest(blobParamsSchema, request.params, 'path');
      const size = await blobs.sizeOf(user.id, sha256);
      limits.charge(user.id, blobWork(0));
      if (size === null) return reply.code(404).header('cache-control', 'no-store').send();
      return reply
        .type(BLOB_CONTENT_TYPE)
        .header('cache-control', 'no-store')
        .header('content-length', String(size))
        .send();
    });

    scope.get(`${syncPaths.blobs}/:sha256`, { onRequest }, async (request, reply) => {
      const user = signedInUserOf(request);
      const { sha256 } = parseRequest(blobParamsSchema, request.params, 'path');
      const bytes = await blobs.get(user.id, sha256);
      limits.charge(user.id, blobWork(bytes?.length ?? 0));
      // Another user's blob is as absent as one nobody put: its existence is not for this user.
      if (bytes === null) return sendApiError(reply, 404, 'not-found', `No blob ${sha256}.`);
      return reply
        .type(BLOB_CONTENT_TYPE)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('etag', `"${sha256}"`)
        .send(bytes);
    });
    done();
  });
}

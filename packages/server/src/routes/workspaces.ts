import {
  MAX_PULL_LIMIT,
  MAX_PUSH_BODY_BYTES,
  pullQuerySchema,
  pushRequestSchema,
  pushResponseSchema,
} from '@docket/protocol/sync-changes';
import {
  changeRoleRequestSchema,
  confirmMemberRequestSchema,
  createWorkspaceRequestSchema,
  invitationListResponseSchema,
  inviteRequestSchema,
  keyringResponseSchema,
  keyVersionResponseSchema,
  memberListResponseSchema,
  memberNamesResponseSchema,
  memberParamsSchema,
  memberSchema,
  memberKeysResponseSchema,
  putMemberKeysRequestSchema,
  recordConfirmationRequestSchema,
  removeMemberRequestSchema,
  rotateKeyRequestSchema,
  workspaceListResponseSchema,
  workspaceParamsSchema,
  workspacePaths,
  workspacePullResponseSchema,
  workspaceSummarySchema,
  withdrawInvitationRequestSchema,
} from '@docket/protocol/workspaces';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { signedInUserOf } from '../auth/require-user.ts';
import type { AccountQuotas } from '../config.ts';
import { type AccountLimits, workspaceShareKey } from '../http/account-limits.ts';
import { sendApiError } from '../http/api-error.ts';
import { parseRequest } from '../http/parse-request.ts';
import { checkPushSizes } from '../http/push-sizes.ts';
import { quotaExceeded } from '../http/quota-error.ts';
import type { WorkspaceChangeRepository } from '../repositories/workspace-change-repository.ts';
import { notAMember } from '../repositories/workspace-access.ts';
import type { WorkspaceRepository } from '../repositories/workspace-repository.ts';

export interface WorkspaceRouteOptions {
  workspaces: WorkspaceRepository;
  changes: WorkspaceChangeRepository;
  quotas: AccountQuotas;
  /**
   * Where the work each request did is charged: to its account, and a change log's requests to
   * the workspace's own share too, which holds them to an account's budget (AccountLimits).
   */
  limits: Pick<AccountLimits, 'charge' | 'record' | 'refusal'>;
}

/**
 * /api/keys, /api/workspaces and /api/invitations (issue 39): public keys, workspaces, their
 * members and key versions, and each workspace's change log on the personal log's protocol.
 * The routes parse; the repositories decide who may do what, under the workspace's lock, and
 * refuse with 403 (not a member, not an owner, read-only) or 409 (a rule of the workflow).
 */
export function workspaceRoutes(
  app: FastifyInstance,
  { workspaces, changes, quotas, limits }: WorkspaceRouteOptions,
): void {
  const onRequest = app.requireUser;
  const one = `${workspacePaths.workspaces}/:workspaceId`;
  const member = `${one}/members/:userId`;
  // A workspace past its share (its members together moved more than one account may) waits as
  // an account would: 429 with Retry-After, before the database is asked. Its members' own
  // accounts, and their personal logs, are not held by it.
  // Only a member learns that: anyone else is refused as everywhere (403), so a workspace's id
  // and how busy it is tell an outsider nothing. The membership is read only when refusing.
  const refusedOverShare = async (
    userId: string,
    workspaceId: string,
    reply: FastifyReply,
  ): Promise<boolean> => {
    const refusal = limits.refusal(workspaceShareKey(workspaceId), { concurrent: false });
    if (refusal === null) return false;
    if (!(await workspaces.isMember(userId, workspaceId))) throw notAMember();
    reply.header('retry-after', String(refusal.retryAfterSeconds));
    sendApiError(reply, 429, refusal.error, refusal.message);
    return true;
  };

  app.get(workspacePaths.keys, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const keys = await workspaces.memberKeysOf(user.id);
    const body = memberKeysResponseSchema.parse(
      keys ?? { publicKey: null, wrappedPrivateKey: null, keyEpoch: null },
    );
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.put(workspacePaths.keys, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { replaces, ...keys } = parseRequest(putMemberKeysRequestSchema, request.body, 'body');
    const outcome = await workspaces.publishMemberKeys(user.id, keys, replaces);
    switch (outcome.kind) {
      case 'exists':
        return sendApiError(
          reply,
          409,
          'public-key-exists',
          replaces === undefined
            ? 'This account has published another public key already; owners sealed workspace keys to it.'
            : 'The member key you would replace is not the stored one any more: another device replaced it. Read it again.',
        );
      case 'current':
        return sendApiError(
          reply,
          409,
          'member-key-current',
          'This account’s member key is sealed under its current cloud password’s key: it opens, and nothing replaces it.',
        );
      case 'stale-epoch':
        return sendApiError(
          reply,
          409,
          'key-epoch-stale',
          `The cloud password was reset since this device last had it (key epoch ${String(outcome.keyEpoch)}): enter the current one before making a member key.`,
        );
      case 'stored':
        break;
    }
    return memberKeysResponseSchema.parse(outcome.keys);
  });

  app.post(workspacePaths.workspaces, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const body = parseRequest(createWorkspaceRequestSchema, request.body, 'body');
    const created = await workspaces.create(user, body);
    return reply.code(201).send(workspaceSummarySchema.parse(created));
  });

  app.get(workspacePaths.workspaces, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const body = workspaceListResponseSchema.parse({
      workspaces: await workspaces.listMine(user.id),
    });
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.delete(one, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
    await workspaces.delete(user.id, workspaceId);
    return reply.code(204).send();
  });

  app.post(`${one}/invitations`, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
    const body = parseRequest(inviteRequestSchema, request.body, 'body');
    const invited = await workspaces.invite(user.id, workspaceId, body);
    return reply.code(201).send(memberSchema.parse(invited));
  });

  app.post(`${one}/invitations/withdraw`, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
    const { email } = parseRequest(withdrawInvitationRequestSchema, request.body, 'body');
    await workspaces.withdraw(user.id, workspaceId, email);
    return reply.code(204).send();
  });

  app.post(
    `${workspacePaths.invitations}/:workspaceId/decline`,
    { onRequest },
    async (request, reply) => {
      const user = signedInUserOf(request);
      const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
      await workspaces.decline(user.id, workspaceId);
      return reply.code(204).send();
    },
  );

  app.get(workspacePaths.invitations, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const body = invitationListResponseSchema.parse({
      invitations: await workspaces.invitationsFor(user.id),
    });
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.post(`${workspacePaths.invitations}/:workspaceId/accept`, { onRequest }, async (request) => {
    const user = signedInUserOf(request);
    const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
    return workspaceSummarySchema.parse(await workspaces.accept(user.id, workspaceId));
  });

  app.get(`${one}/members`, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
    const body = memberListResponseSchema.parse(await workspaces.members(user.id, workspaceId));
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.post(`${member}/confirm`, { onRequest }, async (request) => {
    const user = signedInUserOf(request);
    const { workspaceId, userId } = parseRequest(memberParamsSchema, request.params, 'path');
    const body = parseRequest(confirmMemberRequestSchema, request.body, 'body');
    return memberSchema.parse(await workspaces.confirm(user.id, workspaceId, userId, body));
  });

  app.put(`${member}/confirmation`, { onRequest }, async (request) => {
    const user = signedInUserOf(request);
    const { workspaceId, userId } = parseRequest(memberParamsSchema, request.params, 'path');
    const body = parseRequest(recordConfirmationRequestSchema, request.body, 'body');
    return memberSchema.parse(
      await workspaces.recordConfirmation(user.id, workspaceId, userId, body),
    );
  });

  app.put(`${member}/role`, { onRequest }, async (request) => {
    const user = signedInUserOf(request);
    const { workspaceId, userId } = parseRequest(memberParamsSchema, request.params, 'path');
    const { role } = parseRequest(changeRoleRequestSchema, request.body, 'body');
    return memberSchema.parse(await workspaces.changeRole(user.id, workspaceId, userId, role));
  });

  app.post(`${member}/remove`, { onRequest }, async (request) => {
    const user = signedInUserOf(request);
    const { workspaceId, userId } = parseRequest(memberParamsSchema, request.params, 'path');
    const { rotation } = parseRequest(removeMemberRequestSchema, request.body, 'body');
    return keyVersionResponseSchema.parse(
      await workspaces.remove(user.id, workspaceId, userId, rotation),
    );
  });

  app.get(`${one}/names`, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
    const body = memberNamesResponseSchema.parse(
      await workspaces.memberNames(user.id, workspaceId),
    );
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.get(`${one}/keys`, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
    const body = keyringResponseSchema.parse(await workspaces.keyring(user.id, workspaceId));
    return reply.header('cache-control', 'no-store').send(body);
  });

  app.post(`${one}/keys`, { onRequest }, async (request) => {
    const user = signedInUserOf(request);
    const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
    const rotation = parseRequest(rotateKeyRequestSchema, request.body, 'body');
    return keyVersionResponseSchema.parse(await workspaces.rotate(user.id, workspaceId, rotation));
  });

  app.post(
    `${one}/sync/push`,
    {
      onRequest,
      bodyLimit: MAX_PUSH_BODY_BYTES,
      config: { tooLarge: { error: 'batch-too-large', what: 'The push' } },
    },
    async (request, reply) => {
      const user = signedInUserOf(request);
      const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
      checkPushSizes(request.body);
      const push = parseRequest(pushRequestSchema, request.body, 'body');
      if (await refusedOverShare(user.id, workspaceId, reply)) return reply;
      const outcome = await changes.push(user.id, workspaceId, push, quotas.logBytes);
      limits.charge(user.id, push.envelopes.length);
      limits.record(workspaceShareKey(workspaceId), push.envelopes.length);
      switch (outcome.kind) {
        case 'stored':
          return pushResponseSchema.parse({
            batchId: push.batchId,
            seqnos: outcome.seqnos,
            duplicate: outcome.duplicate,
            latestSeqno: outcome.latestSeqno,
          });
        case 'batch-conflict':
          return sendApiError(
            reply,
            409,
            'batch-conflict',
            `Batch "${push.batchId}" was already pushed with different contents; give each batch its own id.`,
          );
        case 'quota-exceeded':
          throw quotaExceeded('workspace-log', outcome.usedBytes, quotas.logBytes);
      }
    },
  );

  app.get(`${one}/sync/pull`, { onRequest }, async (request, reply) => {
    const user = signedInUserOf(request);
    const { workspaceId } = parseRequest(workspaceParamsSchema, request.params, 'path');
    const query = parseRequest(pullQuerySchema, request.query, 'query');
    if (await refusedOverShare(user.id, workspaceId, reply)) return reply;
    const page = await changes.pull(
      user.id,
      workspaceId,
      query.since,
      query.limit ?? MAX_PULL_LIMIT,
    );
    limits.charge(user.id, Math.max(1, page.changes.length));
    limits.record(workspaceShareKey(workspaceId), Math.max(1, page.changes.length));
    const body = workspacePullResponseSchema.parse(page);
    return reply.header('cache-control', 'no-store').send(body);
  });
}

import {
  keyringResponseSchema,
  keyVersionResponseSchema,
  invitationListResponseSchema,
  memberKeysResponseSchema,
  memberListResponseSchema,
  memberNamesResponseSchema,
  type MemberNamesResponse,
  memberSchema,
  workspaceListResponseSchema,
  workspacePaths,
  workspacePullResponseSchema,
  workspaceSummarySchema,
  type ConfirmMemberRequest,
  type CreateWorkspaceRequest,
  type Invitation,
  type InviteRequest,
  type KeyringResponse,
  type KeyRotation,
  type KeyVersionResponse,
  type Member,
  type MemberKeysResponse,
  type MemberListResponse,
  type PutMemberKeysRequest,
  type RecordConfirmationRequest,
  type WorkspacePullResponse,
  type WorkspaceRole,
  type WorkspaceSummary,
} from '@docket/protocol/workspaces';
import { pushResponseSchema, type PushResponse } from '@docket/protocol/sync-changes';
import type { SyncTransport } from '@docket/core/sync';
import { z } from 'zod';
import { ApiRequestError, type ApiClient } from './api-client.ts';

// The membership routes of team workspaces (protocol/workspaces.ts), one function each. Every
// answer is parsed by the protocol's schema before the app trusts it; a refusal comes back as
// ApiRequestError with the server's own message (403 not-a-member / not-an-owner, 409 …).

const noContent = z.unknown();

function one(workspaceId: string): `/api/${string}` {
  return `${workspacePaths.workspaces}/${encodeURIComponent(workspaceId)}`;
}

function memberPath(workspaceId: string, userId: string): `/api/${string}` {
  return `${one(workspaceId)}/members/${encodeURIComponent(userId)}`;
}

export function fetchMemberKeys(api: ApiClient): Promise<MemberKeysResponse> {
  return api({ method: 'GET', path: workspacePaths.keys, response: memberKeysResponseSchema });
}

export function putMemberKeys(
  api: ApiClient,
  body: PutMemberKeysRequest,
): Promise<MemberKeysResponse> {
  return api({
    method: 'PUT',
    path: workspacePaths.keys,
    body,
    response: memberKeysResponseSchema,
  });
}

export function createWorkspace(
  api: ApiClient,
  body: CreateWorkspaceRequest,
): Promise<WorkspaceSummary> {
  return api({
    method: 'POST',
    path: workspacePaths.workspaces,
    body,
    response: workspaceSummarySchema,
  });
}

export async function listWorkspaces(api: ApiClient): Promise<WorkspaceSummary[]> {
  const answer = await api({
    method: 'GET',
    path: workspacePaths.workspaces,
    response: workspaceListResponseSchema,
  });
  return answer.workspaces;
}

export async function deleteWorkspace(api: ApiClient, workspaceId: string): Promise<void> {
  await api({ method: 'DELETE', path: one(workspaceId), response: noContent });
}

export function inviteMember(
  api: ApiClient,
  workspaceId: string,
  body: InviteRequest,
): Promise<Member> {
  return api({
    method: 'POST',
    path: `${one(workspaceId)}/invitations`,
    body,
    response: memberSchema,
  });
}

export async function withdrawInvitation(
  api: ApiClient,
  workspaceId: string,
  email: string,
): Promise<void> {
  await api({
    method: 'POST',
    path: `${one(workspaceId)}/invitations/withdraw`,
    body: { email },
    response: noContent,
  });
}

export async function listInvitations(api: ApiClient): Promise<Invitation[]> {
  const answer = await api({
    method: 'GET',
    path: workspacePaths.invitations,
    response: invitationListResponseSchema,
  });
  return answer.invitations;
}

export function acceptInvitation(api: ApiClient, workspaceId: string): Promise<WorkspaceSummary> {
  return api({
    method: 'POST',
    path: `${workspacePaths.invitations}/${encodeURIComponent(workspaceId)}/accept`,
    response: workspaceSummarySchema,
  });
}

export async function declineInvitation(api: ApiClient, workspaceId: string): Promise<void> {
  await api({
    method: 'POST',
    path: `${workspacePaths.invitations}/${encodeURIComponent(workspaceId)}/decline`,
    response: noContent,
  });
}

export function listMembers(api: ApiClient, workspaceId: string): Promise<MemberListResponse> {
  return api({
    method: 'GET',
    path: `${one(workspaceId)}/members`,
    response: memberListResponseSchema,
  });
}

/** Each confirmed member's name, for any confirmed member: who wrote what. */
export function listMemberNames(api: ApiClient, workspaceId: string): Promise<MemberNamesResponse> {
  return api({
    method: 'GET',
    path: `${one(workspaceId)}/names`,
    response: memberNamesResponseSchema,
  });
}

/**
 * Whether the server, asked about this one workspace, refuses the account as no member of it
 * (removed, left, or the workspace deleted: the server answers all three alike). Any other
 * answer is not a confirmation: a refusal for another reason is thrown, a member's answer is false.
 */
export async function refusedAsNonMember(api: ApiClient, workspaceId: string): Promise<boolean> {
  try {
    await listMemberNames(api, workspaceId);
    return false;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 403 && error.code === 'not-a-member') {
      return true;
    }
    throw error;
  }
}

export function confirmMember(
  api: ApiClient,
  workspaceId: string,
  userId: string,
  body: ConfirmMemberRequest,
): Promise<Member> {
  return api({
    method: 'POST',
    path: `${memberPath(workspaceId, userId)}/confirm`,
    body,
    response: memberSchema,
  });
}

/** An owner keeps their own record of a confirmed member's key, after comparing fingerprints. */
export function recordConfirmation(
  api: ApiClient,
  workspaceId: string,
  userId: string,
  body: RecordConfirmationRequest,
): Promise<Member> {
  return api({
    method: 'PUT',
    path: `${memberPath(workspaceId, userId)}/confirmation`,
    body,
    response: memberSchema,
  });
}

export function changeMemberRole(
  api: ApiClient,
  workspaceId: string,
  userId: string,
  role: WorkspaceRole,
): Promise<Member> {
  return api({
    method: 'PUT',
    path: `${memberPath(workspaceId, userId)}/role`,
    body: { role },
    response: memberSchema,
  });
}

/** Removes a member (with the rotation when they held the key); my own id is leaving. */
export function removeMember(
  api: ApiClient,
  workspaceId: string,
  userId: string,
  rotation?: KeyRotation,
): Promise<KeyVersionResponse> {
  return api({
    method: 'POST',
    path: `${memberPath(workspaceId, userId)}/remove`,
    body: rotation === undefined ? {} : { rotation },
    response: keyVersionResponseSchema,
  });
}

export function fetchKeyring(api: ApiClient, workspaceId: string): Promise<KeyringResponse> {
  return api({ method: 'GET', path: `${one(workspaceId)}/keys`, response: keyringResponseSchema });
}

export function rotateKey(
  api: ApiClient,
  workspaceId: string,
  rotation: KeyRotation,
): Promise<KeyVersionResponse> {
  return api({
    method: 'POST',
    path: `${one(workspaceId)}/keys`,
    body: rotation,
    response: keyVersionResponseSchema,
  });
}

/**
 * The workspace's change log (protocol/workspaces.ts): the personal log's push and pull at the
 * workspace's path, `epoch` being the key version, each pulled change naming its author. As
 * core's sync engine takes a transport: a workspace carries no dataset files (each member's
 * device fetches a dataset's bills itself), so the file routes refuse.
 */
export function workspaceSyncTransport(api: ApiClient, workspaceId: string): SyncTransport {
  const noFiles = () =>
    Promise.reject(
      new Error('A workspace carries no dataset files: each member’s device fetches them.'),
    );
  return {
    push: (request): Promise<PushResponse> =>
      api({
        method: 'POST',
        path: `${one(workspaceId)}/sync/push`,
        body: request,
        response: pushResponseSchema,
      }),
    pull: (since, limit): Promise<WorkspacePullResponse> =>
      api({
        method: 'GET',
        path: `${one(workspaceId)}/sync/pull?since=${since}&limit=${limit}`,
        response: workspacePullResponseSchema,
      }),
    putBlob: noFiles,
    getBlob: noFiles,
    hasBlob: noFiles,
  };
}

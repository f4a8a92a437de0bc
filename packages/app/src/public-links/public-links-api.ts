import {
  linkListResponseSchema,
  linkPaths,
  linkSummarySchema,
  publicLinkResponseSchema,
  type CreateLinkRequest,
  type LinkSummary,
  type PublicLinkResponse,
} from '@docket/protocol/public-links';
import type { ApiClient } from '../api/api-client.ts';

// The server's /api/links, typed. The contents are sealed on the device under the link's own
// key before they travel; the key never does.

export function createLink(api: ApiClient, body: CreateLinkRequest): Promise<LinkSummary> {
  return api({ method: 'POST', path: linkPaths.links, body, response: linkSummarySchema });
}

export async function listLinks(api: ApiClient, backupId: string): Promise<LinkSummary[]> {
  const { links } = await api({
    method: 'GET',
    path: `${linkPaths.links}?backupId=${encodeURIComponent(backupId)}`,
    response: linkListResponseSchema,
  });
  return links;
}

export function revokeLink(api: ApiClient, id: string): Promise<LinkSummary> {
  return api({
    method: 'POST',
    path: `${linkPaths.links}/${encodeURIComponent(id)}/revoke`,
    response: linkSummarySchema,
  });
}

/** Anyone may call this, signed in or not; each call counts a view. */
export function fetchPublicLink(api: ApiClient, id: string): Promise<PublicLinkResponse> {
  return api({
    method: 'GET',
    path: `${linkPaths.links}/${encodeURIComponent(id)}/public`,
    response: publicLinkResponseSchema,
  });
}

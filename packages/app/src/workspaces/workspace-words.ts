import type { KeyConfirmationCheck } from '@docket/core/crypto';
import type { MemberStatus, WorkspaceRole } from '@docket/protocol/workspaces';
import { ApiRequestError } from '../api/api-client.ts';

// The words the workspace screens use for roles, statuses and refusals.

export const roleWords: Record<WorkspaceRole, string> = {
  owner: 'Owner',
  editor: 'Editor',
  viewer: 'Viewer',
};

export const memberStatusWords: Record<MemberStatus, string> = {
  invited: 'Invited, not accepted yet',
  accepted: 'Accepted, waiting for your confirmation',
  confirmed: 'Confirmed',
};

/**
 * Why a confirmed member needs confirming again before a new key can be sealed to them (the
 * service's `keyCheck`, other than `matches`).
 */
export const keyCheckWords: Record<Exclude<KeyConfirmationCheck, 'matches'>, string> = {
  differs:
    'The server now lists another key for this member than the one you confirmed. Compare fingerprints with them before you confirm again, or remove them.',
  unreadable:
    'Docket cannot read your record of the key you confirmed for this member: it was changed on the server, or made before your cloud password was reset. Compare fingerprints and confirm again.',
  none: 'You have not compared this member’s key yourself: compare fingerprints with them and confirm again before a new key is made.',
};

export const WAITING_FOR_OWNER = 'Waiting for the owner to confirm you';

/** An owner whose reset replaced their key, in a workspace where no owner holds it now. */
export const WAITING_FOR_EDITOR =
  'No owner holds this workspace’s key since your cloud password was reset: an editor compares your new fingerprint with you and confirms you back';

/** Said on the Workspaces screen by the device that replaced the account's key. */
export const KEY_REPLACED =
  'Your cloud password was reset, so Docket made you a new key: the fingerprint above is new. In each of your workspaces an owner confirms you again after comparing it with you (where you were the only owner, an editor does).';

export const NO_CLOUD_KEYS = 'Enter your cloud password on this device to use workspaces';

/** The Workspaces screen: the list, and where the space switcher leads. */
export const WORKSPACES_PATH = '/tabs/more/workspaces';

/** What the header's space switcher says of the personal space. */
export const PERSONAL_SPACE = 'Personal';
/** What it says of a workspace's while the name is being opened, or when it cannot be. */
export const TEAM_SPACE = 'Team workspace';

export function workspacePath(workspaceId: string): string {
  return `/tabs/more/workspaces/${encodeURIComponent(workspaceId)}`;
}

/**
 * What a failure says to the person: the server's own words for its refusals (403 not-a-member,
 * not-owner, read-only; 409 …), prefixed by what was tried; anything else by its message.
 */
export function failureMessage(what: string, error: unknown): string {
  if (error instanceof ApiRequestError) {
    return error.status === null || error.status >= 500
      ? `${what} failed: ${error.message}`
      : `${what} was refused: ${error.message}`;
  }
  return `${what} failed: ${error instanceof Error ? error.message : String(error)}`;
}

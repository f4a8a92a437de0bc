import type { WorkspaceRole } from '@docket/protocol/workspaces';
import { useSyncExternalStore } from 'react';
import { activeAccountDatabase } from './account-databases.ts';
import { ACTIVE_SPACE_KEY, activeSpaceOf, local } from './space-databases.ts';

// The account's role in the team workspace whose space the page works in (issue 39), kept with
// the open space in localStorage so that it holds offline and from the first paint: a viewer
// reads the space's bills, tags and notes, and its screens offer no control that changes them.
// The server refuses a viewer's push whatever the client does; this keeps a viewer from making
// changes it would refuse. The role is remembered when the space is entered and again whenever
// the workspace list is read (the header's switcher reads it on every page), so a role changed
// by an owner shows without entering the space again.

const CHANGED = 'docket:space-role';

function activeSpaceRecord(): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(local()?.getItem(ACTIVE_SPACE_KEY) ?? 'null') as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const ROLES: readonly WorkspaceRole[] = ['owner', 'editor', 'viewer'];

/** The role in the open team workspace; null in the personal space or when none is known. */
export function activeSpaceRole(): WorkspaceRole | null {
  const account = activeAccountDatabase();
  if (account === null || activeSpaceOf(account) === null) return null;
  const role = activeSpaceRecord()?.role;
  return ROLES.find((known) => known === role) ?? null;
}

/** Whether the page works in a team workspace where the account only reads. */
export function spaceIsReadOnly(): boolean {
  return activeSpaceRole() === 'viewer';
}

/** Keeps the account's role in `workspaceId`, when that is the space the page works in. */
export function rememberSpaceRole(workspaceId: string, role: WorkspaceRole): void {
  const record = activeSpaceRecord();
  const account = activeAccountDatabase();
  if (record === null || account === null || activeSpaceOf(account) !== workspaceId) return;
  if (record.role === role) return;
  local()?.setItem(ACTIVE_SPACE_KEY, JSON.stringify({ ...record, role }));
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(CHANGED));
}

/** Calls `onChange` when the role kept for the open space changes, in this tab or another. */
export function subscribeSpaceRole(onChange: () => void): () => void {
  if (typeof window === 'undefined') return () => undefined;
  window.addEventListener(CHANGED, onChange);
  // Another tab of the page that learned the role.
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** Whether the screens must leave out their controls that change bills, tags and notes. */
export function useSpaceReadOnly(): boolean {
  return useSyncExternalStore(subscribeSpaceRole, spaceIsReadOnly, () => false);
}

/** What a viewer is told where the controls that change things would be. */
export const VIEWER_WORDS =
  'You are a viewer in this workspace: you read its bills, tags and notes; an editor or an owner changes them.';

/** A command refused on this device: the account is a viewer in the space the page works in. */
export class ReadOnlySpaceError extends Error {
  constructor(message: string = VIEWER_WORDS) {
    super(message);
    this.name = 'ReadOnlySpaceError';
  }
}

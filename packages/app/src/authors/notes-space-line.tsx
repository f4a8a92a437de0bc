import { activeAccountHasSpaces, activeWorkspaceId } from '../local-store/account-databases.ts';

// Whose notes a screen shows (issue 39): an account with a team workspace has notes of its own in
// its personal space and the team's in each workspace, never mixed, so where both exist the
// notes say which they are. An account that never entered a workspace sees nothing of it.

/** The words for the space the page works in; null where the account has no workspace here. */
export function notesSpaceWords(): string | null {
  if (activeWorkspaceId() !== null) return 'Team notes: every member of this workspace reads them.';
  return activeAccountHasSpaces() ? 'Personal notes: only you read them.' : null;
}

export function NotesSpaceLine() {
  const words = notesSpaceWords();
  return words === null ? null : <p className="bill-muted notes-space">{words}</p>;
}

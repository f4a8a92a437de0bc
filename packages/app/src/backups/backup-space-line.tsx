import { activeWorkspaceId } from '../local-store/account-databases.ts';

// Which space's backups the Backups screen lists (issue 39): a backup is of the space it was made
// in, and restores only there, so a personal backup never lands in a team's workspace.

/** In a team workspace's space: what its backups hold and who can open them. */
export function BackupSpaceLine() {
  if (activeWorkspaceId() === null) return null;
  return (
    <p className="backup-space-line">
      Backups made here hold this workspace’s work, sealed under your own cloud key: only you can
      open them, and they restore into this workspace.
    </p>
  );
}

/** How many backups belong to the account's other spaces, and where they are listed. */
export function BackupsElsewhere({ count }: { readonly count: number }) {
  if (count === 0) return null;
  return (
    <p className="backup-space-line">
      {count === 1 ? '1 backup' : `${String(count)} backups`} of your other spaces{' '}
      {count === 1 ? 'is' : 'are'} listed in {count === 1 ? 'its space' : 'their spaces'}.
    </p>
  );
}

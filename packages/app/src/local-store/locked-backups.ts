// A full backup of a locked account's work (made signed out: "Back up locked account N",
// full-backups/locked-accounts-backup.tsx) is kept in the database no account owns, beside that
// database's own full backups. It is that account's, not the unowned data's: it goes when the
// account is removed from this device, it does not make the unowned database worth handing to
// the next account, and it is not handed over with it (account-databases.ts). Its row's id says
// whose it is, so all of this reads keys only, never the file: `locked_<database>_<id>`, the
// database being the account's (random hex, never its e-mail or id). `_` needs no escaping in
// an address (the backup's screens carry its id) and is in no database's name.

const PREFIX = 'locked_';

/** The id of a full backup made of the locked account whose database is `database`. */
export function lockedBackupId(database: string, id: string): string {
  return `${PREFIX}${database}_${id}`;
}

/** The database of the locked account a full backup was made of, or null for the device's own. */
export function lockedBackupDatabase(backupId: string): string | null {
  if (!backupId.startsWith(PREFIX)) return null;
  const end = backupId.indexOf('_', PREFIX.length);
  return end < 0 ? null : backupId.slice(PREFIX.length, end);
}

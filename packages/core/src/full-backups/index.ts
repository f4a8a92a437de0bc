// The public face of full-backups/ for the other packages (README.md); inside core, files import each other directly.
export * from './full-backup-crypto.ts';
export * from './full-backup-format.ts';
export * from './full-backup-jobs.ts';
export * from './full-backup-reader.ts';
export * from './full-backup-restore.ts';
export * from './full-backup-writer.ts';
export * from './user-data-copy.ts';
export * from './full-backup-merge.ts';

// The public face of backups/ for the other packages (README.md); inside core, files import each other directly.
export * from './backup-contents.ts';
export * from './backup-crypto.ts';
export * from './backup-job.ts';
export * from './backup-restore.ts';
export * from './link-contents.ts';
export * from './public-link-crypto.ts';

// The public face of crypto/ for the other packages (README.md); inside core, files import each other directly.
export * from './backup-crypto.ts';
export * from './device-vault-crypto.ts';
export * from './full-backup-crypto.ts';
export * from './key-confirmation.ts';
export * from './member-keys.ts';
export * from './public-link-crypto.ts';
export * from './sync-crypto.ts';
export * from './web-crypto.ts';
export * from './workspace-keys.ts';
export * from './workspace-name.ts';
// backup-crypto.ts has its own sealBytes/openBytes (the backup's byte layout); the public ones are sync's.
export { openBytes, sealBytes } from './sync-crypto.ts';

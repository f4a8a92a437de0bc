// The public face of crypto/ for the other packages (README.md); inside core, files import each other directly.
export * from './device-vault-crypto.ts';
export * from './key-confirmation.ts';
export * from './member-keys.ts';
export * from './sync-crypto.ts';
export * from './web-crypto.ts';
export * from './workspace-keys.ts';
export * from './workspace-name.ts';

// The public face of device/ for the other packages (README.md); inside core, files import each other directly.
export * from './device-data.ts';
export * from './device-identity.ts';
export * from './device-preferences.ts';
export * from './form-drafts.ts';
export * from './trace-log.ts';

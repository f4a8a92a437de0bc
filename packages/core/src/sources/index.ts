// The public face of sources/ for the other packages (README.md); inside core, files import each other directly.
export * from './api-keys.ts';
export * from './source-api.ts';
export * from './legiscan-api.ts';
export * from './legiscan-bill-api.ts';
export * from './legiscan-refresh.ts';
export * from './legiscan-quota.ts';
export * from './openstates-api.ts';
export * from './govinfo-bulk.ts';
export * from './congress-api.ts';
export * from './api-source-form.ts';
export * from './source-sessions.ts';

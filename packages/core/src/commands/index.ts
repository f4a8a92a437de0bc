// The public face of commands/ for the other packages (README.md); inside core, files import each other directly.
export * from './annotation-commands.ts';
export * from './bill-command-context.ts';
export * from './dataset-commands.ts';
export * from './position-commands.ts';
export * from './removed-bill-commands.ts';
export * from './seen-mark-commands.ts';
export * from './tag-commands.ts';
export * from './triage-commands.ts';

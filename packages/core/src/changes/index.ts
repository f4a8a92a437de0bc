// The public face of changes/ for the other packages (README.md); inside core, files import each other directly.
export * from './bill-changes.ts';
export * from './change-feed.ts';

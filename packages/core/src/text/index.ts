// The public face of text/ for the other packages (README.md); inside core, files import each other directly.
export * from './annotation-targets.ts';
export * from './html-to-text.ts';
export * from './pdf-text.ts';
export * from './text-anchoring.ts';
export * from './version-diff.ts';
export * from './version-text.ts';
export * from './web-annotation-jsonld.ts';
export * from './xml-text.ts';
export * from './version-text-rows.ts';
export * from './refreshed-versions.ts';

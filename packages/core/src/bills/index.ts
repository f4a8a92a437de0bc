// The public face of bills/ for the other packages (README.md); inside core, files import each other directly.
export * from './bill-dates.ts';
export * from './bill-identifiers.ts';
export * from './bill-merge.ts';
export * from './bill-naming.ts';
export * from './bill-status-mapping.ts';
export * from './bill-text-cleaning.ts';
export * from './bill-vocabulary.ts';
export * from './bill.ts';
export * from './canonical-hash.ts';
export * from './member-votes.ts';
export * from './us-jurisdictions.ts';

// The public face of bills/ for the other packages (see README.md); inside core, files import each other directly.
export * from './bill-status-mapping.ts';
export * from './bill.ts';
export * from './canonical-hash.ts';
export * from './us-jurisdictions.ts';

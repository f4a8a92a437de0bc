// The public face of store/ for the other packages (README.md); inside core, files import each other directly.
export * from './bill-label.ts';
export * from './dataset-files-unavailable.ts';
export * from './deck-order-keys.ts';
export * from './derived-writes.ts';
export * from './local-records.ts';
export * from './local-store-acceptance.ts';
export * from './local-store.ts';
export * from './memory-local-store.ts';
export * from './sealed-rows.ts';
export * from './sealed-tables.ts';
export * from './stored-member.ts';

// The public face of lists/ for the other packages (README.md); inside core, files import each other directly.
export * from './bill-charts.ts';
export * from './bill-list-query.ts';
export * from './bill-search-index.ts';
export * from './bill-sponsor-filter.ts';
export * from './tag-order.ts';
export * from './removed-bill-notes.ts';
export * from './bill-history-reads.ts';

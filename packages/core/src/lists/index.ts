// The public face of lists/ for the other packages (README.md); inside core, files import each other directly.
export {
  addDays,
  chartDataFromTally,
  createBillChartTally,
  type StatusBar,
  tallyBill,
  type TrackedBillChartData,
  trackedBillChartData,
  type WeekBar,
} from './bill-charts.ts';
export {
  BillCatalog,
  type BillListQuery,
  type BillListRow,
  billListSearch,
  type BillListSort,
  billListSorts,
  billMarksOf,
  type DecisionFilter,
  decisionFilters,
  defaultBillListQuery,
  hasBillListFilters,
  parseBillListQuery,
} from './bill-list-query.ts';
export { BillSearchIndex, billTokens, searchTokens } from './bill-search-index.ts';
export { sponsorKey } from './bill-sponsor-filter.ts';
export { sortTagsByName } from './tag-order.ts';
export { readRemovedBillNotes, type RemovedBillNotes } from './removed-bill-notes.ts';
export { markBillHistorySeen, readBillHistory, readChangedBillIds } from './bill-history-reads.ts';

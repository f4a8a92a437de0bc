// The public face of store/ for the other packages (README.md); inside core, files import each other directly.
export {
  billDeckOrderKeys,
  DECK_ORDER_FILLING_SETTING,
  DECK_ORDER_RANGE_END,
  type DeckOrderList,
  deckOrderListPrefix,
  recentOrderPlace,
} from './deck-order-keys.ts';
export {
  derivingWrites,
  withDerivedFields,
  withoutDerivedFields,
  writeScope,
} from './derived-writes.ts';
export {
  type Annotation,
  type ApiKey,
  type ApiKeySource,
  type BillHistory,
  type BillTag,
  type Dataset,
  type Decision,
  type FullBackup,
  type Job,
  type JobStatus,
  type Position,
  positions,
  type Setting,
  type StoredBill,
  type SyncedTable,
  syncedTables,
  type Tag,
  type TraceEntry,
  type VersionText,
} from './local-records.ts';
export { describeLocalStoreAcceptance } from './local-store-acceptance.ts';
export {
  type IndexOf,
  type IndexValue,
  type LocalReadTransaction,
  type LocalRows,
  type LocalStore,
  localTables,
  type LocalWriteTransaction,
  type TableName,
} from './local-store.ts';
export { createMemoryLocalStore } from './memory-local-store.ts';
export { openRow, sealRow } from './sealed-rows.ts';
export {
  isSealedRow,
  isSealedTable,
  SEALED_BYTES_FIELD,
  type SealedTable,
  sealedTables,
} from './sealed-tables.ts';
export type { StoredMember } from './stored-member.ts';

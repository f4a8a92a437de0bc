import { type ExportSelection, readUserDataSnapshot } from '@docket/core/export';
import { useLiveRead } from '../local-store/live-database.ts';

// How many bills and annotations the export screen's choice covers, said under the choice.

/**
 * How many bills and annotations the choice covers, as the export will find them: core's own
 * reading of the selection (user-data-export.ts), so the numbers cannot drift from the file.
 */
export function useSelectionSize(
  selection: ExportSelection | null,
): { bills: number; annotations: number } | null | undefined {
  return useLiveRead(
    async (store) => {
      if (selection === null) return { bills: 0, annotations: 0 };
      // The list's search and filters are worked out by the worker when the file is made.
      if (selection.kind === 'list') return null;
      // Everything: two counts, without reading 50,000 bills.
      if (selection.kind === 'all') {
        return store.read(['bills', 'annotations'], async (tx) => ({
          bills: await tx.count('bills'),
          annotations: await tx.count('annotations'),
        }));
      }
      const snapshot = await readUserDataSnapshot(store, selection);
      if (selection.kind === 'removed') {
        // No bill is in the file: the count is of the bills the notes are on.
        const rows = [
          ...snapshot.billTags,
          ...snapshot.positions,
          ...snapshot.decisions,
          ...snapshot.annotations,
        ];
        const billIds = new Set(rows.map((row) => row.billId));
        return { bills: billIds.size, annotations: snapshot.annotations.length };
      }
      return { bills: snapshot.bills.length, annotations: snapshot.annotations.length };
    },
    [selection === null ? '' : JSON.stringify(selection)],
  );
}

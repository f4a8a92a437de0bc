import type { Position } from '@docket/core/store';
import { useLiveRow } from './live-database.ts';

// Live reads of the positions table.

/** The position row, null when the user never set one; undefined while loading. */
export function usePosition(billId: string | null): Position | null | undefined {
  return useLiveRow('positions', billId);
}

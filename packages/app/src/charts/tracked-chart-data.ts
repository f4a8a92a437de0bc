import {
  chartDataFromTally,
  createBillChartTally,
  tallyBill,
  type TrackedBillChartData,
} from '@docket/core/lists';
import type { LocalStore } from '@docket/core/store';
import { useLiveRead } from '../local-store/live-database.ts';

// Bills can carry megabytes of text each, so tracked bills are read a batch at a time and only
// their counts are kept; the bills table as a whole (50,000 rows) is never read.
const BATCH = 500;

/** The chart numbers of the tracked bills on a store. */
export async function readTrackedChartData(store: LocalStore): Promise<TrackedBillChartData> {
  return store.read(['decisions', 'bills'], async (tx) => {
    const trackedIds = (await tx.where('decisions', 'decision', 'track')).map((row) => row.billId);
    const tally = createBillChartTally();
    for (let start = 0; start < trackedIds.length; start += BATCH) {
      for (const bill of await tx.getMany('bills', trackedIds.slice(start, start + BATCH))) {
        // A decision can outlive its bill (the dataset was removed); there is nothing to chart.
        if (bill !== undefined) tallyBill(tally, bill);
      }
    }
    return chartDataFromTally(tally);
  });
}

/** Live chart numbers: re-read when a decision changes or an import rewrites a tracked bill. */
export function useTrackedChartData(): TrackedBillChartData | undefined {
  return useLiveRead(readTrackedChartData, []);
}

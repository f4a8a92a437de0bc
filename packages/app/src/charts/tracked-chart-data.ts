import type Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import {
  chartDataFromTally,
  createBillChartTally,
  tallyBill,
  type TrackedBillChartData,
} from '@docket/core/lists';
import type { Decision, StoredBill } from '@docket/core/store';
import { liveDatabase } from '../jobs/live-tables.ts';

// Bills can carry megabytes of text each, so tracked bills are read a batch at a time and only
// their counts are kept; the bills table as a whole (50,000 rows) is never read.
const BATCH = 500;

/** The chart numbers of the tracked bills in a Docket database. */
export async function readTrackedChartData(db: Dexie): Promise<TrackedBillChartData> {
  const trackedIds = await db
    .table<Decision, string>('decisions')
    .where('decision')
    .equals('track')
    .primaryKeys();
  const bills = db.table<StoredBill, string>('bills');
  const tally = createBillChartTally();
  for (let start = 0; start < trackedIds.length; start += BATCH) {
    for (const bill of await bills.bulkGet(trackedIds.slice(start, start + BATCH))) {
      // A decision can outlive its bill (the dataset was removed); there is nothing to chart.
      if (bill !== undefined) tallyBill(tally, bill);
    }
  }
  return chartDataFromTally(tally);
}

/** Live chart numbers: re-read when a decision changes or an import rewrites a tracked bill. */
export function useTrackedChartData(): TrackedBillChartData | undefined {
  return useLiveQuery(() => readTrackedChartData(liveDatabase()), []);
}

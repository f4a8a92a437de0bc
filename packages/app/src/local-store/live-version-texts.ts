import { readVersionTexts } from '@docket/core/text';
import type { VersionText } from '@docket/core/store';
import { useLiveRead } from './live-database.ts';

// Live reads of the text versions this device fetched ("Get text" on bill details).

/** A bill's fetched versions, in the order of its texts; undefined while loading. */
export function useVersionTexts(billId: string | null): VersionText[] | undefined {
  return useLiveRead(
    (store) =>
      billId === null
        ? Promise.resolve([])
        : store.read(['versionTexts'], (tx) => readVersionTexts(tx, billId)),
    [billId],
  );
}

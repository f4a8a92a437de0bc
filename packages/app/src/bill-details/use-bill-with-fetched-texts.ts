import type { StoredBill, VersionText } from '@docket/core/store';
import { withFetchedTexts } from '@docket/core/text';
import { useMemo } from 'react';
import { useStoredBill } from '../local-store/live-bills.ts';
import { useVersionTexts } from '../local-store/live-version-texts.ts';

export interface BillWithFetchedTexts {
  /** The bill as stored: null when it is not on this device, undefined while reading. */
  readonly storedBill: StoredBill | null | undefined;
  /** The text versions this device fetched in place ("Get text"); undefined while reading. */
  readonly fetched: VersionText[] | undefined;
  /** The stored bill with those texts in it, so annotations made on them are placed, not orphans. */
  readonly bill: StoredBill | null | undefined;
}

/** The bill of bill details, read live, with the text versions this device fetched in place. */
export function useBillWithFetchedTexts(billId: string | null): BillWithFetchedTexts {
  const storedBill = useStoredBill(billId);
  const fetched = useVersionTexts(billId);
  const bill = useMemo(
    () =>
      storedBill == null || fetched === undefined
        ? storedBill
        : withFetchedTexts(storedBill, fetched),
    [storedBill, fetched],
  );
  return { storedBill, fetched, bill };
}

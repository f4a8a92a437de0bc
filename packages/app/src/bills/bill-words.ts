import type { BillStatus } from '@docket/core/bills';

// The words the bill screens share, so the deck, the list, the details and the charts name a
// status or a date the same way.

const statusWords: Record<BillStatus, string> = {
  introduced: 'Introduced',
  'in-committee': 'In committee',
  'passed-one-chamber': 'Passed one chamber',
  'passed-both': 'Passed both chambers',
  enacted: 'Enacted',
  vetoed: 'Vetoed',
  failed: 'Failed',
  other: 'Other',
};

export function statusWord(status: BillStatus): string {
  return statusWords[status];
}

const dateFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A calendar date of a bill (YYYY-MM-DD) in the reader's words, e.g. "Jan 9, 2019". */
export function formatBillDate(date: string | null): string {
  if (date === null) return 'no date';
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : dateFormat.format(parsed);
}

/** Where a bill's details open: ids hold slashes, so they travel encoded. */
export function billDetailsPath(billId: string): string {
  return `/bill-details?id=${encodeURIComponent(billId)}`;
}

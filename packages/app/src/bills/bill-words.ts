// The words the bill screens share, so the deck, the list, the details and the charts name a
// date the same way (a status in words is core's statusWord, which the exports use too).

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

// Docket's own CSV: one row per bill, readable and editable in a spreadsheet, and lossless for
// everything a bill holds. The columns, in order:
//
//   jurisdiction     'us', 'us-ca' (or 'CA', 'California' on import)
//   session          '116', '2023-2024 Regular Session'
//   identifier       as people write it: 'H.R. 1', 'HB 1044'
//   title
//   alternative_titles  list of  title      (the bill's other titles, which search finds;
//                    the column may be absent)
//   summary          may hold line breaks
//   status           one of introduced, in-committee, passed-one-chamber, passed-both, enacted,
//                    vetoed, failed, other (blank means other)
//   status_date      YYYY-MM-DD (also MM/DD/YYYY on import)
//   raw_status       the source's own words for the status
//   introduced_date  YYYY-MM-DD
//   sponsors         list of  name; party; role; external id[; district]   (role blank: sponsor)
//   cosponsors       list of  name; party; role; external id[; district]   (role blank: cosponsor)
//   subjects         list of  subject
//   actions          list of  date; chamber; text
//   texts            list of  date; type; url; media type; text[; LegiScan doc id]
//   votes            list of  date; chamber; motion; yes; no; other; passed|failed
//                    (totals only: who voted how stays with the source's own files)
//   url
//   source           the format the bill first came from (blank: docket-csv)
//   source_id        that source's own id for the bill
//   id               Docket's id; a check on import (see below), blank it after editing
//                    jurisdiction, session or identifier
//
// Lists join their items with " | " and an item's parts with "; ". A literal "|", ";" or "\"
// inside a value is written "\|", "\;", "\\". Chambers are upper, lower, legislature,
// executive. The id column comes last on purpose: a file cut off mid-row then fails the id
// check instead of yielding a bill whose last value is silently shortened.
//
// Spreadsheet formulas: a cell that starts with = + - or @ is written with a leading
// apostrophe (so Excel, LibreOffice and Sheets show it as text instead of running it), and the
// apostrophe is removed again on import. A value that already starts with apostrophes before
// such a character gets one more, so the round trip is exact.

export const docketCsvColumns = [
  'jurisdiction',
  'session',
  'identifier',
  'title',
  'alternative_titles',
  'summary',
  'status',
  'status_date',
  'raw_status',
  'introduced_date',
  'sponsors',
  'cosponsors',
  'subjects',
  'actions',
  'texts',
  'votes',
  'url',
  'source',
  'source_id',
  'id',
] as const;
export type DocketCsvColumn = (typeof docketCsvColumns)[number];

/** Whether a CSV header is Docket's: it must name identifier and title, and one more column of
 *  its own. Open States' bills.csv, which also has identifier and title, has session_identifier. */
export function isDocketCsvHeader(header: readonly string[]): boolean {
  if (!header.includes('identifier') || !header.includes('title')) return false;
  if (header.includes('session_identifier')) return false;
  return ['jurisdiction', 'session', 'status', 'sponsors', 'id'].some((column) =>
    header.includes(column),
  );
}

export function neutralizeFormula(cell: string): string {
  return /^'*[=+\-@]/.test(cell) ? `'${cell}` : cell;
}

export function restoreFormula(cell: string): string {
  return /^'+[=+\-@]/.test(cell) ? cell.slice(1) : cell;
}

function escapePart(value: string): string {
  return value.replace(/[\\|;]/g, (char) => `\\${char}`);
}

/** One list item from its parts; missing parts are empty, and empty trailing parts dropped. */
export function encodeItem(parts: readonly (string | null)[]): string {
  const encoded = parts.map((part) => escapePart(part ?? ''));
  while (encoded.length > 1 && encoded[encoded.length - 1] === '') encoded.pop();
  return encoded.join('; ');
}

export function encodeList(items: readonly string[]): string {
  return items.join(' | ');
}

/** Splits on a separator that is not escaped, keeping escapes in the parts. */
function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === separator) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function unescapePart(text: string): string {
  return text.replace(/\\([\s\S])/g, '$1');
}

/** A list cell's items, each as its parts (trimmed; empty parts are null). */
export function decodeList(cell: string): (string | null)[][] {
  if (cell.trim() === '') return [];
  return splitUnescaped(cell, '|')
    .filter((item) => item.trim() !== '')
    .map((item) =>
      splitUnescaped(item, ';').map((part) => {
        const value = unescapePart(part.trim());
        return value === '' ? null : value;
      }),
    );
}

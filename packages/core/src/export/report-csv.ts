import type { Bill } from '../bills/bill.ts';
import { billDates } from '../bills/bill-dates.ts';
import { billFullName, sessionLabel, statusWord } from '../bills/bill-naming.ts';
import { toCsv } from '../encoding/csv-table.ts';
import { neutralizeFormula } from '../importers/docket-csv-layout.ts';
import { jurisdictionName } from '../bills/us-jurisdictions.ts';
import { latestVote, voteResultText, voteTotalsText } from '../bills/member-votes.ts';
import type { UserDataSnapshot } from './user-data-export.ts';

// The report CSV: one row per bill in plain columns a person reads in a spreadsheet (names, not
// codes; statuses in words; dates as the reader writes them; tags by name; the latest vote with
// its result and totals), beside the lossless
// Docket CSV that Docket reads back. It is for reading and sharing, not for importing.
//
// Spreadsheets hold at most 32,767 characters in a cell (Excel's limit; LibreOffice's is the
// same for import); a longer cell (a long summary, many notes) is cut with "…", and the result
// says how many were cut so the screen can say so. A leading = + - @ is neutralised, as in every
// export, so no cell runs as a formula. The file starts with a byte order mark, so Excel reads
// it as UTF-8.

/** The longest text a spreadsheet cell holds. */
export const MAX_CELL_CHARACTERS = 32_767;

export const reportColumns = [
  'Bill',
  'Jurisdiction',
  'Session',
  'Number',
  'Title',
  'Status',
  'Status date',
  'Latest action date',
  'Latest action',
  'Latest vote date',
  'Latest vote',
  'Latest vote result',
  'Latest vote totals',
  'Sponsor',
  'Tags',
  'Position',
  'Reason',
  'Decision',
  'Notes',
] as const;

export interface ReportOptions {
  /** A calendar date (YYYY-MM-DD) as the reader writes it; '' for none. */
  readonly formatDate: (date: string) => string;
}

export interface ReportCsv {
  readonly text: string;
  readonly rows: number;
  /** Cells cut to MAX_CELL_CHARACTERS. */
  readonly cutCells: number;
}

const POSITION_WORDS: Readonly<Record<string, string>> = {
  support: 'Support',
  oppose: 'Oppose',
  watch: 'Watch',
  none: '',
};
const DECISION_WORDS: Readonly<Record<string, string>> = {
  track: 'Tracked',
  later: 'Later',
  dismiss: 'Dismissed',
};

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list === undefined) groups.set(key(item), [item]);
    else list.push(item);
  }
  return groups;
}

/** The snapshot's bills as the report CSV, in the snapshot's order. */
export function snapshotToReportCsv(snapshot: UserDataSnapshot, options: ReportOptions): ReportCsv {
  const tagNames = new Map(snapshot.tags.map((tag) => [tag.id, tag.name]));
  const tagsOf = groupBy(snapshot.billTags, (billTag) => billTag.billId);
  const positions = new Map(snapshot.positions.map((row) => [row.billId, row]));
  const decisions = new Map(snapshot.decisions.map((row) => [row.billId, row.decision]));
  const notesOf = groupBy(
    snapshot.annotations.filter((annotation) => annotation.note.trim() !== ''),
    (annotation) => annotation.billId,
  );
  const date = (value: string | null) => (value === null ? '' : options.formatDate(value));
  let cutCells = 0;
  const cell = (text: string) => {
    const safe = neutralizeFormula(text);
    if (safe.length <= MAX_CELL_CHARACTERS) return safe;
    cutCells += 1;
    return `${safe.slice(0, MAX_CELL_CHARACTERS - 1)}…`;
  };
  const rowOf = (bill: Bill) => {
    const dates = billDates(bill);
    const latest = dates.latestAction;
    const tags = (tagsOf.get(bill.id) ?? [])
      .map((billTag) => tagNames.get(billTag.tagId))
      .filter((name): name is string => name !== undefined)
      .sort((a, b) => a.localeCompare(b));
    const notes = (notesOf.get(bill.id) ?? [])
      .slice()
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((annotation) => `“${annotation.quote.exact}”: ${annotation.note}`);
    const decision = decisions.get(bill.id);
    const vote = latestVote(bill.votes);
    return [
      billFullName(bill),
      jurisdictionName(bill.jurisdiction),
      sessionLabel(bill.jurisdiction, bill.session),
      bill.identifier,
      bill.title,
      statusWord(bill.status),
      date(dates.statusSince),
      date(latest?.date ?? null),
      latest?.text ?? '',
      date(vote?.date ?? null),
      vote?.motion ?? '',
      vote === null ? '' : voteResultText(vote),
      vote === null ? '' : voteTotalsText(vote),
      bill.sponsors[0]?.name ?? '',
      tags.join('; '),
      POSITION_WORDS[positions.get(bill.id)?.position ?? 'none'] ?? '',
      positions.get(bill.id)?.reason ?? '',
      decision === undefined ? '' : (DECISION_WORDS[decision] ?? ''),
      notes.join('\n\n'),
    ].map(cell);
  };
  const rows = snapshot.bills.map(rowOf);
  return { text: `\uFEFF${toCsv([[...reportColumns], ...rows])}`, rows: rows.length, cutCells };
}

import type {
  BillAction,
  BillDraft,
  BillOverrides,
  BillText,
  BillVote,
  Sponsor,
} from '../bills/bill.ts';
import type { BillSource, BillStatus, Chamber, SponsorRole } from '../bills/bill-vocabulary.ts';
import { billSources, billStatuses, chambers, sponsorRoles } from '../bills/bill-vocabulary.ts';
import { finalizeBill } from '../bills/bill.ts';
import { safeUrl, toIsoDate } from '../bills/bill-text-cleaning.ts';
import type { BillImportResult, ImportFile, RecordOutcome } from './bill-import-record.ts';
import { collectOutcomes, failure, guarded } from './bill-import-record.ts';
import { csvHeader, parseCsvTable } from '../encoding/csv-table.ts';
import { decodeList, isDocketCsvHeader, restoreFormula } from './docket-csv-layout.ts';
import { decodeUtf8, decodeUtf8Head } from '../encoding/text-bytes.ts';

// Docket's own CSV (columns and cell syntax in docket-csv-layout.ts). Unlike the other formats
// this one is typed by people, so a value that does not fit is an error naming the row, the
// column and the item, never a silent null.

export function isDocketCsvFile(file: ImportFile): boolean {
  return isDocketCsvHeader(csvHeader(decodeUtf8Head(file.bytes)));
}

class CellError extends Error {}

function oneOf<T extends string>(allowed: readonly T[], value: string, what: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CellError(`${what} "${value}" is not one of ${allowed.join(', ')}`);
}

function dateOrNull(value: string | null, what: string): string | null {
  if (value === null) return null;
  const date = toIsoDate(value);
  if (date === null) throw new CellError(`${what} "${value}" is not a date (YYYY-MM-DD)`);
  return date;
}

function countOrNull(value: string | null, what: string): number | null {
  if (value === null) return null;
  if (!/^\d{1,7}$/.test(value)) throw new CellError(`${what} "${value}" is not a count`);
  return Number(value);
}

function chamberOrNull(value: string | null, what: string): Chamber | null {
  return value === null ? null : oneOf(chambers, value.toLowerCase(), what);
}

function urlOrNull(value: string | null, what: string): string | null {
  if (value === null) return null;
  const url = safeUrl(value);
  if (url === null) throw new CellError(`${what} "${value}" is not an http(s) link`);
  return url;
}

function items<T>(
  cell: string,
  column: string,
  read: (parts: (string | null)[], what: string) => T,
): T[] {
  return decodeList(cell).map((parts, index) => read(parts, `${column} item ${index + 1}`));
}

function sponsors(cell: string, column: string, defaultRole: SponsorRole): Sponsor[] {
  return items(
    cell,
    column,
    ([name = null, party = null, role = null, externalId = null, district = null], what) => {
      if (name === null) throw new CellError(`${what} has no name`);
      return {
        name,
        party,
        role: role === null ? defaultRole : oneOf(sponsorRoles, role.toLowerCase(), `${what} role`),
        // Files written before districts were kept have four parts.
        ...(district === null ? {} : { district }),
        externalId,
      };
    },
  );
}

function actions(cell: string): BillAction[] {
  return items(cell, 'actions', ([date = null, chamber = null, text = null], what) => {
    if (text === null) throw new CellError(`${what} has no text`);
    return {
      date: dateOrNull(date, `${what} date`),
      chamber: chamberOrNull(chamber, `${what} chamber`),
      text,
    };
  });
}

function texts(cell: string): BillText[] {
  return items(
    cell,
    'texts',
    ([date = null, type = null, url = null, mimeType = null, text = null, docId = null], what) => {
      if (docId !== null && !/^[1-9][0-9]{0,14}$/.test(docId)) {
        throw new CellError(`${what} LegiScan doc id "${docId}" is not a whole number`);
      }
      return {
        date: dateOrNull(date, `${what} date`),
        type: type ?? 'Text',
        url: urlOrNull(url, `${what} url`),
        mimeType,
        text,
        ...(docId === null ? {} : { docId: Number(docId) }),
      };
    },
  );
}

function votes(cell: string): BillVote[] {
  return items(
    cell,
    'votes',
    (
      [
        date = null,
        chamber = null,
        motion = null,
        yes = null,
        no = null,
        other = null,
        passed = null,
      ],
      what,
    ) => {
      const outcome =
        passed === null
          ? null
          : oneOf(['passed', 'failed'], passed.toLowerCase(), `${what} result`);
      return {
        date: dateOrNull(date, `${what} date`),
        chamber: chamberOrNull(chamber, `${what} chamber`),
        motion: motion ?? 'Vote',
        yes: countOrNull(yes, `${what} yes`),
        no: countOrNull(no, `${what} no`),
        other: countOrNull(other, `${what} other`),
        passed: outcome === null ? null : outcome === 'passed',
      };
    },
  );
}

function rowOutcome(
  file: string,
  values: Map<string, string>,
  label: string,
  overrides: BillOverrides,
): RecordOutcome {
  const cell = (column: string) => restoreFormula(values.get(column) ?? '');
  const text = (column: string) => {
    const value = cell(column).trim();
    return value === '' ? null : value;
  };
  let draft: BillDraft;
  try {
    const status = text('status');
    const source = text('source');
    draft = {
      source:
        source === null
          ? 'docket-csv'
          : oneOf<BillSource>(billSources, source.toLowerCase(), 'source'),
      sourceId: text('source_id'),
      jurisdiction: text('jurisdiction'),
      session: text('session'),
      identifier: text('identifier'),
      title: text('title'),
      // A title may hold a semicolon a spreadsheet user left unescaped: it stays one title.
      alternativeTitles: decodeList(cell('alternative_titles')).map((parts) =>
        parts.filter((part) => part !== null).join('; '),
      ),
      summary: text('summary'),
      introducedDate: dateOrNull(text('introduced_date'), 'introduced_date'),
      status:
        status === null ? 'other' : oneOf<BillStatus>(billStatuses, status.toLowerCase(), 'status'),
      rawStatus: text('raw_status'),
      statusDate: dateOrNull(text('status_date'), 'status_date'),
      sponsors: sponsors(cell('sponsors'), 'sponsors', 'sponsor'),
      cosponsors: sponsors(cell('cosponsors'), 'cosponsors', 'cosponsor'),
      subjects: decodeList(cell('subjects')).flatMap((parts) =>
        parts.filter((part) => part !== null),
      ),
      actions: actions(cell('actions')),
      texts: texts(cell('texts')),
      votes: votes(cell('votes')),
      url: urlOrNull(text('url'), 'url'),
    };
  } catch (error) {
    if (error instanceof CellError) return failure(file, label, error.message);
    throw error;
  }
  const result = finalizeBill(draft, overrides);
  if (!result.ok) return failure(file, label, result.reason);
  const claimedId = text('id');
  if (claimedId !== null && claimedId !== result.bill.id) {
    return failure(
      file,
      label,
      `id column says "${claimedId.slice(0, 80)}" but jurisdiction, session and identifier give "${result.bill.id}" (clear the id cell after editing those)`,
    );
  }
  return { ok: true, file, bill: result.bill };
}

/** Bills from Docket CSV files, one outcome per row. */
export function* readDocketCsvRecords(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
): Generator<RecordOutcome> {
  for (const file of files) {
    const table = parseCsvTable(decodeUtf8(file.bytes));
    if (!isDocketCsvHeader(table.header)) {
      yield failure(
        file.name,
        null,
        'not a Docket CSV: the header needs identifier and title columns',
      );
      continue;
    }
    for (const problem of table.problems)
      yield failure(file.name, `row at line ${problem.line}`, problem.reason);
    for (const row of table.rows) {
      const identifier = restoreFormula(row.values.get('identifier') ?? '').trim();
      const label = `row at line ${row.line}${identifier === '' ? '' : ` (${identifier.slice(0, 40)})`}`;
      yield guarded(file.name, label, () => rowOutcome(file.name, row.values, label, overrides));
    }
  }
}

export function importDocketCsv(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
): BillImportResult {
  return collectOutcomes(readDocketCsvRecords(files, overrides));
}

// RFC 4180 CSV, read and written by hand: papaparse's CommonJS build has no ESM named exports
// under plain Node (the CLI) and its type declarations pull Node's types into core. The format is
// small enough that a linear reader and writer are clearer than working round either.

export interface CsvRecord {
  /** The physical line the record starts on, 1-based (the header is line 1). */
  line: number;
  cells: string[];
}

export interface CsvProblem {
  line: number;
  reason: string;
}

export interface CsvParseResult {
  records: CsvRecord[];
  problems: CsvProblem[];
}

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  let index = text.indexOf('\n', from);
  while (index >= 0 && index < to) {
    count++;
    index = text.indexOf('\n', index + 1);
  }
  return count;
}

/** Splits CSV text into records of cells. Blank lines are skipped; a quoted field that never
 *  closes is reported and its record dropped rather than read as a truncated value. */
export function parseCsv(text: string): CsvParseResult {
  const records: CsvRecord[] = [];
  const problems: CsvProblem[] = [];
  const length = text.length;
  let index = 0;
  let line = 1;
  while (index < length) {
    const recordLine = line;
    const cells: string[] = [];
    let endOfRecord = false;
    let broken = false;
    while (!endOfRecord) {
      let value = '';
      if (text.charCodeAt(index) === QUOTE) {
        index++;
        for (;;) {
          const quote = text.indexOf('"', index);
          if (quote < 0) {
            problems.push({ line: recordLine, reason: 'a quoted field is never closed' });
            line += countNewlines(text, index, length);
            index = length;
            broken = true;
            break;
          }
          value += text.slice(index, quote);
          line += countNewlines(text, index, quote);
          if (text.charCodeAt(quote + 1) === QUOTE) {
            value += '"';
            index = quote + 2;
          } else {
            index = quote + 1;
            break;
          }
        }
      }
      // Unquoted text, or anything after a closing quote, runs to the next comma or line end.
      const start = index;
      while (index < length) {
        const code = text.charCodeAt(index);
        if (code === COMMA || code === CR || code === LF) break;
        index++;
      }
      value += text.slice(start, index);
      cells.push(value);
      if (broken || index >= length) {
        endOfRecord = true;
      } else if (text.charCodeAt(index) === COMMA) {
        index++;
        if (index >= length) {
          cells.push('');
          endOfRecord = true;
        }
      } else {
        if (text.charCodeAt(index) === CR && text.charCodeAt(index + 1) === LF) index++;
        index++;
        line++;
        endOfRecord = true;
      }
    }
    if (broken) break;
    if (cells.length === 1 && cells[0] === '') continue;
    records.push({ line: recordLine, cells });
  }
  return { records, problems };
}

export interface CsvRow {
  line: number;
  /** Cells by lower-cased, trimmed header name. */
  values: Map<string, string>;
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
  problems: CsvProblem[];
}

/** CSV with a header row, as rows keyed by column name. A row whose cell count differs from the
 *  header's is reported, not guessed at. */
export function parseCsvTable(text: string): CsvTable {
  const { records, problems } = parseCsv(text);
  const [headerRecord, ...body] = records;
  const header = (headerRecord?.cells ?? []).map((name) => name.trim().toLowerCase());
  const rows: CsvRow[] = [];
  for (const record of body) {
    if (record.cells.length !== header.length) {
      problems.push({
        line: record.line,
        reason: `has ${record.cells.length} cells where the header has ${header.length}`,
      });
      continue;
    }
    const values = new Map<string, string>();
    header.forEach((name, column) => values.set(name, record.cells[column] ?? ''));
    rows.push({ line: record.line, values });
  }
  return { header, rows, problems };
}

/** The header row of CSV text, lower-cased and trimmed, from its first line only. */
export function csvHeader(head: string): string[] {
  const firstLine = head.split(/\r?\n/, 1)[0] ?? '';
  return (parseCsv(firstLine).records[0]?.cells ?? []).map((cell) => cell.trim().toLowerCase());
}

export function formatCsvCell(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** CSV text with CRLF line ends, as RFC 4180 and spreadsheets expect. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(formatCsvCell).join(',')).join('\r\n') + '\r\n';
}

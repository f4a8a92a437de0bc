// CSV read and written with papaparse (RFC 4180 quoting, doubled quotes, line breaks in cells).
// Imported by its default export only: its CommonJS build has no ESM named exports under plain
// Node. Its types are core's own (papaparse.d.ts), as @types/papaparse brings Node's types in.
import Papa from 'papaparse';

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

/** A quoted field (doubled quotes are two of these in a row) or a line end of any kind. */
const QUOTED_OR_LINE_END = /"[^"]*"|\r\n?/g;
const LONE_CR = /\r(?!\n)/;
const LONE_LF = /(?<!\r)\n/;

/**
 * The text with one kind of line end, and that kind: papaparse takes one per text, where files
 * met in the wild mix CRLF, LF and CR. Only a mixed text is rewritten (every line end outside
 * quotes as LF, cells untouched), as the rewrite costs about as much as the parse.
 */
function withOneKindOfLineEnd(text: string): { text: string; newline: string } {
  const hasCr = text.includes('\r');
  if (!hasCr) return { text, newline: '\n' };
  if (!LONE_CR.test(text) && !LONE_LF.test(text)) return { text, newline: '\r\n' };
  const lf = text.replace(QUOTED_OR_LINE_END, (match) => (match.startsWith('"') ? match : '\n'));
  return { text: lf, newline: '\n' };
}

function countNewlines(cells: readonly string[]): number {
  let count = 0;
  for (const cell of cells) {
    for (let index = cell.indexOf('\n'); index >= 0; index = cell.indexOf('\n', index + 1)) count++;
  }
  return count;
}

/** Splits CSV text into records of cells. Blank lines are skipped; a quoted field that never
 *  closes is reported and its record dropped rather than read as a truncated value. */
export function parseCsv(text: string): CsvParseResult {
  const records: CsvRecord[] = [];
  const problems: CsvProblem[] = [];
  const { text: oneKind, newline } = withOneKindOfLineEnd(text);
  const { data, errors } = Papa.parse(oneKind, { delimiter: ',', newline });
  // An unclosed quote runs its field to the end of the text: no record from there on is read.
  const unclosed = errors.find((error) => error.code === 'MissingQuotes')?.row ?? data.length;
  let line = 1;
  for (const [index, cells] of data.entries()) {
    if (index === unclosed) {
      problems.push({ line, reason: 'a quoted field is never closed' });
      break;
    }
    if (!(cells.length === 1 && cells[0] === '')) records.push({ line, cells });
    // A record takes one line, plus one for each line break inside its quoted cells.
    line += 1 + countNewlines(cells);
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
  return needsQuotes(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Quotes, commas and line ends must be quoted; so are cells with space at either end, which
 *  spreadsheets would otherwise trim (papaparse's own rule looks at the space character only). */
function needsQuotes(value: string): boolean {
  return /[",\r\n]|^\s|\s$/.test(value);
}

/** CSV text with CRLF line ends, as RFC 4180 and spreadsheets expect. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return `${Papa.unparse(rows, { newline: '\r\n', quotes: needsQuotes })}\r\n`;
}

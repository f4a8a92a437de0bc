import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bill } from '@docket/core/bills';
import { importBills, type ImportFile } from '@docket/core/importers';
import type { SourceFields, SourceFormat } from './fidelity-source-fields.ts';
import { readSourceFields } from './fidelity-source-fields.ts';

// `npm run fidelity [corpus folder] [--show N]`: imports every bill file of a folder of real
// files (../shared/fixtures by default) with Docket's importers, reads the same files' own fields
// with an independent minimal parse (fidelity-source-fields.ts), and prints, per format and
// field, how often the two agree. `--show N` lists the first N disagreements of each field.
// Larger corpora: `npm run fidelity:corpora` says where they come from.

export const FIELDS = [
  'latestActionText',
  'latestActionDate',
  'title',
  'introducedDate',
  'sponsor',
  'cosponsorCount',
  'status',
] as const;
export type Field = (typeof FIELDS)[number];

export interface Tally {
  compared: number;
  agreed: number;
  disagreements: { file: string; source: string; imported: string }[];
}

export type FidelityReport = Map<SourceFormat, Map<Field, Tally>>;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.isFile() ? [path] : [];
    });
}

/** What the importer made of the field, in the form the source's reader gives. */
function importedField(bill: Bill, field: Field, format: SourceFormat): string | number | null {
  const last = bill.actions.at(-1);
  switch (field) {
    case 'latestActionText':
      return last?.text.replace(/\s+/g, ' ').trim() ?? null;
    case 'latestActionDate':
      return last?.date ?? null;
    case 'title':
      return bill.title.replace(/\s+/g, ' ').trim();
    case 'introducedDate':
      return bill.introducedDate;
    case 'sponsor': {
      const primary = bill.sponsors[0];
      if (primary === undefined) return null;
      return format === 'openstates' ? primary.name : primary.externalId;
    }
    case 'cosponsorCount':
      return bill.cosponsors.length;
    case 'status':
      // At the source's own granularity (fidelity-source-fields.ts): LegiScan's "Introduced"
      // covers a bill in committee; BILLSTATUS and Open States say only whether it became law.
      if (format === 'billstatus' || format === 'openstates') {
        return bill.status === 'enacted' ? 'enacted' : 'not enacted';
      }
      if (format === 'legiscan' && bill.status === 'in-committee') return 'introduced';
      return bill.status;
  }
}

/** The files a LegiScan bill file is read with: the people of its dataset, for sponsors. */
function companions(path: string): string[] {
  const people = join(dirname(dirname(path)), 'people');
  return existsSync(people) && statSync(people).isDirectory() ? walk(people) : [];
}

export function measureFidelity(corpus: string): { report: FidelityReport; skipped: number } {
  const report: FidelityReport = new Map();
  let skipped = 0;
  for (const path of walk(corpus)) {
    const bytes = readFileSync(path);
    let source: SourceFields | null;
    try {
      source = readSourceFields(bytes);
    } catch {
      source = null;
    }
    if (source === null) {
      skipped++;
      continue;
    }
    const files: ImportFile[] = [{ name: relative(corpus, path), bytes }];
    if (source.format === 'legiscan') {
      for (const other of companions(path))
        files.push({ name: relative(corpus, other), bytes: readFileSync(other) });
    }
    const bill = importBills(files).bills[0];
    const byField = report.get(source.format) ?? new Map<Field, Tally>();
    report.set(source.format, byField);
    for (const field of FIELDS) {
      const expected = source[field];
      if (expected === undefined) continue;
      const tally = byField.get(field) ?? { compared: 0, agreed: 0, disagreements: [] };
      byField.set(field, tally);
      tally.compared++;
      const got = bill === undefined ? '(not imported)' : importedField(bill, field, source.format);
      if (got === expected) tally.agreed++;
      else
        tally.disagreements.push({
          file: relative(corpus, path),
          source: String(expected),
          imported: String(got),
        });
    }
  }
  return { report, skipped };
}

export function percent(tally: Tally): string {
  return tally.compared === 0 ? '-' : `${((100 * tally.agreed) / tally.compared).toFixed(1)} %`;
}

export function formatReport(report: FidelityReport, show: number): string {
  const rows = [['format', 'field', 'agree', 'of', 'agreement']];
  const details: string[] = [];
  for (const [format, byField] of [...report].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const field of FIELDS) {
      const tally = byField.get(field);
      if (tally === undefined) continue;
      rows.push([format, field, String(tally.agreed), String(tally.compared), percent(tally)]);
      for (const miss of tally.disagreements.slice(0, show)) {
        details.push(
          `${format} ${field} ${miss.file}\n  source:   ${miss.source}\n  imported: ${miss.imported}`,
        );
      }
    }
  }
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  const table = rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
  return details.length === 0 ? table : `${table}\n\n${details.join('\n')}`;
}

const isMain =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const showAt = args.indexOf('--show');
  const show = showAt === -1 ? 0 : Number(args[showAt + 1] ?? '5');
  const positional = args.filter(
    (arg, index) => !arg.startsWith('--') && (showAt === -1 || index !== showAt + 1),
  );
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  // npm runs scripts at the root; INIT_CWD is where the command was typed.
  const corpus = resolve(
    process.env.INIT_CWD ?? process.cwd(),
    positional[0] ?? join(repoRoot, '../shared/fixtures'),
  );
  if (!existsSync(corpus)) {
    process.stderr.write(
      `fidelity: ${corpus} does not exist; give a corpus folder (npm run fidelity:corpora says where to get one)\n`,
    );
    process.exit(2);
  }
  const started = Date.now();
  const { report, skipped } = measureFidelity(corpus);
  process.stdout.write(
    `Corpus: ${basename(corpus)} (${corpus})\n${formatReport(report, show)}\n\nFiles without one bill of a known format (side files, notes): ${skipped}; ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

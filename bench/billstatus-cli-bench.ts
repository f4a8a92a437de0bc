import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { main } from '../packages/cli/src/main.ts';
import { cpuMeter } from './machine-load.ts';

// BILLSTATUS XML through the CLI (issue 15): `docket import <folder> --out <file>` run in this
// process on a folder of real BILLSTATUS files, against a bare fast-xml-parser parse of the same
// files read from the same disk (read, decode, `new XMLParser().parse`, default options, no
// validation, nothing built from the tree). The importer reads XML with its own reader
// (packages/core/src/importers/xml-element-tree.ts), so the baseline is the parse a person would
// otherwise reach for, not the importer's. Each side runs RUNS times, alternating; medians are
// compared.
//
//   npx tsx --expose-gc bench/billstatus-cli-bench.ts [folder]
//
// The folder defaults to ../corpus/billstatus-116 (16,522 files of the 116th Congress, made by
// scripts/make-corpus.sh), else the BILLSTATUS files of ../shared/fixtures. It fails only when the
// CLI does not write one bill per file.

const RUNS = Number(process.env.BENCH_BILLSTATUS_RUNS ?? '3');
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

function defaultFolders(): string[] {
  const corpus = resolve(repositoryRoot, '../corpus/billstatus-116');
  if (existsSync(corpus)) return [corpus];
  return ['billstatus-xml-116', 'billstatus-samples'].map((name) =>
    resolve(repositoryRoot, '../shared/fixtures', name),
  );
}

function walk(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.isFile() && entry.name.endsWith('.xml') ? [path] : [];
    });
}

function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

interface Run {
  ms: number;
  bills: number;
  /** CPU time of this process (user + system): on a shared machine, the work's own cost. */
  cpuMs?: number;
}

async function timed(work: () => Promise<Run>): Promise<Run> {
  const cpu = process.cpuUsage();
  const run = await work();
  const used = process.cpuUsage(cpu);
  return { ...run, cpuMs: (used.user + used.system) / 1000 };
}

async function cliRun(folders: readonly string[], out: string): Promise<Run> {
  let report = '';
  const started = performance.now();
  const status = await main(['import', ...folders, '--out', out], {
    cwd: process.cwd(),
    stdout: (text) => (report += text),
    stderr: (text) => (report += text),
  });
  const ms = performance.now() - started;
  const written = /Bills written: (\d+)/.exec(report)?.[1];
  if (status !== 0 || written === undefined) throw new Error(`the CLI failed:\n${report}`);
  return { ms, bills: Number(written) };
}

async function bareParseRun(paths: readonly string[]): Promise<Run> {
  const parser = new XMLParser();
  const decoder = new TextDecoder();
  let bills = 0;
  const started = performance.now();
  for (const path of paths) {
    const document: unknown = parser.parse(decoder.decode(await readFile(path)));
    if (typeof document === 'object' && document !== null && 'billStatus' in document) bills++;
  }
  return { ms: performance.now() - started, bills };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

const perSecond = (run: Run) => Math.round((1000 * run.bills) / run.ms).toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const folders = process.argv[2] === undefined ? defaultFolders() : [resolve(process.argv[2])];
const paths = folders.flatMap(walk);
if (paths.length === 0) throw new Error(`no .xml files in ${folders.join(', ')}`);
const scratch = mkdtempSync(join(tmpdir(), 'docket-billstatus-bench-'));
const out = join(scratch, 'bills.jsonl');
process.stdout.write(
  `BILLSTATUS through the CLI: ${paths.length.toLocaleString('en-US')} files in ${folders.join(', ')}\n` +
    `Node ${process.version}, ${RUNS} runs a side, alternating; gc between runs: ${'gc' in globalThis ? 'yes' : 'no (run with --expose-gc)'}\n`,
);

const loadBefore = cpuMeter();
await new Promise((done) => setTimeout(done, 2000));
process.stdout.write(`Before the run (2 s): ${loadBefore()}\n\n`);

const during = cpuMeter();
const cli: Run[] = [];
const bare: Run[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const sides = run % 2 === 0 ? (['cli', 'bare'] as const) : (['bare', 'cli'] as const);
    for (const side of sides) {
      collect();
      const result = await timed(() =>
        side === 'cli' ? cliRun(folders, out) : bareParseRun(paths),
      );
      if (result.bills !== paths.length) {
        throw new Error(`${side} read ${result.bills} bills of ${paths.length} files`);
      }
      (side === 'cli' ? cli : bare).push(result);
      process.stdout.write(
        `run ${run + 1} ${side === 'cli' ? 'docket import   ' : 'bare XMLParser  '} ${seconds(result.ms).padStart(8)}  ${perSecond(result).padStart(6)} bills/s   CPU ${seconds(result.cpuMs ?? 0).padStart(8)}  ${perSecond({ ms: result.cpuMs ?? 0, bills: result.bills }).padStart(6)} bills per CPU-second\n`,
      );
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const cliMs = median(cli.map((run) => run.ms));
const bareMs = median(bare.map((run) => run.ms));
const ratio = cliMs / bareMs;
const cliCpuMs = median(cli.map((run) => run.cpuMs ?? 0));
const bareCpuMs = median(bare.map((run) => run.cpuMs ?? 0));
const cliRate = perSecond({ ms: cliMs, bills: paths.length });
process.stdout.write(
  `\nMedian of ${RUNS}: docket import ${seconds(cliMs)} (${cliRate} bills/s), ` +
    `bare fast-xml-parser parse ${seconds(bareMs)} (${perSecond({ ms: bareMs, bills: paths.length })} bills/s)\n` +
    `Ratio ${ratio.toFixed(2)}× the bare parse (goal ≤ 2×: ${ratio <= 2 ? 'met' : 'missed'}); ` +
    `${cliRate} bills/s (goal ≥ 2,000: ${(1000 * paths.length) / cliMs >= 2000 ? 'met' : 'missed'})\n` +
    `CPU time, median: docket import ${seconds(cliCpuMs)} (${perSecond({ ms: cliCpuMs, bills: paths.length })} bills per CPU-second), ` +
    `bare parse ${seconds(bareCpuMs)} (${perSecond({ ms: bareCpuMs, bills: paths.length })}), ratio ${(cliCpuMs / bareCpuMs).toFixed(2)}×\n` +
    `During the run: ${during()}\n`,
);

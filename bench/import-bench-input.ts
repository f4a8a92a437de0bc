import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import type { TestProject } from 'vitest/node';
import { readCongressJsonRecords } from '@docket/core/importers';
import { removeBenchProfile } from './bench-profile.ts';

// Builds the import benchmark's input in Node, before the browser starts: a ZIP of
// unitedstates/congress `data.json` files, the layout of that project's bulk download
// (`<congress>/bills/<type>/<type><number>/data.json`), made by varying the real fixture bills
// (../shared/fixtures) until there are as many distinct bills as asked for. The ZIP is kept in
// the system's temporary folder (rebuilt only when its inputs change) and served to the page by
// Vite; the page learns where through `inject('importBench')`.

export interface ImportBenchInput {
  /** Where the page fetches the ZIP (Vite's /@fs/ route to the file). */
  url: string;
  path: string;
  zipBytes: number;
  /** Bytes of all data.json files once unzipped. */
  unzippedBytes: number;
  /** Distinct bills in the ZIP, each one file; every one is valid, so all must be written. */
  bills: number;
  /** Fixture bills the copies were made from, and where they came from. */
  templates: number;
  templateSource: string;
  /** Said in the output when the shared fixtures were missing. */
  notice: string | null;
  /** Share of all cores busy in the second before the run (Linux), or null: others' work skews
   *  the figures. */
  busyBefore: number | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    importBench: ImportBenchInput;
  }
}

/** Bump when the way copies are made changes, so a cached ZIP is not reused. */
const GENERATOR_VERSION = 1;
/** Copies cycle through this many Congresses (116 down to 97) before numbers move on. */
const SESSIONS = 20;

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const fixturesDir = join(benchDir, '../../shared/fixtures/congress-json');
const samplesDir = join(benchDir, '../packages/core/test-samples/congress-json');

type JsonObject = Record<string, unknown>;

interface Template {
  /** Path of the fixture, for messages. */
  name: string;
  value: JsonObject;
  type: string;
  number: number;
  congress: number;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dataJsonFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at).sort()) {
      const path = join(at, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry === 'data.json') found.push(path);
    }
  };
  walk(dir);
  return found;
}

/** The fixture bills the real importer accepts (the hand-made samples hold a bad one on purpose). */
function loadTemplates(dir: string): Template[] {
  const templates: Template[] = [];
  for (const path of dataJsonFiles(dir)) {
    const bytes = readFileSync(path);
    const name = relative(dir, path);
    const [outcome] = [...readCongressJsonRecords([{ name, bytes }])];
    if (outcome?.ok !== true) continue;
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    if (!isObject(value)) continue;
    const { bill_type: type, number, congress } = value;
    if (typeof type !== 'string' || typeof number !== 'string' || typeof congress !== 'string') {
      continue;
    }
    templates.push({ name, value, type, number: Number(number), congress: Number(congress) });
  }
  return templates;
}

function retitled(value: unknown, suffix: string): unknown {
  return typeof value === 'string' ? `${value}${suffix}` : value;
}

/**
 * Copy `copy` of a template: another Congress and a bill number moved by a multiple of a power
 * of ten above every template's number, so no two copies share an id; titles say which copy.
 */
function variant(template: Template, copy: number, numberStep: number): [string, string] {
  const congress = String(template.congress - (copy % SESSIONS));
  const number = String(template.number + numberStep * Math.floor(copy / SESSIONS));
  const suffix = copy === 0 ? '' : ` (benchmark copy ${copy})`;
  const { value, type } = template;
  const titles = Array.isArray(value.titles)
    ? (value.titles as unknown[]).map((title): unknown =>
        isObject(title) ? { ...title, title: retitled(title.title, suffix) } : title,
      )
    : value.titles;
  const bill: JsonObject = {
    ...value,
    bill_id: `${type}${number}-${congress}`,
    congress,
    number,
    titles,
    official_title: retitled(value.official_title, suffix),
    short_title: retitled(value.short_title, suffix),
    popular_title: retitled(value.popular_title, suffix),
    url: `https://www.govinfo.gov/bulkdata/BILLSTATUS/${congress}/${type}/BILLSTATUS-${congress}${type}${number}.xml`,
  };
  return [`${congress}/bills/${type}/${type}${number}/data.json`, JSON.stringify(bill, null, 2)];
}

export function buildImportBenchInput(bills: number): Omit<ImportBenchInput, 'busyBefore'> {
  const fromFixtures = existsSync(fixturesDir);
  const dir = fromFixtures ? fixturesDir : samplesDir;
  const templates = loadTemplates(dir);
  if (templates.length === 0) throw new Error(`No usable data.json bills under ${dir}`);
  const templateSource = fromFixtures
    ? `../shared/fixtures/congress-json (${templates.length} real bills of the 116th Congress)`
    : `packages/core/test-samples/congress-json (${templates.length} hand-made bills)`;
  const notice = fromFixtures
    ? null
    : `../shared/fixtures is absent: the copies are made from the project's hand-made samples, which are smaller than real bills, so the figures are not comparable with runs on the fixtures.`;

  const largest = Math.max(...templates.map((template) => template.number));
  const numberStep = 10 ** String(largest).length;
  const digest = createHash('sha256');
  digest.update(`${GENERATOR_VERSION}|${bills}|${numberStep}|`);
  for (const template of templates) digest.update(JSON.stringify(template.value));
  const folder = join(tmpdir(), 'docket-bench');
  const path = join(folder, `congress-json-${bills}-${digest.digest('hex').slice(0, 12)}.zip`);
  const metaPath = `${path}.json`;

  let unzippedBytes: number;
  if (existsSync(path) && existsSync(metaPath)) {
    unzippedBytes = (JSON.parse(readFileSync(metaPath, 'utf8')) as { unzippedBytes: number })
      .unzippedBytes;
  } else {
    const entries: Record<string, Uint8Array> = {};
    const ids = new Set<string>();
    unzippedBytes = 0;
    for (let index = 0; index < bills; index++) {
      const template = templates[index % templates.length];
      if (template === undefined) throw new Error('unreachable: no template');
      const [name, text] = variant(template, Math.floor(index / templates.length), numberStep);
      if (ids.has(name)) throw new Error(`Two copies would be the same bill: ${name}`);
      ids.add(name);
      const bytes = Buffer.from(text, 'utf8');
      unzippedBytes += bytes.length;
      entries[name] = bytes;
    }
    mkdirSync(folder, { recursive: true });
    writeFileSync(path, zipSync(entries, { level: 6 }));
    writeFileSync(metaPath, JSON.stringify({ unzippedBytes }));
  }
  return {
    url: `/@fs${path}`,
    path,
    zipBytes: statSync(path).size,
    unzippedBytes,
    bills,
    templates: templates.length,
    templateSource,
    notice,
  };
}

/** Busy and total CPU time of the whole machine so far, from /proc/stat (Linux only). */
function cpuTimes(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/) ?? [];
    const ticks = fields.slice(1).map(Number);
    const total = ticks.reduce((sum, value) => sum + value, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

async function busyShare(ms: number): Promise<number | null> {
  const before = cpuTimes();
  await sleep(ms);
  const after = cpuTimes();
  if (before === null || after === null || after.total === before.total) return null;
  return (after.busy - before.busy) / (after.total - before.total);
}

/** [parent pid, utime + stime] of a process, from /proc/<pid>/stat. */
function processTicks(pid: string): [number, number] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (in parentheses, and it may hold spaces): state, ppid,
    // …; utime and stime are the 14th and 15th fields of the whole line, 12th and 13th here.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12])];
  } catch {
    return null;
  }
}

/**
 * CPU used by this process and everything it started (Chromium's processes), sampled while
 * they run, since they are gone by the time the run ends. In USER_HZ ticks, as /proc/stat.
 */
function watchOwnCpu(): { stop: () => number } {
  const lastSeen = new Map<number, number>();
  const scan = () => {
    const parents = new Map<number, number>();
    const ticks = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const read = processTicks(entry);
      if (read === null) continue;
      parents.set(Number(entry), read[0]);
      ticks.set(Number(entry), read[1]);
    }
    for (const [pid, used] of ticks) {
      let at: number | undefined = pid;
      while (at !== undefined && at > 1 && at !== process.pid) at = parents.get(at);
      if (at === process.pid) lastSeen.set(pid, used);
    }
  };
  const initial = processTicks(String(process.pid))?.[1] ?? 0;
  scan();
  const timer = setInterval(scan, 500);
  return {
    stop: () => {
      clearInterval(timer);
      scan();
      let total = -initial;
      for (const used of lastSeen.values()) total += used;
      return total;
    },
  };
}

/** The input, built once per process however many projects ask for it. */
let prepared: Promise<ImportBenchInput> | undefined;

async function prepare(): Promise<ImportBenchInput> {
  const bills = Number(process.env.BENCH_BILLS ?? 50_000);
  if (!Number.isInteger(bills) || bills < 1) {
    throw new Error(`BENCH_BILLS must be a positive whole number, not ${process.env.BENCH_BILLS}`);
  }
  const started = performance.now();
  const input = buildImportBenchInput(bills);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`[bench] input: ${input.path} (${bills} bills, ready in ${seconds} s)`);
  return { ...input, busyBefore: await busyShare(1000) };
}

/**
 * Vitest's globalSetup: builds (or reuses) the ZIP and hands its description to the page. Vitest
 * runs it for the root project and again for the Chromium instance; both get the same input.
 * At the end it says how much CPU other processes took meanwhile: on a shared machine that is
 * what makes one run slower than the next. It also removes the run's browser profile.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const first = prepared === undefined;
  prepared ??= prepare();
  project.provide('importBench', await prepared);
  if (!first) return () => undefined;
  const machineBefore = cpuTimes();
  const own = existsSync('/proc/self/stat') ? watchOwnCpu() : null;
  const wallBefore = performance.now();
  return () => {
    removeBenchProfile();
    const ownTicks = own?.stop();
    const machineAfter = cpuTimes();
    if (machineBefore === null || machineAfter === null || ownTicks === undefined) return;
    // /proc counts in USER_HZ, 100 per second on Linux.
    const machine = (machineAfter.busy - machineBefore.busy) / 100;
    const mine = ownTicks / 100;
    const wall = (performance.now() - wallBefore) / 1000;
    const others = Math.max(0, machine - mine);
    const cores = availableParallelism();
    console.log(
      `[bench] CPU during the run (${wall.toFixed(0)} s on ${cores} cores): ${machine.toFixed(0)} core-seconds busy, ${mine.toFixed(0)} of them this run's (Node and Chromium), ${others.toFixed(0)} other processes' (${((100 * others) / (wall * cores)).toFixed(0)}% of the machine; more than a few % makes the figures slower than on a quiet machine)`,
    );
  };
}

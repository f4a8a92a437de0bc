import { zipSync } from 'fflate';
import type { ImportFile } from '../importers/bill-import-record.ts';

// Core is compiled without Node's types (it must also run in a browser worker), yet its tests
// read sample files from disk. Node's own modules are reached through process.getBuiltinModule
// (Node 20.16+) and typed here with just the calls the tests make, so nothing of Node leaks into
// the code under test.

interface DirectoryEntry {
  name: string;
  isDirectory(): boolean;
  isFile(): boolean;
}
interface NodeFs {
  readFileSync(path: string): Uint8Array;
  readdirSync(path: string, options: { withFileTypes: true }): DirectoryEntry[];
  existsSync(path: string): boolean;
}
interface NodeProcess {
  cwd(): string;
  getBuiltinModule(id: string): unknown;
}

const host = globalThis as unknown as {
  process: NodeProcess;
  console: { warn(message: string): void };
};
const nodeProcess = host.process;
const fs = nodeProcess.getBuiltinModule('node:fs') as NodeFs;

function parentOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(`${dir}/packages/core/package.json`)) return dir;
    const parent = parentOf(dir);
    if (parent === dir) throw new Error(`no Docket workspace above ${start}`);
    dir = parent;
  }
}

export const repoRoot = findRepoRoot(nodeProcess.cwd());
export const samplesRoot = `${repoRoot}/packages/core/test-samples`;

const fixturesPath = `${parentOf(repoRoot)}/shared/fixtures`;
/** The real files beside the repository (`../shared/fixtures`), or null where they are absent. */
export const fixturesRoot: string | null = fs.existsSync(fixturesPath) ? fixturesPath : null;

let warned = false;
/** Says once, visibly, that the real-file tests did not run. */
export function warnIfFixturesAbsent(): void {
  if (fixturesRoot === null && !warned) {
    warned = true;
    host.console.warn(`${fixturesPath} (../shared/fixtures) absent: real-file tests skipped`);
  }
}

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return entry.isFile() ? [path] : [];
    });
}

/** Every file under root/relative, named by its path below root. */
function readTree(root: string, relative: string): ImportFile[] {
  const start = relative === '' ? root : `${root}/${relative}`;
  const paths = fs.existsSync(`${start}/`) ? walk(start) : [start];
  return paths.map((path) => ({ name: path.slice(root.length + 1), bytes: fs.readFileSync(path) }));
}

export function readSamples(relative: string): ImportFile[] {
  return readTree(samplesRoot, relative);
}

export function readFixtures(relative: string): ImportFile[] {
  if (fixturesRoot === null) throw new Error('fixtures absent');
  return readTree(fixturesRoot, relative);
}

/** The files packed into one ZIP, keeping their names (below `prefix`) as entry paths. */
export function zipOf(name: string, files: readonly ImportFile[], prefix = ''): ImportFile {
  const entries: Record<string, Uint8Array> = {};
  for (const file of files) entries[file.name.slice(prefix.length)] = file.bytes;
  return { name, bytes: zipSync(entries) };
}

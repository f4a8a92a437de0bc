// Loads one of the CLI's TypeScript entry points (src/main.ts, src/import-worker.ts) for
// bin/docket.mjs and bin/import-worker.mjs, so the command runs right after `npm ci` with no
// build step.
//
// Through tsx's loader a thread pays about a second before its first line of work here: the
// loader starts a thread of its own, then resolves and transforms core's modules and zod's one by
// one. `docket import` starts a worker thread per core for a folder of BILLSTATUS files, so that
// second is paid again by every worker, on every run. So each entry is bundled once, by esbuild
// (which tsx itself runs on), into `.bundle/` beside `src/` (the same depth, so the sources'
// `new URL('../bin/…', import.meta.url)` still finds what it names), and the bundle is used until
// a file it was made from changes: the files' sizes and modification times are kept in a
// manifest beside it. A bundle is written to a temporary name and renamed, so two commands
// starting together cannot read half of one. When the bundle cannot be made or written (a
// read-only install), the entry runs through tsx as before.

import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';

const defaultRoot = fileURLToPath(new URL('..', import.meta.url));

/** @param {string} path */
function stamp(path) {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats ? `${String(stats.size)}:${String(stats.mtimeMs)}` : 'missing';
}

/**
 * Whether the manifest is there and every file the bundle was made from is unchanged.
 * @param {string} manifestPath
 * @returns {boolean}
 */
function isFresh(manifestPath) {
  let manifest;
  try {
    manifest = /** @type {{ inputs: Record<string, string> }} */ (
      JSON.parse(readFileSync(manifestPath, 'utf8'))
    );
  } catch {
    return false;
  }
  return Object.entries(manifest.inputs).every(([path, seen]) => stamp(path) === seen);
}

/**
 * Where the bundle of `src/<name>.ts` of the CLI at `root` goes, and its manifest.
 * @param {string} name
 * @param {string} root
 */
function pathsOf(name, root) {
  const folder = join(root, '.bundle');
  return {
    folder,
    entry: join(root, 'src', `${name}.ts`),
    bundle: join(folder, `${basename(name)}.mjs`),
    manifest: join(folder, `${basename(name)}.json`),
  };
}

/**
 * Bundles `src/<name>.ts` unless its bundle is fresh, and says where the bundle is.
 * @param {string} name the entry's file name in src/, without `.ts`
 * @param {string} [root] the CLI package's folder
 * @returns {Promise<string>}
 */
export async function ensureBundle(name, root = defaultRoot) {
  const paths = pathsOf(name, root);
  if (isFresh(paths.manifest)) return paths.bundle;
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [paths.entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    // Not keepNames: it wraps every named function made inside another in a call that defines
    // its name, on each call of the outer one, and the importers make some for every action of
    // every bill (2 % of reading BILLSTATUS). Nothing reads functions' names.
    keepNames: false,
    logLevel: 'silent',
    // CommonJS dependencies bundled into an ES module call require for Node's own modules.
    banner: {
      js: "import { createRequire as __docketRequire } from 'node:module'; const require = __docketRequire(import.meta.url);",
    },
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote nothing');
  const inputs = Object.fromEntries(
    Object.keys(result.metafile.inputs).map((input) => {
      const path = join(root, input);
      return [path, stamp(path)];
    }),
  );
  // The lockfile too: a dependency updated in place keeps its files' names. And this file, which
  // says how the bundle is made.
  const lockfile = join(root, '../../package-lock.json');
  inputs[lockfile] = stamp(lockfile);
  const maker = fileURLToPath(import.meta.url);
  inputs[maker] = stamp(maker);
  mkdirSync(paths.folder, { recursive: true });
  const unique = `${String(process.pid)}.${String(threadId)}.tmp`;
  writeFileSync(`${paths.bundle}.${unique}`, output.contents);
  renameSync(`${paths.bundle}.${unique}`, paths.bundle);
  writeFileSync(`${paths.manifest}.${unique}`, JSON.stringify({ inputs }));
  renameSync(`${paths.manifest}.${unique}`, paths.manifest);
  return paths.bundle;
}

/**
 * Imports `src/<name>.ts` of the CLI, from its bundle when it can.
 * @param {string} name the entry's file name in src/, without `.ts`
 * @param {string} [root] the CLI package's folder
 * @returns {Promise<Record<string, unknown>>}
 */
export async function loadEntry(name, root = defaultRoot) {
  if (process.env.DOCKET_CLI_BUNDLE !== 'off') {
    try {
      const bundle = await ensureBundle(name, root);
      return /** @type {Record<string, unknown>} */ (await import(pathToFileURL(bundle).href));
    } catch {
      // Through tsx, below.
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  const { entry } = pathsOf(name, root);
  return /** @type {Record<string, unknown>} */ (await import(pathToFileURL(entry).href));
}

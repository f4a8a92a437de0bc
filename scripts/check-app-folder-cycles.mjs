// Fails when the folders of packages/app/src import each other in a cycle. A folder's imports are
// the relative imports of its files (static, dynamic, `new URL(…)` worker entries and `?worker`
// suffixes alike); a file at the root of src/ counts as a folder of its own, named after itself.
// Hand-written rather than madge or dependency-cruiser: the app imports TypeScript by its `.ts`
// path, uses Vite's `?worker`/`?url` suffixes and `new URL(…, import.meta.url)` workers, and all
// this needs is the folder of each relative specifier, which a few lines of regex give exactly.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderCycles } from './folder-cycles.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../packages/app/src');
// A static import or re-export (group 1: what it names), a side-effect import, a dynamic import,
// a worker's `new URL(…)` or a test's `vi.mock(…)`; group 3 is the relative specifier.
const specifier =
  /(?:\b(?:import|export)\s+([^'";]*?)\s*from\s*|\bimport\s*\(\s*|\bimport\s+|\bnew\s+URL\s*\(\s*|\bvi\.mock\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g;

/** `import type {…}` or `import { type A, type B }`: erased by TypeScript, no dependency at run time. */
function onlyTypes(names) {
  if (names === undefined) return false;
  if (/^type\s/.test(names)) return true;
  const inside = /^\{([^}]*)\}$/.exec(names.trim());
  if (inside === null) return false;
  const parts = inside[1]
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return parts.length > 0 && parts.every((part) => part.startsWith('type '));
}

function filesUnder(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** The room a path under src/ belongs to: its first folder, or the root file's own name. */
function roomOf(path) {
  const parts = relative(root, path).split(sep);
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.(tsx?|css)$/, '');
}

const edges = new Map();
for (const file of filesUnder(root)) {
  const from = roomOf(file);
  for (const match of readFileSync(file, 'utf8').matchAll(specifier)) {
    if (onlyTypes(match[1])) continue;
    const target = resolve(dirname(file), match[3].replace(/\?.*$/, ''));
    if (relative(root, target).startsWith('..')) continue;
    const to = roomOf(target);
    if (to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const targets = edges.get(from);
    if (!targets.has(to)) targets.set(to, `${relative(root, file)} → ${match[3]}`);
  }
}

// Folders that import each other in a loop (folder-cycles.mjs).
const components = folderCycles(edges);

if (components.length === 0) {
  console.log(`packages/app/src: no folder cycle among ${edges.size} rooms.`);
} else {
  for (const component of components) {
    console.error(
      `packages/app/src: these folders import each other in a cycle: ${component.join(', ')}`,
    );
    for (const from of component) {
      for (const [to, where] of edges.get(from) ?? []) {
        if (component.includes(to)) console.error(`  ${from} → ${to}  (${where})`);
      }
    }
  }
  process.exitCode = 1;
}

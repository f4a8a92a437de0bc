// Fails when a folder of packages/core/src imports a folder of a higher layer, or when folders
// import each other in a cycle. The layers are declared once, in packages/core/README.md under
// "## Layers": a numbered list, lowest first, each item naming its folders in backticks before
// its first colon (`1. \`encoding/\`: …`, `2. \`bills/\`, \`crypto/\`: …`). A folder may import
// its own layer and the layers below; every folder of src/ is in exactly one layer.
// A folder's imports are the relative imports of its files: static, type-only (`import type`
// counts: a row's type is knowledge of the folder that owns it), re-exports, dynamic imports and
// `vi.mock(…)`. Test files (`*.test.ts`) are exempt: a test may drive its folder together with
// any other. `test-support/` is the top layer, so only tests and test support may import it.
// Hand-written like check-app-folder-cycles.mjs: all this needs is the folder of each relative
// specifier, which a regex gives exactly. `--graph` prints the folder graph with each layer.
// It also fails when a folder's `index.ts` (its public face, `@docket/core/<folder>`) holds an
// `export *` (or `export type *`, `export * as`): an index names what it offers, one
// `export { a, type B } from './file.ts'` per file, so that what no other package uses stays
// inside core and a new export is a decision, not a side effect of adding it to a file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderCycles } from './folder-cycles.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(repo, 'packages/core/src');
const readmePath = join(repo, 'packages/core/README.md');
const specifier =
  /(?:\b(?:import|export)\s+[^'";]*?\s*from\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;
const problems = [];

/** The declared layers, lowest first: each a list of folder names, from the README. */
function declaredLayers() {
  const readme = readFileSync(readmePath, 'utf8');
  const section = /^## Layers\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme);
  if (section === null) return [];
  const layers = [];
  for (const [, folders] of section[1].matchAll(/^\d+\.\s+([^:\n]*):/gm)) {
    layers.push([...folders.matchAll(/`([\w-]+)\/`/g)].map((match) => match[1]));
  }
  return layers.filter((layer) => layer.length > 0);
}

function filesUnder(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const layers = declaredLayers();
const layerOf = new Map();
layers.forEach((layer, index) => {
  for (const folder of layer) {
    if (layerOf.has(folder)) problems.push(`${folder}/ is listed in two layers of the README`);
    layerOf.set(folder, index + 1);
  }
});
const folders = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory());
if (layers.length === 0) {
  problems.push('packages/core/README.md has no "## Layers" list (`1. `folder/`: …`)');
} else {
  for (const folder of folders) {
    if (!layerOf.has(folder)) problems.push(`${folder}/ is in no layer of packages/core/README.md`);
  }
  for (const folder of layerOf.keys()) {
    if (!folders.includes(folder))
      problems.push(`the README's layers name ${folder}/, not a folder of src/`);
  }
}

// Each folder's public face names its exports: no `export *` in an index.ts.
for (const folder of folders) {
  const indexPath = join(root, folder, 'index.ts');
  let text;
  try {
    text = readFileSync(indexPath, 'utf8');
  } catch {
    continue; // test-support/ is imported by file path, not through an index
  }
  for (const match of text.matchAll(/^[ \t]*export\s+(?:type\s+)?\*/gm)) {
    const line = text.slice(0, match.index).split('\n').length;
    problems.push(
      `packages/core/src/${folder}/index.ts:${line} has \`export *\`: name what ${folder}/ offers ` +
        "(`export { a, type B } from './file.ts'`), only what another package uses",
    );
  }
}

/** Folder → (imported folder → the first file and specifier that imports it). */
const edges = new Map(folders.map((folder) => [folder, new Map()]));
for (const file of filesUnder(root)) {
  // A file at the root of src/ is check-layout.mjs's to refuse; tests are exempt (above).
  if (file.endsWith('.test.ts') || !relative(root, file).includes(sep)) continue;
  const from = relative(root, file).split(sep)[0];
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(specifier)) {
    const target = relative(root, resolve(dirname(file), match[2]));
    if (target.startsWith('..') || !target.includes(sep)) continue;
    const to = target.split(sep)[0];
    if (to === from) continue;
    const line = text.slice(0, match.index).split('\n').length;
    const where = `packages/core/src/${relative(root, file).split(sep).join('/')}:${line} imports '${match[2]}'`;
    if (!edges.get(from).has(to)) edges.get(from).set(to, where);
    const fromLayer = layerOf.get(from);
    const toLayer = layerOf.get(to);
    if (fromLayer !== undefined && toLayer !== undefined && toLayer > fromLayer) {
      problems.push(
        `${where}: ${from}/ (layer ${fromLayer}) may not import ${to}/ (layer ${toLayer}), a higher layer`,
      );
    }
  }
}

// Folders that import each other in a loop (folder-cycles.mjs); then every elementary cycle
// inside each.
const components = folderCycles(edges);

const MAX_CYCLES = 200;
const cycles = [];
for (const component of components) {
  // Each cycle once: from its least folder, through greater ones only.
  for (const start of component) {
    const path = [start];
    const walk = (folder) => {
      for (const next of edges.get(folder).keys()) {
        if (cycles.length >= MAX_CYCLES) return;
        if (next === start) cycles.push([...path, start]);
        else if (component.includes(next) && next > start && !path.includes(next)) {
          path.push(next);
          walk(next);
          path.pop();
        }
      }
    };
    walk(start);
  }
}
for (const component of components) {
  problems.push(
    `these folders import each other in a cycle: ${component.join(', ')}\n` +
      component
        .flatMap((from) =>
          [...edges.get(from)]
            .filter(([to]) => component.includes(to))
            .map(([to, where]) => `    ${from} → ${to}  (${where})`),
        )
        .join('\n'),
  );
}

if (process.argv.includes('--graph')) {
  for (const [folder, targets] of [...edges].sort(
    ([a], [b]) => (layerOf.get(a) ?? 0) - (layerOf.get(b) ?? 0) || a.localeCompare(b),
  )) {
    const named = [...targets.keys()].sort().map((to) => `${to} (${layerOf.get(to) ?? '?'})`);
    console.log(
      `${folder} (layer ${layerOf.get(folder) ?? '?'}) → ${named.join(', ') || 'nothing'}`,
    );
  }
}

if (problems.length > 0) {
  console.error(`core layers: ${problems.length} problem(s)`);
  for (const problem of problems) console.error(`- ${problem}`);
  if (cycles.length > 0) {
    console.error(
      `Every cycle${cycles.length >= MAX_CYCLES ? ` (the first ${MAX_CYCLES})` : ''}, ${cycles.length}:`,
    );
    for (const cycle of cycles) console.error(`  ${cycle.join(' → ')}`);
  }
  process.exitCode = 1;
} else {
  console.log(
    `packages/core/src: ${folders.length} folders in ${layers.length} layers (packages/core/README.md); ` +
      'every import points to its own layer or below; no folder cycle; no `export *` in an index.',
  );
}

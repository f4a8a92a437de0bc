// Fails when a package.json declares a dependency its package never uses, or when a file imports a
// package its package.json does not declare. A workspace's files are those under its folder; the
// root's are the rest (scripts/, e2e/, bench/ and the root configs). A dependency is used when
// one of its package's files imports it (static, dynamic, re-export, require, vi.mock), when one
// of its package.json scripts runs one of the dependency's binaries, when it is the peer of a
// dependency that is used (react-router for @ionic/react-router; optional peers do not count), or, for `@types/x`, when `x` is.
// Hand-written rather than knip or depcheck: the rule fits in this file, it needs no new package,
// and it reads the `.ts` paths and Vite suffixes the tree uses as they are.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Declared, and used in a way no import, script or peer shows: each with its reason. */
const usedWithoutImport = {
  '@docket/app': {
    '@capacitor/android': "the Android shell's native code, which `cap sync` copies into android/",
    '@capacitor/ios': "the iOS shell's native code, which `cap sync` copies into ios/",
    jsdom: "vitest.config.ts names it by a string (environment: 'jsdom')",
  },
  '@docket/core': {
    ajv: 'ajv-draft-04 requires ajv/dist/core at run time, though its package.json calls that peer optional',
  },
};

/**
 * The root's devDependencies that every workspace's files may import, with the reason. Other
 * tools a single workspace uses are declared by that workspace.
 */
const sharedTools = {
  vitest: "one Vitest run from the root's vitest.config.ts runs every package's tests as projects",
};

const rootManifest = readJson(join(root, 'package.json'));
const workspaces = rootManifest.workspaces.map((folder) => ({
  folder,
  manifest: readJson(join(root, folder, 'package.json')),
}));
const rootPackage = { folder: '', manifest: rootManifest };
const packages = [...workspaces, rootPackage];

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function declaredBy({ manifest }) {
  return new Set(
    ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap(
      (field) => Object.keys(manifest[field] ?? {}),
    ),
  );
}

/** A dependency's own package.json, as Node would find it from the package's folder. */
function manifestOf(name, { folder }) {
  for (const base of [join(root, folder), root]) {
    const path = join(base, 'node_modules', name, 'package.json');
    if (existsSync(path)) return readJson(path);
  }
  return {};
}

/** Tracked and new files alike, without what .gitignore leaves out (node_modules, dist). */
function sourceFiles() {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  return listed
    .split('\0')
    .filter((path) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(path) && !path.endsWith('.d.ts'))
    .filter((path) => !/^packages\/app\/(android|ios)\//.test(path))
    .filter((path) => existsSync(join(root, path)));
}

function ownerOf(path) {
  return workspaces.find(({ folder }) => path.startsWith(`${folder}/`)) ?? rootPackage;
}

// An import or re-export (`… from 'x'`), a side-effect import, a dynamic import (also in
// `typeof import('x')`), a require, a vi.mock; group 2 is the specifier.
const specifierPattern =
  /(?:\b(?:import|export)\s+[^'";]*?\s*from\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bvi\.(?:mock|doMock|importActual)\s*(?:<[^>]*>)?\s*\(\s*)(['"])([^'"\n]+)\1/g;

const builtins = new Set(builtinModules);

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier) {
  const bare = specifier.replace(/\?.*$/, '');
  // Relative paths, Node's builtins, Vite's virtual modules (`virtual:pwa-register`) and URLs.
  if (/^[./#]/.test(bare) || /^[a-z]+:/.test(bare)) return undefined;
  const parts = bare.split('/');
  if (builtins.has(parts[0])) return undefined;
  const name = bare.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  // A regular expression or message that looks like an import (`from '\.\/…'`) names none.
  return /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/.test(name) ? name : undefined;
}

/** Strips comments, so that an example in a doc comment is no import. */
function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Per package: each package its files import, with the first file that does. */
const imported = new Map(packages.map((entry) => [entry, new Map()]));
/** Per package: whether its files import any of Node's builtins (what @types/node types). */
const importsBuiltins = new Set();
for (const path of sourceFiles()) {
  const owner = ownerOf(path);
  const text = withoutComments(readFileSync(join(root, path), 'utf8'));
  for (const match of text.matchAll(specifierPattern)) {
    const name = packageOf(match[2]);
    if (name === undefined) {
      if (match[2].startsWith('node:')) importsBuiltins.add(owner);
      continue;
    }
    if (!imported.get(owner).has(name)) imported.get(owner).set(name, path);
  }
}

function runsBinary({ folder, manifest }, name) {
  const { bin } = manifestOf(name, { folder });
  const binaries = typeof bin === 'string' ? [name.split('/').at(-1)] : Object.keys(bin ?? {});
  const commands = Object.values(manifest.scripts ?? {}).join(' && ');
  return binaries.some((binary) =>
    new RegExp(`(^|[\\s&|;(])${binary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`).test(
      commands,
    ),
  );
}

const problems = [];
const declaredByWorkspaces = new Set(workspaces.flatMap((entry) => [...declaredBy(entry)]));
const workspaceNames = new Set(workspaces.map(({ manifest }) => manifest.name));

for (const entry of packages) {
  const { folder, manifest } = entry;
  const label = folder === '' ? 'package.json' : `${folder}/package.json`;
  const declared = declaredBy(entry);
  const uses = new Set(imported.get(entry).keys());
  if (entry === rootPackage) {
    for (const workspace of workspaces) {
      for (const name of imported.get(workspace).keys()) if (name in sharedTools) uses.add(name);
    }
  }

  // What is used: imported, run by a script, typed, or the peer of what is used, to a fixed point.
  const used = new Set([...declared].filter((name) => uses.has(name) || runsBinary(entry, name)));
  for (let grew = true; grew;) {
    grew = false;
    for (const name of declared) {
      if (used.has(name)) continue;
      const typed = /^@types\/(.+)$/.exec(name);
      const [scope, rest] = typed === null ? [] : typed[1].split('__');
      const typesFor = rest === undefined ? scope : `@${scope}/${rest}`;
      const isPeer = [...used].some((user) => {
        const { peerDependencies = {}, peerDependenciesMeta = {} } = manifestOf(user, entry);
        // An optional peer is one a package can do without: it is no proof of use.
        return name in peerDependencies && peerDependenciesMeta[name]?.optional !== true;
      });
      if (
        isPeer ||
        (typed !== null &&
          (used.has(typesFor) || (typesFor === 'node' && importsBuiltins.has(entry))))
      ) {
        used.add(name);
        grew = true;
      }
    }
  }

  const exceptions = usedWithoutImport[manifest.name] ?? {};
  for (const name of [...declared].sort()) {
    if (used.has(name) && name in exceptions) {
      problems.push(
        `scripts/check-dependencies.mjs: ${name} is used by ${label}; drop its exception`,
      );
    } else if (!used.has(name) && !(name in exceptions)) {
      problems.push(`${label}: ${name} is declared and never used`);
    }
  }
  for (const name of Object.keys(exceptions)) {
    if (!declared.has(name)) {
      problems.push(`scripts/check-dependencies.mjs: ${label} no longer declares ${name}`);
    }
  }

  for (const [name, path] of imported.get(entry)) {
    if (declared.has(name) || name === manifest.name) continue;
    if (
      entry !== rootPackage &&
      name in sharedTools &&
      name in (rootManifest.devDependencies ?? {})
    ) {
      continue;
    }
    // Root files (bench, e2e) drive the workspaces: they import them and what they declare, on
    // the versions the workspaces pin, rather than declaring those a second time to drift apart.
    if (entry === rootPackage && (workspaceNames.has(name) || declaredByWorkspaces.has(name))) {
      continue;
    }
    problems.push(`${path}: imports ${name}, which ${label} does not declare`);
  }
}

if (problems.length > 0) {
  console.error('Dependencies must be used where declared and declared where used:');
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`Dependencies: the ${packages.length} package.json files match their imports.`);

// Core is laid out by capability (ARCHITECTURE.md): one folder per capability, each with a
// README.md that names every file in it. This check fails when a file of packages/core/src is
// not named in its folder's README, when a folder has no README, or when a file grows past
// 600 lines (split it along its concerns instead). It also fails when ARCHITECTURE.md names a
// folder (`name/` in backticks) that is found nowhere: at the root, under packages/, or in a
// package or its src/, so the map cannot point at a room that was moved or never made.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_LINES = 600;
const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'packages/core/src');
const problems = [];

for (const name of readdirSync(src).sort()) {
  const path = join(src, name);
  if (!statSync(path).isDirectory()) {
    problems.push(`${relative(root, path)}: core's files live in a capability folder, not at src/`);
    continue;
  }
  let readme = null;
  try {
    readme = readFileSync(join(path, 'README.md'), 'utf8');
  } catch {
    problems.push(`${relative(root, path)}/README.md is missing`);
  }
  for (const file of readdirSync(path).sort()) {
    const filePath = join(path, file);
    if (statSync(filePath).isDirectory()) {
      problems.push(`${relative(root, filePath)}: one level of folders only`);
      continue;
    }
    if (file === 'README.md') continue;
    const lines = readFileSync(filePath, 'utf8').split('\n').length - 1;
    if (lines > MAX_LINES) {
      problems.push(`${relative(root, filePath)}: ${lines} lines, over ${MAX_LINES}`);
    }
    if (readme !== null && !readme.includes(`\`${file}\``)) {
      problems.push(`${relative(root, filePath)}: not named in ${name}/README.md`);
    }
  }
}

const packageDirs = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name));
const folderBases = [
  root,
  join(root, 'packages'),
  ...packageDirs,
  ...packageDirs.map((dir) => join(dir, 'src')),
];
const isFolder = (path) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};
const architecture = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
for (const [, folder] of architecture.matchAll(/`([\w.-]+(?:\/[\w.-]+)*)\/`/g)) {
  if (!folderBases.some((base) => isFolder(join(base, folder)))) {
    problems.push(`ARCHITECTURE.md names \`${folder}/\`, a folder that does not exist`);
  }
}

if (problems.length > 0) {
  console.error(`core layout: ${problems.length} problem(s)\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(
  'core layout: every file named in its folder README, none over 600 lines; every folder ARCHITECTURE.md names exists',
);

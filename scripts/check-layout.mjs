// Core is laid out by capability (ARCHITECTURE.md): one folder per capability, each with a
// README.md that names every file in it. This check fails when a file of packages/core/src is
// not named in its folder's README, when a folder has no README, or when a file grows past
// 600 lines (split it along its concerns instead). It also fails when ARCHITECTURE.md names a
// folder (`name/` in backticks) that is found nowhere: at the root, under packages/, or in a
// package or its src/, so the map cannot point at a room that was moved or never made.
// The app's folders are held to the same map: every folder of packages/app/src has a README.md,
// and every file under it (tests and styles too; screenshots aside) is named in that README or
// in the README of the sub-folder it sits in; a file at the root of src/ is named in
// packages/app/README.md. A file counts as named when the README holds it in backticks, alone
// (`name.ts`) or at the end of a path (`ionic/name.ts`). The app's files (tests and styles
// too) are held to core's 600-line cap (issue 43, "thin screens"); a file that grows past it is
// split along its concerns.
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

const app = join(root, 'packages/app');
const appSrc = join(app, 'src');
const names = (readme, file) => readme.includes(`\`${file}\``) || readme.includes(`/${file}\``);
const readReadme = (folder) => {
  try {
    return readFileSync(join(folder, 'README.md'), 'utf8');
  } catch {
    return null;
  }
};
/** A problem when the file runs past the cap, else null. */
const overCap = (path) => {
  const lines = readFileSync(path, 'utf8').split('\n').length - 1;
  return lines > MAX_LINES ? `${relative(root, path)}: ${lines} lines, over ${MAX_LINES}` : null;
};
/** Every file under `folder`, with the READMEs of the folders from the top one down to its own. */
function appFiles(folder, readmes) {
  const own = readReadme(folder);
  const here = own === null ? readmes : [...readmes, own];
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        return name === '__screenshots__' ? [] : appFiles(path, here);
      }
      return name === 'README.md' ? [] : [{ path, name, readmes: here }];
    });
}
const appReadme = readReadme(app) ?? '';
for (const name of readdirSync(appSrc).sort()) {
  const path = join(appSrc, name);
  if (!statSync(path).isDirectory()) {
    const over = overCap(path);
    if (over !== null) problems.push(over);
    if (!names(appReadme, name)) {
      problems.push(`${relative(root, path)}: not named in packages/app/README.md`);
    }
    continue;
  }
  if (readReadme(path) === null) {
    problems.push(
      `${relative(root, path)}/README.md is missing (what the folder is for, its files)`,
    );
    continue;
  }
  for (const file of appFiles(path, [])) {
    const over = overCap(file.path);
    if (over !== null) problems.push(over);
    if (!file.readmes.some((readme) => names(readme, file.name))) {
      problems.push(`${relative(root, file.path)}: not named in ${name}/README.md`);
    }
  }
}

if (problems.length > 0) {
  console.error(`core and app layout: ${problems.length} problem(s)\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(
  `core and app layout: every file named in its folder README, none over ${MAX_LINES} lines; every folder ARCHITECTURE.md names exists`,
);

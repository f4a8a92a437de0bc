// Installs what a fresh machine is missing before `npm start` or `npm test` runs: the node
// modules (when absent or older than package-lock.json) and, with --browser, Debian's Chromium
// and LibreOffice Calc (headless, to open exported spreadsheets) for the end-to-end tests. Uses only Node's own modules, since it runs before any install.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command) => execSync(command, { cwd: root, stdio: 'inherit' });

const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  console.log('Installing node modules (npm ci)…');
  run('npm ci --no-audit --no-fund');
}

export const chromiumPath = '/usr/bin/chromium';
export const sofficePath = '/usr/bin/soffice';
const missing = [
  ...(existsSync(chromiumPath) ? [] : ['chromium']),
  ...(existsSync(sofficePath) ? [] : ['libreoffice-calc-nogui']),
];
if (process.argv.includes('--browser') && missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? '' : 'sudo ';
  console.log(`Installing Debian's ${missing.join(' and ')} for the end-to-end tests…`);
  run(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`,
  );
}

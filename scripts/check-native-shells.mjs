// The native shells (packages/app/android, packages/app/ios) are Capacitor projects committed as
// `npx cap add` made them. This runs `npx cap sync` on them after the web build, as a developer
// does before opening them in Android Studio or Xcode, and fails when:
// - sync fails (a plugin the app uses that the shells cannot take, a broken config);
// - the build did not reach both shells (their copy of index.html is not the build's);
// - sync changed a committed file: the projects no longer match the app's plugins (a plugin
//   added to package.json without `npx cap sync` and a commit of what it changed).
// Neither the Android SDK nor Xcode is needed: building the apps is the README's "Native shells".
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const app = join(root, 'packages/app');

function fail(message) {
  console.error(`check:native: ${message}`);
  process.exit(1);
}

try {
  execFileSync('npx', ['cap', 'sync'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
} catch (error) {
  const output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
  fail(`npx cap sync failed:\n${output}`);
}

const built = readFileSync(join(app, 'dist/index.html'), 'utf8');
const copies = {
  android: join(app, 'android/app/src/main/assets/public/index.html'),
  ios: join(app, 'ios/App/App/public/index.html'),
};
for (const [shell, path] of Object.entries(copies)) {
  let copy = '';
  try {
    copy = readFileSync(path, 'utf8');
  } catch {
    fail(`the ${shell} shell has no copy of the web build (${path}).`);
  }
  if (copy !== built) fail(`the ${shell} shell's copy of the web build is not the build.`);
}

const changed = execFileSync(
  'git',
  [
    'status',
    '--porcelain',
    '--untracked-files=all',
    '--',
    'packages/app/android',
    'packages/app/ios',
  ],
  { cwd: root, encoding: 'utf8' },
).trim();
if (changed !== '') {
  fail(
    `npx cap sync changed the committed native projects; run it in packages/app and commit what it changes:\n${changed}`,
  );
}
console.log('check:native: both shells synced with the web build and their plugins.');

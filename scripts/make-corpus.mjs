// Recreates the real-file corpus that `npm run fidelity <folder>` and
// bench/billstatus-cli-bench.ts read, in ../corpus beside the repository (or the folder given),
// from two public GitHub repositories at fixed commits. Nothing of it is committed: it is about
// 720 MB in 51,000 files. Each repository is fetched once (one commit, no history) into
// <corpus>/.git-sources, or read from a local clone named by CONGRESS_BILLS_GIT and
// USA_LEGISLATION_GIT. Only the files below are read out of them (git cat-file), so a clone
// that lacks some other large file still serves.
//
//   node scripts/make-corpus.mjs [corpus folder]
//
// billstatus-116/<type>/<bill>/fdsys_billstatus.xml   16,522 files, 380 MB
//   GovInfo BILLSTATUS XML (pre-2022 schema) of every bill and resolution of the 116th Congress
//   (2019-2021), as downloaded by the unitedstates/congress scraper. Public domain (US federal
//   government work, 17 U.S.C. 105).
//   https://github.com/d-schwabe/congress-bills-data  commit 2f6b00691996d865c62e750053f4e715dac15867
//   path congress/data/116/bills/<type>/<bill>/fdsys_billstatus.xml
// congress-json-116/<type>/<bill>/data.json            16,505 files, 127 MB
//   The unitedstates/congress scraper's data.json of the same bills (CC0 scraper, public-domain
//   data); same repository, commit and folder.
// openstates-us-119/<bill>/metadata.json               18,411 files, 103 MB
//   Open States scraper output for every bill of the US 119th Congress, as govbot publishes it.
//   The repository has no licence file; Open States gives its data under a public domain
//   dedication and the facts are from US government works.
//   https://github.com/govbot-data/usa-legislation  commit c192e95f502505d0493253365f309ceb073fe752
//   path country:us/state:usa/sessions/119/bills/<bill>/metadata.json
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = resolve(process.argv[2] ?? join(here, '../../corpus'));

const SOURCES = [
  {
    name: 'congress-bills-data',
    url: 'https://github.com/d-schwabe/congress-bills-data',
    commit: '2f6b00691996d865c62e750053f4e715dac15867',
    local: process.env.CONGRESS_BILLS_GIT,
    prefix: 'congress/data/116/bills/',
    folders: [
      { folder: 'billstatus-116', file: 'fdsys_billstatus.xml' },
      { folder: 'congress-json-116', file: 'data.json' },
    ],
  },
  {
    name: 'usa-legislation',
    url: 'https://github.com/govbot-data/usa-legislation',
    commit: 'c192e95f502505d0493253365f309ceb073fe752',
    local: process.env.USA_LEGISLATION_GIT,
    prefix: 'country:us/state:usa/sessions/119/bills/',
    folders: [{ folder: 'openstates-us-119', file: 'metadata.json' }],
  },
];

function gitDir(source) {
  if (source.local) return source.local;
  const dir = join(corpus, '.git-sources', source.name);
  const has = () => {
    try {
      execFileSync('git', ['--git-dir', dir, 'cat-file', '-e', `${source.commit}^{commit}`]);
      return true;
    } catch {
      return false;
    }
  };
  if (!existsSync(dir) || !has()) {
    mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q', '--bare', dir]);
    process.stderr.write(`fetching ${source.url} at ${source.commit}\n`);
    execFileSync(
      'git',
      ['--git-dir', dir, 'fetch', '-q', '--depth', '1', source.url, source.commit],
      {
        stdio: 'inherit',
      },
    );
  }
  return dir;
}

/** Writes each blob named in `wanted` (object id → path) with one `git cat-file --batch`. */
function writeBlobs(dir, wanted) {
  return new Promise((done, fail) => {
    const child = spawn('git', ['--git-dir', dir, 'cat-file', '--batch'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const ids = [...wanted.keys()];
    let buffer = Buffer.alloc(0);
    let index = 0;
    child.stdout.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const newline = buffer.indexOf(10);
        if (newline === -1) return;
        const [id, , size] = buffer.subarray(0, newline).toString().split(' ');
        const length = Number(size);
        if (buffer.length < newline + 1 + length + 1) return;
        for (const path of wanted.get(id) ?? []) {
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, buffer.subarray(newline + 1, newline + 1 + length));
        }
        buffer = buffer.subarray(newline + 1 + length + 1);
        index++;
      }
    });
    child.on('close', (code) =>
      code === 0 && index === ids.length ? done() : fail(new Error(`git cat-file: ${code}`)),
    );
    child.stdin.end(ids.join('\n') + '\n');
  });
}

for (const source of SOURCES) {
  const dir = gitDir(source);
  const listing = execFileSync(
    'git',
    ['--git-dir', dir, 'ls-tree', '-r', '-z', source.commit, source.prefix],
    { maxBuffer: 1 << 30 },
  ).toString();
  for (const { folder, file } of source.folders) {
    const target = join(corpus, folder);
    rmSync(target, { recursive: true, force: true });
    const wanted = new Map();
    for (const entry of listing.split('\0')) {
      const [meta, path] = entry.split('\t');
      if (path === undefined || !path.endsWith(`/${file}`)) continue;
      const id = meta.split(' ')[2];
      const paths = wanted.get(id) ?? [];
      paths.push(join(target, path.slice(source.prefix.length)));
      wanted.set(id, paths);
    }
    await writeBlobs(dir, wanted);
    const count = [...wanted.values()].reduce((sum, paths) => sum + paths.length, 0);
    process.stdout.write(`${target}: ${count} files from ${source.url} at ${source.commit}\n`);
  }
}

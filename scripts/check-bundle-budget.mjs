// `npm run check:budget` (after `npm run build`): the script a first visit must fetch before its
// first paint, compressed with brotli as the server sends it, against the budgets of issue 19. It
// follows the built files themselves: index.html's entry and module preloads for /login, plus
// the home tab's screen chunk and every chunk it imports statically for /tabs/bills.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const dist = process.argv[2] ?? 'packages/app/dist';
const assets = join(dist, 'assets');

/** Budgets in bytes of brotli: /login's is issue 19's goal; /tabs/bills's is kept near its size. */
const BUDGETS = { '/login': 170_000, '/tabs/bills': 245_000 };

const brotliSize = (file) =>
  brotliCompressSync(readFileSync(join(dist, file)), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;

/** The chunks a chunk imports statically (`import … from "./x.js"`, `import "./x.js"`). */
function staticImports(file) {
  const code = readFileSync(join(dist, file), 'utf8');
  const found = new Set();
  for (const match of code.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) {
    found.add(`assets/${match[1]}`);
  }
  return found;
}

function closure(files) {
  const seen = new Set();
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    if (file.endsWith('.js')) queue.push(...staticImports(file));
  }
  return seen;
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const firstPaint = closure(
  [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]),
);
const homeScreen = readdirSync(assets).find(
  (name) => name.startsWith('swipeable-bills-screen-') && name.endsWith('.js'),
);
if (homeScreen === undefined)
  throw new Error('No chunk for the home tab (swipeable-bills-screen).');
const home = closure([...firstPaint, `assets/${homeScreen}`]);

let failed = false;
for (const [route, files] of [
  ['/login', firstPaint],
  ['/tabs/bills', home],
]) {
  const bytes = [...files].reduce((sum, file) => sum + brotliSize(file), 0);
  const budget = BUDGETS[route];
  const verdict = bytes <= budget ? 'within' : 'OVER';
  if (bytes > budget) failed = true;
  console.log(
    `${route}: ${(bytes / 1000).toFixed(1)} KB brotli in ${files.size} files, ${verdict} the budget of ${budget / 1000} KB`,
  );
}
if (failed) {
  console.error('A first screen needs more script than its budget. Split it (see ARCHITECTURE).');
  process.exit(1);
}

import MiniSearch from 'minisearch';
import { BillSearchIndex, billTokens, searchTokens } from '@docket/core/lists';
import type { StoredBill } from '@docket/core/store';
import { generateBills, queries, random } from './search-bench-bills.ts';

// Issue 16: is core's hand-written search index (lists/bill-search-index.ts) worth keeping next
// to a well-kept library? One run, the same 50,000 generated bills and the same queries as
// search.bench.web.ts, through core's BillSearchIndex and through MiniSearch configured to
// answer the same question (every word, the last one also as a prefix, the same folded
// tokens). It prints build time, heap, query latency and the quality of the answers against
// the definition the list promises, plus typing mistakes, which only MiniSearch's fuzzy search
// can forgive. Run: `npx tsx --expose-gc bench/search-library-bench.ts`.

const BILLS = Number(process.env.BENCH_BILLS ?? 50_000);
const QUERIES = 200;
const TYPOS = 40;

interface Indexed {
  id: number;
  identifier: string;
  title: string;
  summary: string;
  subjects: string;
  people: string;
  actions: string;
}

function documentOf(bill: StoredBill, id: number): Indexed {
  return {
    id,
    identifier: `${bill.identifier} ${bill.type} ${bill.type}${bill.number}`,
    title: bill.title,
    summary: bill.summary ?? '',
    subjects: bill.subjects.join('\n'),
    people: [...bill.sponsors, ...bill.cosponsors].map((sponsor) => sponsor.name).join('\n'),
    actions: bill.actions.map((action) => action.text).join('\n'),
  };
}

const collect = (): void => (globalThis as { gc?: () => void }).gc?.();
const heapMb = (): number => {
  collect();
  return process.memoryUsage().heapUsed / 1e6;
};

function stats(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), p95: at(0.95) };
}

/** A word of the bill's summary with one letter changed: a typing mistake a reader makes. */
function typos(bills: readonly StoredBill[]): { query: string; doc: number }[] {
  const next = random(11);
  const list: { query: string; doc: number }[] = [];
  while (list.length < TYPOS) {
    const doc = Math.floor(next() * bills.length);
    const words = (bills[doc]?.summary ?? '').match(/[a-z]{7,}/g) ?? [];
    const word = words[Math.floor(next() * words.length)];
    if (word === undefined) continue;
    const at = 1 + Math.floor(next() * (word.length - 2));
    const letter = word[at] === 'e' ? 'a' : 'e';
    // The marker word makes the bill the only right answer, the mistake makes it hard.
    list.push({
      query: `${word.slice(0, at)}${letter}${word.slice(at + 1)} marker${doc + 1}`,
      doc,
    });
  }
  return list;
}

const bills = generateBills(BILLS);
const asked = queries(bills, QUERIES);
const tokens = bills.map((bill) => billTokens(bill));
const vocabulary = new Set(tokens.flatMap((set) => [...set]));

/** What the list promises: every word of the query is a word of the bill, the last also as a
 *  prefix (the word being typed). Computed by brute force over each bill's tokens. */
function expected(query: string): Set<number> {
  const words = [...new Set(searchTokens(query))];
  const last = words.length - 1;
  const typed = words[last] ?? '';
  const completions =
    typed.length < 2 ? [] : [...vocabulary].filter((token) => token.startsWith(typed));
  const found = new Set<number>();
  tokens.forEach((set, doc) => {
    const all = words.every(
      (word, index) =>
        set.has(word) || (index === last && completions.some((token) => set.has(token))),
    );
    if (all) found.add(doc);
  });
  return found;
}

let before = heapMb();
let started = performance.now();
const ours = new BillSearchIndex();
bills.forEach((bill, doc) => {
  ours.add(doc, bill);
});
const oursBuildMs = performance.now() - started;
const oursHeap = heapMb() - before;

before = heapMb();
started = performance.now();
const mini = new MiniSearch<Indexed>({
  fields: ['identifier', 'title', 'summary', 'subjects', 'people', 'actions'],
  tokenize: searchTokens,
  processTerm: (term) => term,
  searchOptions: { combineWith: 'AND', boost: { identifier: 4, title: 2 } },
});
mini.addAll(bills.map(documentOf));
const miniBuildMs = performance.now() - started;
const miniHeap = heapMb() - before;

console.log(
  `built: core ${oursBuildMs.toFixed(0)} ms ${oursHeap.toFixed(0)} MB, ` +
    `MiniSearch ${miniBuildMs.toFixed(0)} ms ${miniHeap.toFixed(0)} MB`,
);

const lastAsPrefix = (_term: string, index: number, terms: string[]) => index === terms.length - 1;
const oursTimes: number[] = [];
const miniTimes: number[] = [];
let oursRight = 0;
let miniRight = 0;
let oursFound = 0;
let miniFound = 0;
for (const query of asked) {
  let t = performance.now();
  const oursDocs = ours.search(query) ?? [];
  oursTimes.push(performance.now() - t);
  t = performance.now();
  const miniDocs = mini.search(query, { prefix: lastAsPrefix }).map((hit) => hit.id as number);
  miniTimes.push(performance.now() - t);
  const truth = expected(query);
  const same = (docs: readonly number[]) =>
    docs.length === truth.size && docs.every((doc) => truth.has(doc));
  // An identifier query is answered by that bill alone when some bill has it (the list's rule).
  const identifier = /^hr \d+$/.test(query);
  const named = identifier ? bills.findIndex((bill) => `hr ${bill.number}` === query) : -1;
  if (identifier) {
    if (oursDocs.length === 1 && oursDocs[0] === named) oursRight++;
    if (miniDocs[0] === named) miniRight++;
  } else {
    if (same(oursDocs)) oursRight++;
    if (same(miniDocs)) miniRight++;
  }
  oursFound += oursDocs.length;
  miniFound += miniDocs.length;
}

console.log(`queried: core right ${oursRight}, MiniSearch right ${miniRight}`);

let oursTypos = 0;
let miniTypos = 0;
let miniTypoFirst = 0;
const miniFuzzyTimes: number[] = [];
for (const { query, doc } of typos(bills)) {
  if ((ours.search(`${query} `) ?? []).includes(doc)) oursTypos++;
  const t = performance.now();
  const hits = mini.search(query, { fuzzy: 0.2, prefix: lastAsPrefix });
  miniFuzzyTimes.push(performance.now() - t);
  if (hits.some((hit) => hit.id === doc)) miniTypos++;
  if (hits[0]?.id === doc) miniTypoFirst++;
}

const o = stats(oursTimes);
const m = stats(miniTimes);
const f = stats(miniFuzzyTimes);
const ms = (value: number) => `${value.toFixed(2).padStart(9)} ms`;
console.log(
  [
    `Search index against MiniSearch 7.2: ${BILLS.toLocaleString('en-US')} generated bills, ` +
      `${QUERIES} queries (100 words, 40 word pairs, 40 four-letter prefixes, 20 identifiers), ` +
      `${TYPOS} with a typing mistake; Node ${process.version}`,
    '',
    '                        build       heap     query median   query p95   right answers',
    `  core's index    ${ms(oursBuildMs)} ${oursHeap.toFixed(0).padStart(6)} MB ${ms(o.median)} ${ms(o.p95)}   ${oursRight}/${QUERIES}`,
    `  MiniSearch      ${ms(miniBuildMs)} ${miniHeap.toFixed(0).padStart(6)} MB ${ms(m.median)} ${ms(m.p95)}   ${miniRight}/${QUERIES}`,
    `  MiniSearch / core: build ${(miniBuildMs / oursBuildMs).toFixed(1)}×, p95 ${(m.p95 / Math.max(o.p95, 1e-6)).toFixed(1)}×, heap ${(miniHeap / Math.max(oursHeap, 1e-6)).toFixed(1)}×`,
    `  documents found in all: core ${oursFound.toLocaleString('en-US')}, MiniSearch ${miniFound.toLocaleString('en-US')}`,
    '',
    `Typing mistakes (one letter changed in a word of 7+ letters, plus the bill's marker word):`,
    `  core's index: right bill found ${oursTypos}/${TYPOS} (it has no fuzzy matching)`,
    `  MiniSearch fuzzy 0.2: right bill found ${miniTypos}/${TYPOS}, first ${miniTypoFirst}/${TYPOS}; ` +
      `median ${f.median.toFixed(2)} ms, p95 ${f.p95.toFixed(2)} ms`,
  ].join('\n'),
);

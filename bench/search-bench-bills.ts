import type { StoredBill } from '@docket/core/store';

// The search benchmarks' input: the same 50,000 generated bills of real English words and the
// same queries in every run (a seeded generator), for search.bench.web.ts in Chromium and
// search-library-bench.ts in Node.

const VOCABULARY = (
  'act amend appropriations agriculture authority authorize budget border child climate coast ' +
  'commerce committee community congress conservation consumer court credit crime cyber defense ' +
  'disaster disclosure drug economic education election emergency employment energy enforcement ' +
  'environment equity export family farm federal finance fire fishery food foreign forest fraud ' +
  'fund grant guard health highway homeland housing immigration income indian infrastructure ' +
  'insurance intelligence interior investment justice labor land law lending loan medicaid ' +
  'medicare military mining national natural nuclear ocean office oversight park patent pension ' +
  'pharmaceutical police pollution postal poverty prescription prison privacy program property ' +
  'protection public railroad reform refugee regulation relief renewable research reserve ' +
  'retirement rural safety sanctions school science security senior service small social ' +
  'spectrum state student subsidy surveillance tariff tax technology telecommunications ' +
  'terrorism trade training transit transparency transportation treasury tribal veterans ' +
  'violence voting wage water welfare wildlife workforce youth accountability acquisition ' +
  'broadband cannabis childcare copyright drought earthquake firearms flood hospital hurricane ' +
  'opioid pandemic semiconductor shipbuilding smithsonian vaccine wildfire airport aviation ' +
  'bridge canal dam harbor levee pipeline reservoir tunnel ratification resolution amendment'
).split(' ');
const SURNAMES = (
  'Adams Baker Carter Diaz Evans Flores Garcia Harris Ito Jones Kim Lopez Miller Nguyen Ortiz ' +
  'Patel Quinn Rivera Smith Taylor Usman Vargas Walker Xu Young Zhang Murkowski Cardin Warren'
).split(' ');
const ACTIONS = [
  'Introduced in House',
  'Referred to the Committee on Ways and Means',
  'Subcommittee hearings held',
  'Ordered to be reported in the nature of a substitute',
  'Passed House by recorded vote',
  'Received in the Senate and read twice',
  'Placed on Senate Legislative Calendar under General Orders',
  'Presented to President',
];
const STATUSES = ['introduced', 'in-committee', 'passed-one-chamber', 'enacted'] as const;

/** A small fast generator, so every run makes the same bills. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Zipf-like: common words are common, rare ones rare, as in real bill text.
function wordPicker(next: () => number): () => string {
  return () => VOCABULARY[Math.floor(VOCABULARY.length * next() ** 2)] ?? 'act';
}

function day(offset: number): string {
  return new Date(Date.UTC(2019, 0, 3) + offset * 86_400_000).toISOString().slice(0, 10);
}

export function generateBills(count: number): StoredBill[] {
  const next = random(42);
  const word = wordPicker(next);
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  return Array.from({ length: count }, (_, index) => {
    const number = index + 1;
    const start = Math.floor(next() * 600);
    const actions = ACTIONS.slice(0, 1 + Math.floor(next() * ACTIONS.length)).map((text, i) => ({
      date: day(start + i * 9),
      text: `${text} ${words(3)}`,
      chamber: 'lower' as const,
    }));
    const surname = SURNAMES[Math.floor(next() * SURNAMES.length)] ?? 'Smith';
    return {
      id: `us/116/hr-${number}`,
      source: 'docket-csv',
      sourceId: null,
      jurisdiction: 'us',
      session: '116',
      type: 'hr',
      number: String(number),
      identifier: `H.R. ${number}`,
      title: `To ${words(10 + Math.floor(next() * 10))}, and for other purposes.`,
      summary: `${words(60 + Math.floor(next() * 120))}. Marker${number}.`,
      introducedDate: day(start),
      status: STATUSES[Math.floor(next() * STATUSES.length)] ?? 'introduced',
      rawStatus: null,
      statusDate: actions[actions.length - 1]?.date ?? null,
      sponsors: [{ name: `Rep. ${surname}, Pat`, role: 'primary', party: 'D', externalId: null }],
      cosponsors: [],
      subjects: [words(1), words(2), words(2)],
      actions,
      texts: [],
      votes: [],
      url: null,
      changeHash: number.toString(16).padStart(16, '0'),
      datasetIds: ['bench'],
    } satisfies StoredBill;
  });
}

/** What a naive list would search: every searchable field, lower-cased, joined. */
export function haystack(bill: StoredBill): string {
  return [
    bill.identifier,
    bill.title,
    bill.summary ?? '',
    ...bill.subjects,
    ...bill.sponsors.map((sponsor) => sponsor.name),
    ...bill.actions.map((action) => action.text),
  ]
    .join('\n')
    .toLowerCase();
}

export function queries(bills: readonly StoredBill[], count: number): string[] {
  const next = random(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const wordsOf = (bill: StoredBill) =>
    (bill.summary ?? '').toLowerCase().match(/[a-z]+/g) ?? ['act'];
  const list: string[] = [];
  while (list.length < count) {
    const bill = pick(bills);
    const kind = list.length % 10;
    if (kind < 5) list.push(pick(wordsOf(bill)));
    else if (kind < 7) list.push(`${pick(wordsOf(bill))} ${pick(wordsOf(bill))}`);
    else if (kind < 9) list.push(pick(wordsOf(bill)).slice(0, 4));
    else list.push(`hr ${bill.number}`);
  }
  return list;
}

import type { ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { legiscanKeyId, LEGISCAN_QUERIES_SETTING, queryMonth } from '@docket/core/sources';
import type { Page } from '@playwright/test';
import { seriousViolations } from './pages/accessibility.ts';
import { expect, test } from './fixtures.ts';
import { AddDatasetPage, DatasetsPage, fixturesRoot, JobsPage } from './pages/dataset-pages.ts';
import { DeckPage } from './pages/deck-page.ts';
import { signUpAt } from './pages/login-page.ts';
import { sendJson, SourceSimulatorServer, type SimulatedRequest } from './source-simulator.ts';

// A dataset from LegiScan's API, end to end: a simulator of LegiScan's API (a small HTTP server
// started here) answers getDatasetList and getDataset as LegiScan's manual says, its dataset a
// real LegiScan dataset ZIP built from ../shared/fixtures/legiscan, base64 in the JSON. The
// browser's requests to https://api.legiscan.com/ are handed to it (Playwright's routing, which
// also sees the import worker's requests). The user saves a key under Settings, adds the dataset
// by state and by picking the session from LegiScan's own list (getSessionList, newest first, in
// words), tracks two bills; a second snapshot (a new dataset_hash, a new action on
// every bill) refreshed lists them under What changed; nothing moved costs one query; a second
// snapshot of two bills alone is read with getBill for exactly those two, their new vote and
// new sponsor; the queries are counted in Settings, and a refresh that would go past the month's
// quota stops, saying so; a key LegiScan refuses, and no key at all, are said plainly, and the
// session ID is then typed by hand.

test.skip(fixturesRoot === null, '../shared/fixtures is absent');

const KEY = 'e2e0legiscan0key0d41d8cd98f00b204e98';
const STATE = 'AK';
const SESSION_ID = 1843;
const BILLS = ['HB1', 'HB2', 'HB3'] as const;
const NEW_ACTION = 'Referred to the Committee on Finance';

interface LegiScanBill {
  bill: {
    bill_id: number;
    change_hash: string;
    history: { date: string; action: string; chamber: string; chamber_id: number }[];
    sponsors: { people_id: number; name: string; party: string; sponsor_type_id: number }[];
    votes: {
      roll_call_id: number;
      date: string;
      desc: string;
      yea: number;
      nay: number;
      nv: number;
      absent: number;
      total: number;
      passed: number;
      chamber: string;
      chamber_id: number;
    }[];
  };
}

function billFile(name: string): LegiScanBill {
  if (fixturesRoot === null) throw new Error('../shared/fixtures is absent');
  return JSON.parse(
    readFileSync(join(fixturesRoot, 'legiscan', 'bill', `${name}.json`), 'utf8'),
  ) as LegiScanBill;
}

/** The session's bills as LegiScan has them now, each edited by `edit`; an edited bill gets a
 *  new change_hash, as LegiScan gives one whenever a bill changes. */
function billsOf(edit: (bill: LegiScanBill, name: string) => void): Map<string, LegiScanBill> {
  const bills = new Map<string, LegiScanBill>();
  for (const name of BILLS) {
    const bill = billFile(name);
    const before = JSON.stringify(bill);
    edit(bill, name);
    if (JSON.stringify(bill) !== before) {
      bill.bill.change_hash = createHash('md5').update(JSON.stringify(bill)).digest('hex');
    }
    bills.set(name, bill);
  }
  return bills;
}

/** A LegiScan dataset ZIP: STATE/SESSION/bill/<file>.json, as LegiScan builds them. */
function datasetZip(bills: Map<string, LegiScanBill>): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, bill] of bills) {
    entries[`${STATE}/2011-2012_27th_Legislature/bill/${name}.json`] = strToU8(
      JSON.stringify(bill),
    );
  }
  return zipSync(entries);
}

/** LegiScan's sessions of STATE as getSessionList lists them: not newest first, one special
 *  session each Legislature, the dataset's session among them. */
const LEGISCAN_SESSIONS = [
  { id: SESSION_ID, start: 2011, end: 2012, special: 0, title: '2011-2012 Regular Session' },
  { id: 2150, start: 2024, end: 2024, special: 1, title: '2024 1st Special Session' },
  { id: 1790, start: 2011, end: 2011, special: 1, title: '2011 Special Session' },
  { id: 2100, start: 2023, end: 2024, special: 0, title: '2023-2024 Regular Session' },
].map((session) => ({
  session_id: session.id,
  state_id: 2,
  year_start: session.start,
  year_end: session.end,
  prefile: 0,
  sine_die: 0,
  prior: session.end < 2020 ? 1 : 0,
  special: session.special,
  session_tag: session.special === 1 ? 'Special Session' : 'Regular Session',
  session_title: session.title,
  session_name: session.id === SESSION_ID ? '27th Legislature' : session.title,
  dataset_hash: 'e2e0session0hash',
}));
/** How the form names them, newest first, after its "Pick a session". */
const LEGISCAN_SESSION_NAMES = [
  'Pick a session',
  '2024 1st Special Session',
  '2023–2024 Regular Session',
  '2011–2012 Regular Session',
  '2011 Special Session',
];
const SESSION_NAME = '2011–2012 Regular Session';

interface ApiRequest {
  op: string;
  /** The key was the valid one. */
  keyed: boolean;
  /** The id asked for, where the operation takes one (getBill, getRollCall, getPerson). */
  id?: number;
}

/** LegiScan's API as its manual describes it: one address, the operation in `op`. Its weekly
 *  dataset (getDatasetList, getDataset) and its live bills (getMasterListRaw, getBill,
 *  getRollCall, getPerson) change apart: `serve` rebuilds both, `serveBills` the bills alone. */
class LegiscanSimulator extends SourceSimulatorServer<ApiRequest> {
  private zip: Uint8Array = new Uint8Array();
  private hash = '';
  private bills = new Map<string, LegiScanBill>();
  readonly rollCalls = new Map<number, unknown>();
  readonly people = new Map<number, unknown>();

  serve(bills: Map<string, LegiScanBill>): void {
    this.serveBills(bills);
    this.zip = datasetZip(bills);
    this.hash = createHash('md5').update(this.zip).digest('hex');
  }

  serveBills(bills: Map<string, LegiScanBill>): void {
    this.bills = bills;
  }

  private billById(id: number): LegiScanBill | undefined {
    return [...this.bills.values()].find((bill) => bill.bill.bill_id === id);
  }

  private answerOf(params: URLSearchParams): unknown {
    if (params.get('key') !== KEY) {
      return { status: 'ERROR', alert: { message: 'Invalid API key' } };
    }
    const dataset = {
      state_id: 2,
      session_id: SESSION_ID,
      session_name: '27th Legislature',
      dataset_hash: this.hash,
      dataset_date: '2012-06-03',
      dataset_size: this.zip.length,
    };
    const id = Number(params.get('id'));
    switch (params.get('op')) {
      case 'getSessionList':
        return {
          status: 'OK',
          sessions: params.get('state') === STATE ? LEGISCAN_SESSIONS : [],
        };
      case 'getDatasetList':
        if (params.get('state') !== STATE) return { status: 'OK', datasetlist: [] };
        return {
          status: 'OK',
          datasetlist: [
            {
              ...dataset,
              special: 0,
              year_start: 2011,
              year_end: 2012,
              session_title: '27th Legislature',
              access_key: 'accesskey1843',
            },
          ],
        };
      case 'getDataset':
        if (
          params.get('id') !== String(SESSION_ID) ||
          params.get('access_key') !== 'accesskey1843'
        ) {
          return { status: 'ERROR', alert: { message: 'Invalid access key' } };
        }
        return {
          status: 'OK',
          dataset: {
            ...dataset,
            mime_type: 'application/zip',
            zip: Buffer.from(this.zip).toString('base64'),
          },
        };
      case 'getMasterListRaw': {
        if (id !== SESSION_ID) return { status: 'ERROR', alert: { message: 'Unknown session' } };
        const masterlist: Record<string, unknown> = {
          session: { session_id: SESSION_ID, session_name: '27th Legislature' },
        };
        [...this.bills].forEach(([name, bill], index) => {
          masterlist[String(index)] = {
            bill_id: bill.bill.bill_id,
            number: name,
            change_hash: bill.bill.change_hash,
          };
        });
        return { status: 'OK', masterlist };
      }
      case 'getBill': {
        const bill = this.billById(id);
        return bill === undefined
          ? { status: 'ERROR', alert: { message: 'Unknown bill id' } }
          : { status: 'OK', ...bill };
      }
      case 'getRollCall': {
        const rollCall = this.rollCalls.get(id);
        return rollCall === undefined
          ? { status: 'ERROR', alert: { message: 'Unknown roll call id' } }
          : { status: 'OK', roll_call: rollCall };
      }
      case 'getPerson': {
        const person = this.people.get(id);
        return person === undefined
          ? { status: 'ERROR', alert: { message: 'Unknown person id' } }
          : { status: 'OK', person };
      }
      default:
        return { status: 'ERROR', alert: { message: 'Unknown operation' } };
    }
  }

  protected answer(request: SimulatedRequest, response: ServerResponse): ApiRequest {
    const params = request.url.searchParams;
    response.setHeader('access-control-allow-origin', '*');
    sendJson(response, this.answerOf(params));
    const op = params.get('op') ?? '';
    return {
      op,
      keyed: params.get('key') === KEY,
      ...(['getBill', 'getRollCall', 'getPerson'].includes(op)
        ? { id: Number(params.get('id')) }
        : {}),
    };
  }
}

/**
 * Sets this device's count of LegiScan queries this month for `key`, as if it had sent that many
 * (the `device:legiscan-queries` setting in the app's IndexedDB). The app seals its settings under
 * the account's vault; the count is written in clear, as a row from before the vault, which the
 * app reads as it is (core's sealed-rows.ts) and seals when it next writes it.
 */
async function setLegiscanQueries(page: Page, key: string, used: number): Promise<void> {
  const row = {
    key: LEGISCAN_QUERIES_SETTING,
    value: { month: queryMonth(new Date().toISOString()), counts: { [legiscanKeyId(key)]: used } },
  };
  await page.evaluate(
    (setting) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(localStorage.getItem('docket.database') ?? 'docket');
        open.onerror = () => {
          reject(new Error(String(open.error)));
        };
        open.onsuccess = () => {
          const db = open.result;
          const write = db
            .transaction('settings', 'readwrite')
            .objectStore('settings')
            .put(setting);
          write.onsuccess = () => {
            db.close();
            resolve();
          };
          write.onerror = () => {
            reject(new Error(String(write.error)));
          };
        };
      }),
    row,
  );
}

async function saveLegiscanKey(page: Page, key: string): Promise<void> {
  await page.goto('/tabs/more');
  const field = page.getByLabel('LegiScan API key', { exact: true });
  await expect(field).toBeVisible({ timeout: 15_000 });
  // Masked as it is typed.
  await expect(field).toHaveAttribute('type', 'password');
  await field.fill(key);
  await page.getByRole('button', { name: /^(Save|Replace) LegiScan API key$/ }).click();
  await expect(page.getByText(`Saved: ••••${key.slice(-4)}.`)).toBeVisible();
  await expect(field).toHaveValue('');
}

/** Adds STATE's session SESSION_ID: picked from LegiScan's list by its name, or, where there
 *  is no list (no key saved), its ID typed by hand. */
async function addLegiscanDataset(
  page: Page,
  name: string,
  session: 'picked' | 'typed' = 'picked',
): Promise<void> {
  await page.goto('/add-dataset');
  const form = new AddDatasetPage(page);
  await form.waitForForm();
  await form.name().fill(name);
  await page.getByRole('radio', { name: 'LegiScan API' }).check();
  await page.getByLabel('State', { exact: true }).fill(STATE);
  if (session === 'typed') {
    await page.getByLabel('LegiScan session ID', { exact: true }).fill(String(SESSION_ID));
  } else {
    expect(await form.sessionNames()).toEqual(LEGISCAN_SESSION_NAMES);
    await form.pickSession(SESSION_NAME);
  }
  await form.importAndOpenJobs();
}

test('a LegiScan API dataset imports with the saved key, refreshes into What changed, and nothing moved costs one query', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const simulator = new LegiscanSimulator();
  simulator.serve(billsOf(() => undefined));
  await simulator.route(context, 'https://api.legiscan.com', await simulator.start());
  try {
    await signUpAt(page, '/tabs/more');
    await saveLegiscanKey(page, KEY);
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/add-dataset');
    await new AddDatasetPage(page).waitForForm();
    await page.getByRole('radio', { name: 'LegiScan API' }).check();
    await expect(
      page.getByText('Uses your LegiScan API key from Settings on the More tab.'),
    ).toBeVisible();
    // No state yet: nothing is asked, and the form says what it waits for.
    await expect(page.getByText('Enter the state to see its sessions.')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    expect(simulator.requests).toEqual([]);

    // The state typed, LegiScan's sessions are listed newest first, in words; the dataset's
    // session is picked by its name, and stored as LegiScan's session_id.
    await page.getByLabel('State', { exact: true }).fill(STATE);
    const form = new AddDatasetPage(page);
    expect(await form.sessionNames()).toEqual(LEGISCAN_SESSION_NAMES);
    await expect(
      page.getByRole('status').filter({ hasText: `LegiScan lists 4 sessions for ${STATE}` }),
    ).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    expect(simulator.requests).toEqual([{ op: 'getSessionList', keyed: true }]);
    await addLegiscanDataset(page, 'Alaska from LegiScan');
    await new JobsPage(page).expectStatus('Alaska from LegiScan', 'Done');
    expect(simulator.requests).toEqual([
      { op: 'getSessionList', keyed: true },
      { op: 'getSessionList', keyed: true },
      { op: 'getDatasetList', keyed: true },
      { op: 'getDataset', keyed: true },
    ]);

    const datasets = new DatasetsPage(page);
    await page.goto('/tabs/datasets');
    const row = datasets.dataset('Alaska from LegiScan');
    await expect(row).toContainText(`LegiScan API: ${STATE}, session ${SESSION_ID}`);
    await expect(row).toContainText('3 bills');

    // Track the first two bills of the deck; the third is dismissed.
    const deck = new DeckPage(page);
    await deck.open();
    const tracked: string[] = [];
    for (const decision of ['Track', 'Track', 'Dismiss'] as const) {
      const heading = deck.card().getByRole('heading', { level: 2 });
      await expect(heading).toBeVisible({ timeout: 30_000 });
      const identifier = (await heading.textContent())?.trim() ?? '';
      if (decision === 'Track') tracked.push(identifier);
      await deck.decide(decision, identifier);
    }

    // LegiScan rebuilt the dataset: a new hash, a new action on every bill.
    simulator.serve(
      billsOf((bill) => {
        bill.bill.history.push({
          date: '2011-05-02',
          action: NEW_ACTION,
          chamber: 'H',
          chamber_id: 1,
        });
      }),
    );
    await page.goto('/tabs/datasets');
    await row.getByRole('button', { name: 'Refresh Alaska from LegiScan' }).click();
    await expect(row).toContainText('3 bills with news', { timeout: 60_000 });
    // Every bill's change_hash moved: more getBill queries than the dataset's two, and the
    // dataset is a new build, so the dataset is read.
    expect(simulator.requests.slice(4)).toEqual([
      { op: 'getMasterListRaw', keyed: true },
      { op: 'getDatasetList', keyed: true },
      { op: 'getDataset', keyed: true },
    ]);

    const trackedTab = page.getByRole('tab', { name: /Tracked/ });
    await expect(trackedTab).toHaveAccessibleName(/^Tracked\s+2 bills with unseen changes$/);
    await trackedTab.click();
    await page
      .getByRole('group', { name: 'Show' })
      .getByRole('button', { name: 'What changed' })
      .click();
    const changed = page.getByRole('list', { name: 'Changed bills' });
    const cards = changed.locator(':scope > li');
    await expect(cards).toHaveCount(2);
    const headings = (await cards.getByRole('heading', { level: 3 }).allTextContents()).map(
      (text) => text.trim(),
    );
    expect(headings.sort()).toEqual([...tracked].sort());
    for (const card of await cards.all()) {
      await expect(card).toContainText(`New action: ${NEW_ACTION}`);
    }

    // Nothing new: no bill's change_hash moved, so one query and no download.
    await page.goto('/tabs/datasets');
    await row.getByRole('button', { name: 'Refresh Alaska from LegiScan' }).click();
    await expect(row).toContainText('No changes', { timeout: 60_000 });
    expect(simulator.requests.slice(7)).toEqual([{ op: 'getMasterListRaw', keyed: true }]);
  } finally {
    await simulator.stop();
  }
});

test('a LegiScan refresh reads only the two bills whose change_hash moved, their new vote and new sponsor; Settings counts the queries, and a refresh past the quota stops in words', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const simulator = new LegiscanSimulator();
  simulator.serve(billsOf(() => undefined));
  await simulator.route(context, 'https://api.legiscan.com', await simulator.start());
  try {
    await signUpAt(page, '/tabs/more');
    await saveLegiscanKey(page, KEY);
    await expect(page.getByText('LegiScan queries this month: 0 of 30,000')).toBeVisible();
    await addLegiscanDataset(page, 'Alaska bill by bill');
    await new JobsPage(page).expectStatus('Alaska bill by bill', 'Done');
    expect(simulator.requests.map((request) => request.op)).toEqual([
      'getSessionList',
      'getDatasetList',
      'getDataset',
    ]);

    // Every bill of the deck tracked.
    const deck = new DeckPage(page);
    await deck.open();
    const tracked: string[] = [];
    for (let card = 0; card < BILLS.length; card++) {
      const heading = deck.card().getByRole('heading', { level: 2 });
      await expect(heading).toBeVisible({ timeout: 30_000 });
      const identifier = (await heading.textContent())?.trim() ?? '';
      tracked.push(identifier);
      await deck.decide('Track', identifier);
    }

    // LegiScan's bills move, its weekly dataset does not: HB1 gets a new action and a new vote,
    // HB2 a new action and a sponsor Docket has not seen.
    const newVote = 'House Finance Committee: Do Pass';
    const hb1 = billFile('HB1').bill.bill_id;
    const hb2 = billFile('HB2').bill.bill_id;
    simulator.rollCalls.set(990001, {
      roll_call_id: 990001,
      bill_id: hb1,
      date: '2011-05-03',
      desc: newVote,
      yea: 7,
      nay: 2,
      nv: 0,
      absent: 0,
      total: 9,
      passed: 1,
      chamber: 'H',
      chamber_id: 1,
      votes: [{ people_id: 6033, vote_id: 1, vote_text: 'Yea' }],
    });
    simulator.people.set(99001, {
      people_id: 99001,
      person_hash: 'e2e00001',
      state_id: 2,
      party_id: '1',
      party: 'D',
      role_id: 1,
      role: 'Rep',
      name: 'Pat Newcomer',
      first_name: 'Pat',
      middle_name: '',
      last_name: 'Newcomer',
      suffix: '',
      nickname: '',
      district: 'HD-040',
      committee_sponsor: 0,
      committee_id: 0,
    });
    simulator.serveBills(
      billsOf((bill, name) => {
        if (name === 'HB3') return;
        bill.bill.history.push({
          date: '2011-05-02',
          action: NEW_ACTION,
          chamber: 'H',
          chamber_id: 1,
        });
        if (name === 'HB1') {
          bill.bill.votes.push({
            roll_call_id: 990001,
            date: '2011-05-03',
            desc: newVote,
            yea: 7,
            nay: 2,
            nv: 0,
            absent: 0,
            total: 9,
            passed: 1,
            chamber: 'H',
            chamber_id: 1,
          });
        } else {
          bill.bill.sponsors.push({
            people_id: 99001,
            name: 'Pat Newcomer',
            party: 'D',
            sponsor_type_id: 2,
          });
        }
      }),
    );
    const datasets = new DatasetsPage(page);
    await page.goto('/tabs/datasets');
    const row = datasets.dataset('Alaska bill by bill');
    await row.getByRole('button', { name: 'Refresh Alaska bill by bill' }).click();
    await expect(row).toContainText('2 bills with news', { timeout: 60_000 });
    // Two changed bills cost at least the dataset's two queries: the list is asked, but its
    // dataset_hash is the one read, so the two bills are read one by one.
    expect(simulator.requests.slice(3)).toEqual([
      { op: 'getMasterListRaw', keyed: true },
      { op: 'getDatasetList', keyed: true },
      { op: 'getBill', keyed: true, id: hb1 },
      { op: 'getRollCall', keyed: true, id: 990001 },
      { op: 'getBill', keyed: true, id: hb2 },
      { op: 'getPerson', keyed: true, id: 99001 },
    ]);
    await expect(row).toContainText('3 bills');

    const trackedTab = page.getByRole('tab', { name: /Tracked/ });
    await expect(trackedTab).toHaveAccessibleName(/^Tracked\s+2 bills with unseen changes$/);
    await trackedTab.click();
    await page
      .getByRole('group', { name: 'Show' })
      .getByRole('button', { name: 'What changed' })
      .click();
    const cards = page.getByRole('list', { name: 'Changed bills' }).locator(':scope > li');
    await expect(cards).toHaveCount(2);
    const headings = (await cards.getByRole('heading', { level: 3 }).allTextContents()).map(
      (text) => text.trim(),
    );
    expect(headings.sort()).toEqual(tracked.filter((identifier) => !/3$/.test(identifier)).sort());
    for (const card of await cards.all()) {
      await expect(card).toContainText(`New action: ${NEW_ACTION}`);
    }
    await expect(cards.filter({ hasText: `New vote: ${newVote} (passed)` })).toHaveCount(1);
    await expect(cards.filter({ hasText: 'Pat Newcomer' })).toHaveCount(1);

    // Nine queries this month: the list of sessions and the dataset's two, then the master
    // list, the list of datasets, two bills, a vote and a person.
    await page.goto('/tabs/more');
    await expect(page.getByText('LegiScan queries this month: 9 of 30,000')).toBeVisible({
      timeout: 15_000,
    });

    // The month's quota nearly spent (this device's count, as if it had sent them): a refresh
    // that finds a moved bill takes the last query for the master list and stops before getBill,
    // saying so, with the bills as they were.
    await setLegiscanQueries(page, KEY, 29_999);
    await page.goto('/tabs/more');
    await expect(page.getByText('LegiScan queries this month: 29,999 of 30,000')).toBeVisible({
      timeout: 15_000,
    });
    simulator.serveBills(
      billsOf((bill, name) => {
        if (name !== 'HB3') return;
        bill.bill.history.push({
          date: '2011-05-09',
          action: 'Too late',
          chamber: 'H',
          chamber_id: 1,
        });
      }),
    );
    const asked = simulator.requests.length;
    await page.goto('/tabs/datasets');
    await row.getByRole('button', { name: 'Refresh Alaska bill by bill' }).click();
    await expect(row).toContainText(
      'This refresh needs another LegiScan query, and this device has already sent 30,000 of the 30,000 a LegiScan key may send this month. Nothing was changed; refresh again next month.',
      { timeout: 60_000 },
    );
    expect(simulator.requests.slice(asked)).toEqual([{ op: 'getMasterListRaw', keyed: true }]);
    await expect(row).toContainText('3 bills');
    await page.goto('/tabs/more');
    await expect(
      page.getByText(
        'LegiScan queries this month: 30,000 of 30,000. Refreshes from LegiScan wait for next month.',
      ),
    ).toBeVisible({ timeout: 15_000 });
  } finally {
    await simulator.stop();
  }
});

test('without a key the session ID is typed and the dataset says to add a key; a key LegiScan refuses is said in its words, on the list of sessions too', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const simulator = new LegiscanSimulator();
  simulator.serve(billsOf(() => undefined));
  await simulator.route(context, 'https://api.legiscan.com', await simulator.start());
  try {
    await signUpAt(page, '/add-dataset');
    await new AddDatasetPage(page).waitForForm();
    await page.getByRole('radio', { name: 'LegiScan API' }).check();
    await expect(page.getByText('No LegiScan API key is saved yet')).toBeVisible();
    // No key, no list: the session ID is typed by hand.
    await expect(
      page.getByText(
        "With your LegiScan API key saved, the form lists LegiScan's sessions to pick from.",
      ),
    ).toBeVisible();
    await expect(page.getByLabel('LegiScan session ID', { exact: true })).toBeVisible();
    await addLegiscanDataset(page, 'Alaska without a key', 'typed');
    const datasets = new DatasetsPage(page);
    await page.goto('/tabs/datasets');
    const row = datasets.dataset('Alaska without a key');
    await expect(row).toContainText('Add your LegiScan API key in Settings', { timeout: 60_000 });
    expect(simulator.requests).toEqual([]);

    await saveLegiscanKey(page, 'not-the-right-key');
    await page.goto('/tabs/datasets');
    await row.getByRole('button', { name: 'Refresh Alaska without a key' }).click();
    await expect(row).toContainText('LegiScan refused the API key: Invalid API key', {
      timeout: 60_000,
    });
    expect(simulator.requests).toEqual([{ op: 'getDatasetList', keyed: false }]);
    // The key is nowhere on the screen, masked or not.
    await expect(page.locator('body')).not.toContainText('not-the-right-key');
    expect(await seriousViolations(page)).toEqual([]);

    // The list of sessions with that key: LegiScan's refusal, said with "Try again", which asks
    // once more; the session ID can be typed instead, and the field is where focus goes.
    await page.goto('/add-dataset');
    const form = new AddDatasetPage(page);
    await form.waitForForm();
    await page.getByRole('radio', { name: 'LegiScan API' }).check();
    await page.getByLabel('State', { exact: true }).fill(STATE);
    const refusal = page.getByRole('alert').filter({
      hasText:
        'LegiScan refused to list the sessions: Invalid API key. Check your LegiScan API key under Settings on the More tab.',
    });
    await expect(refusal).toBeVisible({ timeout: 15_000 });
    await expect(form.sessionList()).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Try again', exact: true }).click();
    await expect
      .poll(() => simulator.requests.filter((request) => request.op === 'getSessionList'))
      .toEqual([
        { op: 'getSessionList', keyed: false },
        { op: 'getSessionList', keyed: false },
      ]);
    await expect(refusal).toBeVisible();
    await page.getByRole('button', { name: 'Enter the session ID instead', exact: true }).click();
    const typed = page.getByLabel('LegiScan session ID', { exact: true });
    await expect(typed).toBeFocused();
    await typed.fill(String(SESSION_ID));
    await expect(typed).toHaveValue(String(SESSION_ID));
    await expect(page.locator('body')).not.toContainText('not-the-right-key');
  } finally {
    await simulator.stop();
  }
});

// Open States API v3: /bills of a jurisdiction's session, paged, the key in X-API-KEY. The
// simulator serves the bills of packages/core/test-samples/openstates/api-v3/bills-page.json (a
// real v3 page), two to a page, and only those updated since `updated_since` when it is asked.
const OPENSTATES_KEY = 'e2e-open-states-key-7f3a';

interface OpenStatesBill {
  identifier: string;
  updated_at: string | null;
  actions?: { description: string; date: string; classification: string[]; order: number }[];
}

interface OpenStatesRequest {
  page: number;
  since: string | null;
  keyed: boolean;
}

/** Ohio's legislative sessions as the jurisdiction's detail lists them (oldest first, as Open
 *  States does), a special session among them. */
const OHIO_SESSIONS = [
  ['133', '133rd General Assembly', 'primary', '2019-01-07', '2020-12-31'],
  ['134', '134th General Assembly', 'primary', '2021-01-04', '2022-12-31'],
  ['135', '135th General Assembly', 'primary', '2023-01-02', '2024-12-31'],
  ['135S1', '135th General Assembly, First Special Session', 'special', '2024-05-28', '2024-06-02'],
].map(([identifier, name, classification, start, end]) => ({
  identifier,
  name,
  classification,
  start_date: start,
  end_date: end,
}));
const OHIO_SESSION_NAMES = [
  'Pick a session',
  '135th General Assembly, First Special Session',
  '135th General Assembly',
  '134th General Assembly',
  '133rd General Assembly',
];

class OpenStatesSimulator extends SourceSimulatorServer<OpenStatesRequest> {
  bills: OpenStatesBill[];
  /** The requests for a jurisdiction's sessions, apart from the pages of bills. */
  readonly sessionLists: { path: string; keyed: boolean }[] = [];

  constructor() {
    super();
    const page = JSON.parse(
      readFileSync(
        join(
          import.meta.dirname,
          '../packages/core/test-samples/openstates/api-v3/bills-page.json',
        ),
        'utf8',
      ),
    ) as { results: OpenStatesBill[] };
    this.bills = page.results.map((bill) => ({ ...bill, updated_at: '2023-06-02T00:00:00+00:00' }));
  }

  protected answer(
    request: SimulatedRequest,
    response: ServerResponse,
  ): OpenStatesRequest | undefined {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'X-API-KEY');
    if (request.method === 'OPTIONS') {
      response.statusCode = 204;
      response.end();
      return undefined;
    }
    const params = request.url.searchParams;
    const keyed = request.headers['x-api-key'] === OPENSTATES_KEY;
    if (request.url.pathname.startsWith('/jurisdictions/')) {
      const path = decodeURIComponent(request.url.pathname);
      this.sessionLists.push({ path, keyed });
      if (!keyed) sendJson(response, { detail: 'Invalid API Key.' }, 401);
      else if (path !== '/jurisdictions/Ohio' || params.get('include') !== 'legislative_sessions') {
        sendJson(response, { detail: 'Not Found' }, 404);
      } else {
        sendJson(response, {
          id: 'ocd-jurisdiction/country:us/state:oh/government',
          name: 'Ohio',
          classification: 'state',
          legislative_sessions: OHIO_SESSIONS,
        });
      }
      return undefined;
    }
    const since = params.get('updated_since');
    const page = Number(params.get('page') ?? '1');
    if (!keyed) {
      sendJson(response, { detail: 'Invalid API Key.' }, 401);
      return { page, since, keyed };
    }
    const listed = this.bills.filter(
      (bill) =>
        since === null ||
        (bill.updated_at !== null && Date.parse(bill.updated_at) > Date.parse(since)),
    );
    const perPage = 2;
    const maxPage = Math.ceil(listed.length / perPage);
    sendJson(response, {
      results: listed.slice((page - 1) * perPage, page * perPage),
      pagination: { per_page: perPage, page, max_page: maxPage, total_items: listed.length },
    });
    return { page, since, keyed };
  }
}

test('an Open States API dataset reads every page, then a refresh only the bills updated since', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  const simulator = new OpenStatesSimulator();
  await simulator.route(context, 'https://v3.openstates.org', await simulator.start());
  try {
    await signUpAt(page, '/tabs/more');
    const field = page.getByLabel('Open States API key', { exact: true });
    // Settings paints after the More tab's first sections; a first sync may be under way.
    await expect(field).toHaveAttribute('type', 'password', { timeout: 15_000 });
    await field.fill(OPENSTATES_KEY);
    await page.getByRole('button', { name: 'Save Open States API key' }).click();
    await expect(page.getByText(`Saved: ••••${OPENSTATES_KEY.slice(-4)}.`)).toBeVisible();

    await page.goto('/add-dataset');
    const form = new AddDatasetPage(page);
    await form.waitForForm();
    await form.name().fill('Ohio from Open States');
    await page.getByRole('radio', { name: 'Open States API' }).check();
    await page.getByLabel('Open States jurisdiction', { exact: true }).fill('Ohio');
    // Ohio's sessions from Open States, newest first, the special one named so; 135 picked by
    // its name.
    expect(await form.sessionNames()).toEqual(OHIO_SESSION_NAMES);
    await form.pickSession('135th General Assembly');
    expect(simulator.sessionLists).toEqual([{ path: '/jurisdictions/Ohio', keyed: true }]);
    await expect(
      page.getByText('Uses your Open States API key from Settings on the More tab.'),
    ).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await form.importAndOpenJobs();
    await new JobsPage(page).expectStatus('Ohio from Open States', 'Done');
    expect(simulator.requests).toEqual([
      { page: 1, since: null, keyed: true },
      { page: 2, since: null, keyed: true },
    ]);

    const datasets = new DatasetsPage(page);
    await page.goto('/tabs/datasets');
    const row = datasets.dataset('Ohio from Open States');
    // The list is read from the device's database once the page is open ("Loading datasets…").
    await expect(row).toContainText('Open States API: Ohio, session 135', { timeout: 15_000 });
    const billsFact = row.locator('dt:text-is("Bills") + dd');
    const count = (await billsFact.textContent())?.trim() ?? '';
    expect(count).toMatch(/^\d+ bills$/);

    // HB 68 moves: only it is read again, and the other bills stay.
    const moved = simulator.bills.find((bill) => bill.identifier === 'HB 68');
    if (moved === undefined) throw new Error('HB 68 is not in the sample');
    moved.updated_at = new Date(Date.now() + 60_000).toISOString();
    moved.actions = [
      ...(moved.actions ?? []),
      {
        description: 'Referred to committee on Finance',
        date: '2023-06-10',
        classification: ['referral-committee'],
        order: 99,
      },
    ];
    await row.getByRole('button', { name: 'Refresh Ohio from Open States' }).click();
    await expect(row).toContainText('1 bill with news', { timeout: 60_000 });
    const refresh = simulator.requests.slice(2);
    expect(refresh).toHaveLength(1);
    expect(refresh[0]?.since).not.toBeNull();
    await expect(billsFact).toHaveText(count);

    // Nothing updated since: one request, no changes.
    moved.updated_at = '2023-06-02T00:00:00+00:00';
    await row.getByRole('button', { name: 'Refresh Ohio from Open States' }).click();
    await expect(row).toContainText('No changes', { timeout: 60_000 });
    expect(simulator.requests.slice(3)).toHaveLength(1);
    await expect(billsFact).toHaveText(count);
  } finally {
    await simulator.stop();
  }
});

/** Tracks every card of the deck, and gives their identifiers. */
async function trackAll(page: Page, count: number): Promise<string[]> {
  const deck = new DeckPage(page);
  await deck.open();
  const tracked: string[] = [];
  for (let index = 0; index < count; index++) {
    const heading = deck.card().getByRole('heading', { level: 2 });
    await expect(heading).toBeVisible({ timeout: 30_000 });
    const identifier = (await heading.textContent())?.trim() ?? '';
    tracked.push(identifier);
    await deck.decide('Track', identifier);
  }
  return tracked;
}

/** The Tracked tab's What changed: each card's heading and text. */
async function whatChanged(page: Page): Promise<{ heading: string; text: string }[]> {
  await page.getByRole('tab', { name: /Tracked/ }).click();
  await page
    .getByRole('group', { name: 'Show' })
    .getByRole('button', { name: 'What changed' })
    .click();
  const cards = page.getByRole('list', { name: 'Changed bills' }).locator(':scope > li');
  await expect(cards.first()).toBeVisible({ timeout: 15_000 });
  return Promise.all(
    (await cards.all()).map(async (card) => ({
      heading: ((await card.getByRole('heading', { level: 3 }).textContent()) ?? '').trim(),
      text: (await card.textContent()) ?? '',
    })),
  );
}

// GovInfo bulk data: the JSON listing of BILLSTATUS/116/hr (as www.govinfo.gov/bulkdata/json
// answers it, each file's time in GMT to the minute, the folder's ZIP among them) over three
// real BILLSTATUS files of ../shared/fixtures/billstatus-samples. No key.
const GOVINFO_FILES = [
  'BILLSTATUS-116hr4907.xml',
  'BILLSTATUS-116hr5177.xml',
  'BILLSTATUS-116hr5240.xml',
] as const;

interface GovInfoRequest {
  path: string;
  /** The request said Accept: application/json (GovInfo answers a listing's 406 otherwise). */
  json: boolean;
}

class GovInfoSimulator extends SourceSimulatorServer<GovInfoRequest> {
  readonly files = new Map<string, { xml: string; time: string }>();
  zipTime = '01-Dec-2020 06:00';

  constructor() {
    super();
    if (fixturesRoot === null) throw new Error('../shared/fixtures is absent');
    for (const name of GOVINFO_FILES) {
      const xml = readFileSync(
        join(fixturesRoot, 'billstatus-samples', 'samples', 'actions-committees', name),
        'utf8',
      );
      this.files.set(name, { xml, time: '30-Nov-2020 15:07' });
    }
  }

  private zip(): Uint8Array {
    const entries: Record<string, Uint8Array> = {};
    for (const [name, file] of this.files) entries[name] = strToU8(file.xml);
    return zipSync(entries);
  }

  protected answer(request: SimulatedRequest, response: ServerResponse): GovInfoRequest {
    const path = request.url.pathname;
    const json = request.headers.accept === 'application/json';
    response.setHeader('access-control-allow-origin', '*');
    const folder = 'https://www.govinfo.gov/bulkdata/BILLSTATUS/116/hr/';
    if (path === '/bulkdata/json/BILLSTATUS/116/hr') {
      if (!json) {
        response.statusCode = 406;
        response.end();
      } else {
        const entry = (name: string, time: string, size: number) => ({
          displayLabel: name,
          fileExtension: name.endsWith('.zip') ? 'zip' : 'xml',
          folder: false,
          formattedLastModifiedTime: time,
          formattedSize: `${Math.round(size / 1024)} KB`,
          justFileName: name,
          link: `${folder}${name}`,
          mimeType: name.endsWith('.zip') ? 'application/zip' : 'application/xml',
          name,
          size,
        });
        sendJson(response, {
          files: [
            ...[...this.files].map(([name, file]) => entry(name, file.time, file.xml.length)),
            entry('BILLSTATUS-116-hr.zip', this.zipTime, this.zip().length),
          ],
        });
      }
    } else if (path === '/bulkdata/BILLSTATUS/116/hr/BILLSTATUS-116-hr.zip') {
      response.setHeader('content-type', 'application/zip');
      response.end(Buffer.from(this.zip()));
    } else {
      const file = this.files.get(path.slice(path.lastIndexOf('/') + 1));
      response.statusCode = file === undefined ? 404 : 200;
      response.setHeader('content-type', 'text/xml');
      response.end(file?.xml ?? '');
    }
    return { path, json };
  }
}

test('a GovInfo bulk data dataset reads the ZIP, then a refresh only the files the listing says changed', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const simulator = new GovInfoSimulator();
  await simulator.route(context, 'https://www.govinfo.gov', await simulator.start());
  try {
    await signUpAt(page, '/add-dataset');
    const form = new AddDatasetPage(page);
    await form.waitForForm();
    await form.name().fill('House bills from GovInfo');
    await page.getByRole('radio', { name: 'GovInfo bulk data' }).check();
    await page.getByLabel('Congress', { exact: true }).fill('116');
    await page.getByLabel('Bill type', { exact: true }).selectOption('hr');
    expect(await seriousViolations(page)).toEqual([]);
    await form.importAndOpenJobs();
    await new JobsPage(page).expectStatus('House bills from GovInfo', 'Done');
    expect(simulator.requests).toEqual([
      { path: '/bulkdata/json/BILLSTATUS/116/hr', json: true },
      { path: '/bulkdata/BILLSTATUS/116/hr/BILLSTATUS-116-hr.zip', json: false },
    ]);

    const datasets = new DatasetsPage(page);
    await page.goto('/tabs/datasets');
    const row = datasets.dataset('House bills from GovInfo');
    await expect(row).toContainText('GovInfo bulk data: 116th Congress, HR');
    await expect(row).toContainText('3 bills');
    const tracked = await trackAll(page, 3);
    expect(tracked.sort()).toEqual(['H.R. 4907', 'H.R. 5177', 'H.R. 5240']);

    // H.R. 5177 gets a new action after the ZIP was built; the listing says so.
    const changed = simulator.files.get('BILLSTATUS-116hr5177.xml');
    if (changed === undefined) throw new Error('H.R. 5177 is not served');
    changed.xml = changed.xml.replace(
      '<actions>',
      `<actions><item><actionDate>2020-12-02</actionDate><text>${NEW_ACTION}</text><type>IntroReferral</type><actionCode>H11100</actionCode><sourceSystem><code>2</code><name>House floor actions</name></sourceSystem></item>`,
    );
    changed.time = '02-Dec-2020 09:30';
    await page.goto('/tabs/datasets');
    await row.getByRole('button', { name: 'Refresh House bills from GovInfo' }).click();
    await expect(row).toContainText('1 bill with news', { timeout: 60_000 });
    await expect(row).toContainText('3 bills');
    expect(simulator.requests.slice(2)).toEqual([
      { path: '/bulkdata/json/BILLSTATUS/116/hr', json: true },
      { path: '/bulkdata/BILLSTATUS/116/hr/BILLSTATUS-116hr5177.xml', json: false },
    ]);
    const cards = await whatChanged(page);
    expect(cards.map((card) => card.heading)).toEqual(['H.R. 5177']);
    expect(cards[0]?.text).toContain(`New action: ${NEW_ACTION}`);

    // The same listing again: one request, no changes.
    await page.goto('/tabs/datasets');
    await row.getByRole('button', { name: 'Refresh House bills from GovInfo' }).click();
    await expect(row).toContainText('No changes', { timeout: 60_000 });
    expect(simulator.requests.slice(4)).toEqual([
      { path: '/bulkdata/json/BILLSTATUS/116/hr', json: true },
    ]);
  } finally {
    await simulator.stop();
  }
});

// The congress.gov API v3: /v3/bill/117/hr paged by offset and limit, fromDateTime honoured,
// each bill's detail and actions in the documented shapes (by hand), the key in X-Api-Key.
const CONGRESS_KEY = 'e2e-congress-gov-key-9c41';

interface CongressBill {
  number: string;
  title: string;
  updateDate: string;
  actions: {
    actionDate: string;
    text: string;
    actionCode: string;
    sourceSystem: { code: number; name: string };
  }[];
}

interface CongressRequest {
  path: string;
  since: string | null;
  keyed: boolean;
}

class CongressSimulator extends SourceSimulatorServer<CongressRequest> {
  readonly bills: CongressBill[] = ['101', '102', '103'].map((number) => ({
    number,
    title: `A bill numbered ${number}`,
    updateDate: '2021-02-01T12:00:00Z',
    actions: [
      {
        actionDate: '2021-01-28',
        text: 'Introduced in House',
        actionCode: 'Intro-H',
        sourceSystem: { code: 2, name: 'House floor actions' },
      },
    ],
  }));

  protected answer(
    request: SimulatedRequest,
    response: ServerResponse,
  ): CongressRequest | undefined {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'X-Api-Key');
    if (request.method === 'OPTIONS') {
      response.statusCode = 204;
      response.end();
      return undefined;
    }
    const path = request.url.pathname;
    const params = request.url.searchParams;
    const since = params.get('fromDateTime');
    const keyed = request.headers['x-api-key'] === CONGRESS_KEY;
    if (!keyed) {
      sendJson(
        response,
        { error: { code: 'API_KEY_INVALID', message: 'An invalid api_key was supplied.' } },
        403,
      );
      return { path, since, keyed };
    }
    const [, , , congress, type, number, part] = path.split('/');
    const bill = this.bills.find((item) => item.number === number);
    if (congress !== '117' || type !== 'hr') {
      sendJson(response, { error: 'Unknown resource' }, 404);
    } else if (number === undefined) {
      const listed = this.bills.filter(
        (item) => since === null || Date.parse(item.updateDate) >= Date.parse(since),
      );
      const offset = Number(params.get('offset') ?? '0');
      const limit = Number(params.get('limit') ?? '20');
      sendJson(response, {
        bills: listed.slice(offset, offset + limit).map((item) => ({
          congress: 117,
          latestAction: item.actions[0],
          number: item.number,
          originChamber: 'House',
          originChamberCode: 'H',
          title: item.title,
          type: 'HR',
          updateDate: item.updateDate,
          url: `https://api.congress.gov/v3/bill/117/hr/${item.number}?format=json`,
        })),
        pagination: { count: listed.length },
      });
    } else if (bill === undefined) {
      sendJson(response, { error: 'Unknown bill' }, 404);
    } else if (part === 'actions') {
      sendJson(response, { actions: bill.actions, pagination: { count: bill.actions.length } });
    } else {
      sendJson(response, {
        bill: {
          actions: {
            count: bill.actions.length,
            url: `https://api.congress.gov/v3/bill/117/hr/${bill.number}/actions?format=json`,
          },
          congress: 117,
          cosponsors: { count: 0, countIncludingWithdrawnCosponsors: 0, url: '' },
          introducedDate: '2021-01-28',
          latestAction: bill.actions[0],
          number: bill.number,
          originChamber: 'House',
          sponsors: [
            {
              bioguideId: 'M000087',
              district: 12,
              firstName: 'Carolyn',
              fullName: 'Rep. Maloney, Carolyn B. [D-NY-12]',
              lastName: 'Maloney',
              party: 'D',
              state: 'NY',
            },
          ],
          title: bill.title,
          type: 'HR',
          updateDate: bill.updateDate,
        },
      });
    }
    return { path, since, keyed };
  }
}

test('a Congress.gov API dataset reads each bill, then a refresh only the bills updated since', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const simulator = new CongressSimulator();
  await simulator.route(context, 'https://api.congress.gov', await simulator.start());
  try {
    await signUpAt(page, '/tabs/more');
    const field = page.getByLabel('Congress.gov API key', { exact: true });
    await expect(field).toHaveAttribute('type', 'password', { timeout: 15_000 });
    await field.fill(CONGRESS_KEY);
    await page.getByRole('button', { name: 'Save Congress.gov API key' }).click();
    await expect(page.getByText(`Saved: ••••${CONGRESS_KEY.slice(-4)}.`)).toBeVisible();

    await page.goto('/add-dataset');
    const form = new AddDatasetPage(page);
    await form.waitForForm();
    await form.name().fill('House bills from Congress.gov');
    await page.getByRole('radio', { name: 'Congress.gov API' }).check();
    await page.getByLabel('Congress', { exact: true }).fill('117');
    await page.getByLabel('Bill type', { exact: true }).selectOption({ label: 'House bills (hr)' });
    await expect(
      page.getByText('Uses your Congress.gov API key from Settings on the More tab.'),
    ).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await form.importAndOpenJobs();
    await new JobsPage(page).expectStatus('House bills from Congress.gov', 'Done');
    expect(simulator.requests.map((request) => request.path)).toEqual([
      '/v3/bill/117/hr',
      '/v3/bill/117/hr/101',
      '/v3/bill/117/hr/101/actions',
      '/v3/bill/117/hr/102',
      '/v3/bill/117/hr/102/actions',
      '/v3/bill/117/hr/103',
      '/v3/bill/117/hr/103/actions',
    ]);
    expect(simulator.requests.every((request) => request.keyed && request.since === null)).toBe(
      true,
    );

    const datasets = new DatasetsPage(page);
    await page.goto('/tabs/datasets');
    const row = datasets.dataset('House bills from Congress.gov');
    await expect(row).toContainText('Congress.gov API: 117th Congress, HR');
    await expect(row).toContainText('3 bills');
    await trackAll(page, 3);

    // H.R. 102 is referred: only it is listed as updated since the last import, and read again.
    const moved = simulator.bills.find((bill) => bill.number === '102');
    if (moved === undefined) throw new Error('H.R. 102 is not served');
    moved.updateDate = new Date(Date.now() + 60_000).toISOString();
    moved.actions.unshift({
      actionDate: '2021-02-03',
      text: NEW_ACTION,
      actionCode: 'H11100',
      sourceSystem: { code: 2, name: 'House floor actions' },
    });
    await page.goto('/tabs/datasets');
    await row.getByRole('button', { name: 'Refresh House bills from Congress.gov' }).click();
    await expect(row).toContainText('1 bill with news', { timeout: 60_000 });
    await expect(row).toContainText('3 bills');
    const refresh = simulator.requests.slice(7);
    expect(refresh.map((request) => request.path)).toEqual([
      '/v3/bill/117/hr',
      '/v3/bill/117/hr/102',
      '/v3/bill/117/hr/102/actions',
    ]);
    expect(refresh[0]?.since).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const cards = await whatChanged(page);
    expect(cards.map((card) => card.heading)).toEqual(['H.R. 102']);
    expect(cards[0]?.text).toContain(`New action: ${NEW_ACTION}`);

    // Nothing updated since: one request.
    moved.updateDate = '2021-02-01T12:00:00Z';
    await page.goto('/tabs/datasets');
    await row.getByRole('button', { name: 'Refresh House bills from Congress.gov' }).click();
    await expect(row).toContainText('No changes', { timeout: 60_000 });
    expect(simulator.requests.slice(10).map((request) => request.path)).toEqual([
      '/v3/bill/117/hr',
    ]);
  } finally {
    await simulator.stop();
  }
});

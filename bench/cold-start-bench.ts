import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect, type BrowserContext } from '@playwright/test';
import { benchProcesses, paintWatcher, startDocketServer } from './docket-app-server.ts';
import { buildImportBenchInput } from './import-bench-input.ts';
import { cpuMeter } from './machine-load.ts';
import { Cleanup } from './sync-load-servers.ts';

// Cold start to the first card (issue 19): a signed-in user whose device holds 50,000 bills
// opens Docket afresh (a new page, nothing in memory); the time from the navigation's start to
// the deck's first card painted. The baseline, in the same run and the same browser profile: a
// static page of the same origin that opens the same IndexedDB database with the bare API, reads
// one bill and paints it as a card. The bills get there the way a person puts them there: an
// account made on the sign-in screen, the import benchmark's ZIP of 50,000 congress data.json
// bills imported through Add dataset. The profile is on disk, as a person's is; the service
// worker is blocked, so every load fetches the app from the server (loopback).
//
//   npm run build && npx tsx bench/cold-start-bench.ts
//
// BENCH_BILLS (50,000) the bills; BENCH_COLD_RUNS (5) loads a side; DOCKET_APP_DIR another build;
// BENCH_COLD_TRACE=<file.json> one more load of /tabs/bills recorded as a Chromium trace (open it
// in the DevTools Performance panel) to see where the time goes.

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const builtApp = resolve(repoRoot, process.env.DOCKET_APP_DIR ?? 'packages/app/dist');
const bills = Number(process.env.BENCH_BILLS ?? '50000');
const runs = Number(process.env.BENCH_COLD_RUNS ?? '5');
const GOAL_MS = 1_000;

/** The baseline page: the bare IndexedDB API, one bill read, painted as a card. */
const ONE_CARD_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>One card</title>
<script type="module" src="/bench-one-card.js"></script></head>
<body><main></main></body></html>
`;
const ONE_CARD_JS = `
const open = indexedDB.open('docket');
open.onsuccess = () => {
  const tx = open.result.transaction('bills', 'readonly');
  const cursor = tx.objectStore('bills').openCursor();
  cursor.onsuccess = () => {
    const bill = cursor.result.value;
    const card = document.createElement('article');
    const heading = document.createElement('h2');
    heading.textContent = bill.identifier;
    const title = document.createElement('p');
    title.textContent = bill.title;
    card.append(heading, title);
    document.querySelector('main').append(card);
  };
};
`;

/** Marks, in the page, when a card's heading with its text is first painted. */
const WATCH_CARD = paintWatcher(
  `[...document.querySelectorAll('article h2')].find((heading) => heading.textContent.trim() !== '')`,
  'cardPaintedAt',
);

const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8.execute',
  'blink',
  'loading',
  'IndexedDB',
  'disabled-by-default-v8.cpu_profiler',
];

async function load(context: BrowserContext, url: string, traceFile?: string): Promise<number> {
  const page = await context.newPage();
  try {
    await page.addInitScript({ content: WATCH_CARD });
    const cdp = traceFile === undefined ? null : await context.newCDPSession(page);
    const events: unknown[] = [];
    if (cdp !== null) {
      cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
      await cdp.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: { includedCategories: TRACE_CATEGORIES },
      });
    }
    await page.goto(url);
    await page.waitForFunction(() => 'cardPaintedAt' in window, undefined, { timeout: 60_000 });
    if (cdp !== null && traceFile !== undefined) {
      const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
      await cdp.send('Tracing.end');
      await complete;
      await writeFile(traceFile, JSON.stringify({ traceEvents: events }));
      console.log(`Trace of one more load: ${traceFile} (${events.length} events)`);
    }
    return await page.evaluate(
      () => (window as unknown as { cardPaintedAt: number }).cardPaintedAt,
    );
  } finally {
    await page.close();
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function main(): Promise<void> {
  if (!existsSync(join(builtApp, 'index.html'))) {
    throw new Error(`No build in ${builtApp}: run npm run build first.`);
  }
  const cleanup = new Cleanup();
  try {
    // The build with the baseline page beside it: the same origin, so the same database.
    const appDir = await mkdtemp(join(tmpdir(), 'docket-cold-start-app-'));
    cleanup.add(() => rm(appDir, { recursive: true, force: true }));
    await cp(builtApp, appDir, { recursive: true });
    await writeFile(join(appDir, 'bench-one-card.html'), ONE_CARD_HTML);
    await writeFile(join(appDir, 'bench-one-card.js'), ONE_CARD_JS);
    const origin = await startDocketServer(appDir, cleanup);
    const input = buildImportBenchInput(bills);
    console.log(`Input: ${input.path} (${input.bills.toLocaleString('en-US')} bills)`);

    const profile = await mkdtemp(join(tmpdir(), 'docket-cold-start-profile-'));
    cleanup.add(() => rm(profile, { recursive: true, force: true }));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      baseURL: origin,
      viewport: { width: 390, height: 844 },
      serviceWorkers: 'block',
    });
    cleanup.add(() => context.close());

    // A new account, and the bills imported through Add dataset.
    const page = await context.newPage();
    await page.goto('/login?returnToLink=%2Fadd-dataset');
    await page.getByLabel('Email', { exact: true }).fill(`cold-${Date.now()}@example.test`);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeVisible({
      timeout: 30_000,
    });
    await page.getByLabel('Name', { exact: true }).fill('Cold start');
    await page.getByLabel('Files', { exact: true }).setInputFiles(input.path);
    const importStarted = Date.now();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page).toHaveURL(/\/jobs$/, { timeout: 120_000 });
    await expect(
      page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: 'Import of Cold start' }) })
        .getByText('Done', { exact: true }),
    ).toBeVisible({ timeout: 15 * 60_000 });
    console.log(
      `Imported through the app in ${((Date.now() - importStarted) / 1000).toFixed(1)} s`,
    );
    await page.close();

    const load0 = cpuMeter(benchProcesses);
    const app: number[] = [];
    const bare: number[] = [];
    // One load of each first, not counted: the server's and the disk's caches warm.
    await load(context, '/tabs/bills');
    await load(context, '/bench-one-card.html');
    for (let run = 0; run < runs; run++) {
      if (run % 2 === 0) {
        app.push(await load(context, '/tabs/bills'));
        bare.push(await load(context, '/bench-one-card.html'));
      } else {
        bare.push(await load(context, '/bench-one-card.html'));
        app.push(await load(context, '/tabs/bills'));
      }
    }
    const traceFile = process.env.BENCH_COLD_TRACE;
    if (traceFile !== undefined) await load(context, '/tabs/bills', traceFile);
    const appMs = median(app);
    const bareMs = median(bare);
    const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
    console.log(
      [
        `Cold start to the first card, ${input.bills.toLocaleString('en-US')} bills on the device, navigation start to the card painted (median of ${runs}):`,
        `  Docket /tabs/bills: ${appMs.toFixed(0)} ms (${list(app)})`,
        `  one card from the same IndexedDB, bare: ${bareMs.toFixed(0)} ms (${list(bare)})`,
        `  ratio ${(appMs / bareMs).toFixed(1)}×; goal < ${GOAL_MS} ms: ${appMs < GOAL_MS ? 'met' : 'missed'}`,
        `  machine: ${load0()}`,
      ].join('\n'),
    );
  } finally {
    await cleanup.run();
  }
}

await main();

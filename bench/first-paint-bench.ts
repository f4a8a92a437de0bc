import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { benchProcesses, paintWatcher, startDocketServer } from './docket-app-server.ts';
import { cpuMeter } from './machine-load.ts';
import { Cleanup, freePort } from './sync-load-servers.ts';

// The first screen a phone gets (issue 19): a fresh visit to /login in Chromium with its CPU
// slowed 4× and its network emulated, from the Docket server as `npm start` runs it (the built
// app, brotli and gzip copies served by content negotiation, code split by route) against a
// baseline in the same run: the very same build served by a plain static server without
// compression (as the server sent it before issue 19), its /api passed to the same Docket server.
// Prints, per network, the median of the runs: first contentful paint, when the "Sign in" button
// is painted (displayed, visible, opaque, in the viewport), and the script bytes on the wire.
//
//   npm run build && npx tsx bench/first-paint-bench.ts
//
// BENCH_PAINT_RUNS (3) runs per server and network; DOCKET_APP_DIR another build.

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const appDir = resolve(repoRoot, process.env.DOCKET_APP_DIR ?? 'packages/app/dist');
const runs = Number(process.env.BENCH_PAINT_RUNS ?? '3');

interface Network {
  name: string;
  /** Added to each request, in ms (Chromium's emulation: a round trip). */
  latency: number;
  /** Bits a second down; 0: not limited. */
  down: number;
  up: number;
}

const networks: readonly Network[] = [
  { name: 'loopback', latency: 0, down: 0, up: 0 },
  { name: 'slow 4G (9 Mbps, 170 ms)', latency: 170, down: 9e6, up: 1.5e6 },
  { name: '3G (1.6 Mbps, 300 ms)', latency: 300, down: 1.6e6, up: 0.75e6 },
];

const CPU_SLOWDOWN = 4;
const GOAL_FCP_MS = 2_500;

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

/** The baseline: the same files, uncompressed, index.html for every other path; /api proxied. */
async function startPlainServer(api: string, cleanup: Cleanup): Promise<string> {
  const target = new URL(api);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/api/')) {
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
      return;
    }
    let file = normalize(join(appDir, path));
    if (!file.startsWith(appDir) || !existsSync(file) || statSync(file).isDirectory()) {
      file = join(appDir, 'index.html');
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  cleanup.add(
    () =>
      new Promise((done) =>
        server.close(() => {
          done();
        }),
      ),
  );
  return `http://127.0.0.1:${port}`;
}

interface Visit {
  fcp: number;
  signIn: number;
  scriptBytes: number;
}

/** Notes, in the page, the first contentful paint and when the "Sign in" button is painted. */
const watchSignIn = `(() => {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'first-contentful-paint') window.firstContentfulPaintAt = entry.startTime;
    }
  }).observe({ type: 'paint', buffered: true });
})();
${paintWatcher(
  `[...document.querySelectorAll('button, ion-button')].find((element) => element.textContent?.trim() === 'Sign in')`,
  'signInPaintedAt',
)}`;

async function visit(browser: Browser, origin: string, network: Network): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: network.latency,
      downloadThroughput: network.down === 0 ? -1 : network.down / 8,
      uploadThroughput: network.up === 0 ? -1 : network.up / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.addInitScript({ content: watchSignIn });
    await page.goto(`${origin}/login`);
    await page.waitForFunction(
      () => 'signInPaintedAt' in window && 'firstContentfulPaintAt' in window,
      undefined,
      { timeout: 60_000 },
    );
    return await page.evaluate(() => {
      const marks = window as unknown as {
        signInPaintedAt: number;
        firstContentfulPaintAt: number;
      };
      // Every script fetched until then: the entry, its module preloads and what they import.
      const scripts = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js') && entry.startTime <= marks.signInPaintedAt);
      const scriptBytes = scripts.reduce(
        (sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize,
        0,
      );
      return { fcp: marks.firstContentfulPaintAt, signIn: marks.signInPaintedAt, scriptBytes };
    });
  } finally {
    await context.close();
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function main(): Promise<void> {
  if (!existsSync(join(appDir, 'index.html'))) {
    throw new Error(`No build in ${appDir}: run npm run build first.`);
  }
  const cleanup = new Cleanup();
  const load = cpuMeter(benchProcesses);
  try {
    const docket = await startDocketServer(appDir, cleanup);
    const plain = await startPlainServer(docket, cleanup);
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
    cleanup.add(() => browser.close());
    console.log(
      `First paint of /login, ${CPU_SLOWDOWN}× CPU slowdown, median of ${runs} runs a side (${appDir}):`,
    );
    console.log(
      '| network | Docket server: FCP | "Sign in" painted | script on the wire | plain server, uncompressed: FCP | "Sign in" painted | script on the wire | FCP goal ≤ 2.5 s |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const network of networks) {
      const sides: Record<'docket' | 'plain', Visit[]> = { docket: [], plain: [] };
      for (let run = 0; run < runs; run++) {
        // Alternating which goes first, so neither always meets a warmer machine.
        const order =
          run % 2 === 0 ? (['docket', 'plain'] as const) : (['plain', 'docket'] as const);
        for (const side of order) {
          sides[side].push(await visit(browser, side === 'docket' ? docket : plain, network));
        }
      }
      const cells = (visits: Visit[]) => [
        `${median(visits.map((v) => v.fcp)).toFixed(0)} ms`,
        `${median(visits.map((v) => v.signIn)).toFixed(0)} ms`,
        `${(median(visits.map((v) => v.scriptBytes)) / 1000).toFixed(1)} KB`,
      ];
      const fcp = median(sides.docket.map((v) => v.fcp));
      console.log(
        `| ${network.name} | ${[...cells(sides.docket), ...cells(sides.plain)].join(' | ')} | ${fcp <= GOAL_FCP_MS ? 'met' : 'missed'} |`,
      );
    }
    console.log(`Machine: ${load()}`);
  } finally {
    await cleanup.run();
  }
}

await main();

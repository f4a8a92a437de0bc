import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourcePort } from './e2e/source-port.ts';

// The end-to-end tests run the real server (PGlite in a fresh folder) serving the built app, and
// drive Debian's Chromium. The folder is made once here and handed to the workers through the
// environment, which they inherit from this process.
// A port of its own per run (set once here, inherited by the workers), so a developer's second
// run or a running `npm start` cannot collide with it. Below 32768, where Linux starts handing
// out the local ports of outgoing connections (ip_local_port_range): a port up there can be taken
// by any open connection, such as the server's own to PostgreSQL, and the listen fails with
// EADDRINUSE. The port, the first worker's source simulator (+1), sync-two-servers' two (+2, +3),
// the workspaces spec's own server (+4) and the other workers' source simulators (+5 on) all fit.
process.env.E2E_PORT ??= String(20_000 + (process.pid % 12_000));
const port = Number(process.env.E2E_PORT);
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'docket-e2e-'));
// Two workers, each a test file at a time against the one server: the tests wait on the app's
// own delays far more than they compute (one worker kept a quarter of this two-core machine
// busy), so a second halves the wall time. Tests share nothing but the server, each under its
// own accounts.
const workers = Number(process.env.E2E_WORKERS ?? '2');
// The ports of the tests' source simulators that answer without CORS headers, so the app must
// download through the server's relay: one per worker (e2e/source-port.ts), each allowed by the
// server (SOURCE_HOSTS).
const sourcePorts = Array.from({ length: workers }, (_, index) => sourcePort(port, index));
function traceMode(): 'off' | 'retain-on-failure' {
  const asked = process.env.E2E_TRACE;
  if (asked === 'off' || asked === 'retain-on-failure') return asked;
  return process.env.CI ? 'off' : 'retain-on-failure';
}
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // What a person waits for a screen on a busy two-core machine; a wait that needs longer says so.
  expect: { timeout: 10_000 },
  // A test's whole budget: Debian's Chromium 156 with two workers on two cores runs the suite
  // about half again slower than before; a test that needs more says so itself.
  timeout: 90_000,
  // Screenshot baselines (e2e/visual.spec.ts) are named without the platform's suffix, so the
  // committed images are the ones every machine compares against.
  snapshotPathTemplate: '{testDir}/{testFilePath}-snapshots/{arg}{ext}',
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    // A trace records the screen all through every test, kept or not: in CI, where nobody opens
    // one (a failure prints what the screen said), that was two-fifths of the suite's processor
    // time. E2E_TRACE=retain-on-failure brings them back there.
    trace: traceMode(),
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'laptop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'npx tsx packages/server/src/main.ts',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DOCKET_DATA_DIR: process.env.E2E_DATA_DIR,
      AUTH_RATE_LIMIT_MAX: '1000',
      LOG_LEVEL: 'warn',
      SOURCE_HOSTS: sourcePorts.map((each) => `127.0.0.1:${each}`).join(','),
    },
  },
});

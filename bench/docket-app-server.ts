import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Cleanup, freePort } from './sync-load-servers.ts';

// The Docket server for the benchmarks that load the built app in Chromium (first-paint-bench,
// cold-start-bench).

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Starts the Docket server as `npm start` runs it, on the build in `appDir`, on PGlite in a data
 * folder of its own (removed at clean-up), and waits until it answers /api/health.
 */
export async function startDocketServer(appDir: string, cleanup: Cleanup): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'docket-first-paint-'));
  cleanup.add(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DOCKET_DATA_DIR: dataDir,
      DOCKET_APP_DIR: appDir,
    },
    stdio: 'ignore',
  });
  cleanup.track(child);
  cleanup.add(async () => {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 600; tries++) {
    if (child.exitCode !== null) throw new Error('The Docket server stopped while starting.');
    const answer = await fetch(`${origin}/api/health`).catch(() => null);
    if (answer?.ok === true) return origin;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error('The Docket server did not answer /api/health within a minute.');
}

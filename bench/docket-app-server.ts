import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pidsNamed, type ProcessGroup } from './machine-load.ts';
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

/**
 * An init script (text: tsx names functions with a helper the page does not have) that sets
 * `window[mark]` to `performance.now()` at the first frame where the element `find` returns (a
 * JavaScript expression) is painted: it has a size, is in the viewport, and it and every
 * ancestor across shadow roots is displayed, visible and at an opacity above one half.
 */
export function paintWatcher(find: string, mark: string): string {
  return `(() => {
  const painted = (element) => {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.top >= innerHeight || box.bottom <= 0) {
      return false;
    }
    let opacity = 1;
    for (let node = element; node !== null; ) {
      if (node instanceof Element) {
        const style = getComputedStyle(node);
        if (style.display === 'none' || style.visibility !== 'visible') return false;
        opacity *= Number(style.opacity);
        if (opacity <= 0.5) return false;
        node = node.assignedSlot ?? node.parentNode;
      } else {
        node = node instanceof ShadowRoot ? node.host : node.parentNode;
      }
    }
    return true;
  };
  const check = () => {
    const element = ${find};
    if (element !== null && element !== undefined && painted(element)) {
      window[${JSON.stringify(mark)}] = performance.now();
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;
}

/** The run's own other processes, so the machine's load says what was not the benchmark. */
export const benchProcesses: readonly ProcessGroup[] = [
  { name: 'Chromium', pids: () => [...pidsNamed('chromium'), ...pidsNamed('chrome')] },
  {
    name: 'the server',
    pids: () => pidsNamed('node').filter((pid) => pid !== process.pid),
  },
];

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { healthResponseSchema } from '@docket/protocol/health';
import { expect, it } from 'vitest';
import { setup } from './test-server.ts';

const server = setup({ app: false });

it('finishes a request that is in flight when the server closes', async () => {
  const { app } = await server.build();
  let entered!: () => void;
  const handlerEntered = new Promise<void>((resolve) => {
    entered = resolve;
  });
  // A slow handler stands in for a sync push that is still writing when the signal arrives.
  app.get('/test/slow', async () => {
    entered();
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { finished: true };
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });

  const inFlight = fetch(`${address}/test/slow`);
  await handlerEntered;
  const closing = app.close();

  const response = await inFlight;
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ finished: true });
  await closing;
  await expect(fetch(`${address}/api/health`)).rejects.toThrow();
});

it(
  'main.ts starts, migrates, serves health and stops cleanly on SIGTERM',
  { timeout: 90_000 },
  async () => {
    const serverDir = fileURLToPath(new URL('..', import.meta.url));
    const dataDir = await mkdtemp(join(tmpdir(), 'docket-main-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DOCKET_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

    try {
      let address: string | undefined;
      for (let waited = 0; waited < 60_000 && address === undefined; waited += 100) {
        address = /Docket listening on (http:\/\/[^,\s]+)/.exec(output)?.[1];
        if (address === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(address, output).toBeDefined();

      const health = await fetch(`${address ?? ''}/api/health`);
      expect(health.status).toBe(200);
      expect(healthResponseSchema.parse(await health.json()).status).toBe('ok');

      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code, output).toBe(0);
      expect(output).toContain('Docket server stopped');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  },
);

import { test } from '@playwright/test';

/**
 * The port of a worker's source simulator, beside the server's (`E2E_PORT`): the first worker's
 * at +1, the others' from +5, past the ports the two-server and workspaces specs take.
 */
export function sourcePort(serverPort: number, workerIndex: number): number {
  return serverPort + (workerIndex === 0 ? 1 : 4 + workerIndex);
}

/** This worker's source simulator port, which the test server allows (playwright.config.ts). */
export function workerSourcePort(): number {
  return sourcePort(Number(process.env.E2E_PORT), test.info().parallelIndex);
}

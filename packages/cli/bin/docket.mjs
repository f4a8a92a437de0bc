#!/usr/bin/env node
// Runs src/main.ts, bundled or through tsx (load-entry.mjs says why and how), so the command
// works straight after `npm ci` with no build step. The import worker's bundle is made here too,
// once, so the workers a large import starts do not each make it.
import { ensureBundle, loadEntry } from './load-entry.mjs';

if (process.env.DOCKET_CLI_BUNDLE !== 'off') await ensureBundle('import-worker').catch(() => '');
const { main } = /** @type {{ main: (args: string[]) => Promise<number> }} */ (
  await loadEntry('main')
);
process.exitCode = await main(process.argv.slice(2));

import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

// Benchmarks that need a real browser (`*.bench.web.ts`), run in Debian's Chromium through
// Playwright, the same way as packages/app/vitest.web.config.ts:
// `npx vitest run --config bench/vitest.bench.config.ts` from the repository root. They print
// figures; they fail only when the work itself goes wrong, never because it was slow.

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Bundled before the run starts, so Vite does not discover them mid-run and reload the page.
  optimizeDeps: { include: ['dexie', 'zod', 'fflate', 'fast-xml-parser'] },
  // The generated input lives in the system's temporary folder (import-bench-input.ts).
  server: { fs: { allow: [repositoryRoot, tmpdir()] } },
  test: {
    name: 'bench-web',
    include: ['**/*.bench.web.ts'],
    globalSetup: ['./import-bench-input.ts'],
    testTimeout: 20 * 60_000,
    // Figures mean something only when nothing else runs beside them.
    fileParallelism: false,
    attachmentsDir: '../test-results/vitest-attachments',
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            // performance.memory in exact bytes instead of coarse buckets, and gc() so each
            // measured phase starts from a collected heap.
            '--enable-precise-memory-info',
            '--js-flags=--expose-gc',
          ],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});

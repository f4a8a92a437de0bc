import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { benchProfileDirectory } from './bench-profile.ts';

// Benchmarks that need a real browser (`*.bench.web.ts`), run in Debian's Chromium through
// Playwright, the same way as packages/app/vitest.web.config.ts:
// `npx vitest run --config bench/vitest.bench.config.ts` from the repository root. They print
// figures; they fail only when the work itself goes wrong, never because it was slow.

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

// The app ships React's production build; measuring frames against the development build
// (several times slower per render) would judge code nobody runs. Vitest sets NODE_ENV to
// 'test' before it loads this file; the dependency optimizer reads it when it bundles React.
process.env.NODE_ENV = 'production';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Bundled before the run starts, so Vite does not discover them mid-run and reload the page.
  // React and its companions among them: discovered late, a second copy of React is loaded
  // for the second benchmark file and its list renders nothing.
  optimizeDeps: {
    include: [
      'dexie',
      'zod',
      'fflate',
      'papaparse',
      'fast-xml-parser',
      'react',
      'react/jsx-runtime',
      'react-dom',
      'react-dom/client',
      'react-router-dom',
      '@tanstack/react-virtual',
    ],
    // It finds its sqlite3.wasm beside its own module (import.meta.url): a bundled copy would not.
    exclude: ['@sqlite.org/sqlite-wasm'],
  },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
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
        // On disk, as a person's browser has it (bench-profile.ts says why).
        persistentContext: benchProfileDirectory(),
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

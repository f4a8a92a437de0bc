import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

// Tests that need a real browser (`*.web.test.ts`), run in Debian's Chromium through Playwright:
// `npx vitest run --config packages/app/vitest.web.config.ts` from the repository root. Never
// `npx playwright install`: the browser is /usr/bin/chromium, and as root its sandbox is off.

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  // Bundled before the run starts, so Vite does not discover them mid-run and reload the page.
  optimizeDeps: {
    include: [
      'dexie',
      'zod',
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-dev-runtime',
      '@stencil/react-output-target/runtime',
    ],
  },
  test: {
    name: 'app-web',
    include: ['src/**/*.web.test.ts'],
    testTimeout: 30_000,
    // Failure screenshots go with the other test output, which git ignores.
    attachmentsDir: '../../test-results/vitest-attachments',
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
          ],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});

import { defineProject } from 'vitest/config';

// Listed as a project by the root vitest.config.ts; run with `npx vitest run --project app`.
export default defineProject({
  test: {
    name: 'app',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build-tools/**/*.test.ts'],
    // Browser-only tests run in Chromium through vitest.web.config.ts.
    exclude: ['src/**/*.web.test.ts'],
    setupFiles: ['src/local-store/node-typed-arrays.ts'],
  },
});

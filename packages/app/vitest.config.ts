import { defineProject } from 'vitest/config';

// Listed as a project by the root vitest.config.ts; run with `npx vitest run --project app`.
export default defineProject({
  test: {
    name: 'app',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
});

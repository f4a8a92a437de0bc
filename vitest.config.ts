import { defineConfig } from 'vitest/config';

// One Vitest run, one project per package; `npm run test:unit` and `npm run test:server` pick them.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'protocol',
          root: './packages/protocol',
          environment: 'node',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'core',
          root: './packages/core',
          environment: 'node',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'cli',
          root: './packages/cli',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      './packages/app/vitest.config.ts',
      {
        test: {
          name: 'server',
          root: './packages/server',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

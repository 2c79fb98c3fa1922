import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      '@spillway/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'redis',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One real redis-server for the whole project (installed from the OS packages when missing).
    globalSetup: ['test/redis-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

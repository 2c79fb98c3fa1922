import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      '@spillway/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'langchain-memory',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Real agent sessions of 20-60 turns: seconds each on a busy 2-core machine.
    testTimeout: 30_000,
  },
});

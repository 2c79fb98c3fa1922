import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      '@spillway/ai-sdk-prompt': fileURLToPath(new URL('../ai-sdk-prompt/src/index.ts', import.meta.url)),
      '@spillway/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'ai-sdk-middleware',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Long scripted sessions through the real SDK take seconds on a busy 2-core machine.
    testTimeout: 30_000,
  },
});

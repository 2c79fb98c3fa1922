import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      '@spillway/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)),
      '@spillway/ai-sdk-middleware': fileURLToPath(
        new URL('../ai-sdk-middleware/src/index.ts', import.meta.url),
      ),
      '@spillway/mastra': fileURLToPath(new URL('../mastra/src/index.ts', import.meta.url)),
      '@spillway/ai-sdk-prompt': fileURLToPath(new URL('../ai-sdk-prompt/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'quality-bench',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Whole conversations through real frameworks: generous limits for busy CI machines.
    testTimeout: 120_000,
  },
});

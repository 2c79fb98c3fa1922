import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'core',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Property tests and the tokenizer-backed accuracy test take seconds on a busy 2-core machine.
    testTimeout: 30_000,
  },
});

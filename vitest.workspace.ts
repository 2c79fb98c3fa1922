/**
 * The test projects of the repository. Vitest 4 no longer reads workspace files, so this is a plain
 * module whose named export the root `vitest.config.ts` passes to `test.projects`.
 */
export const projects = [
  'packages/core',
  'packages/langchain-memory',
  'packages/ai-sdk-prompt',
  'packages/ai-sdk-middleware',
  'packages/mcp-proxy',
  'packages/redis',
  'packages/postgres',
  'packages/quality-bench',
  'packages/mastra',
];

export {};

/**
 * `pnpm bench`: every benchmark of @spillway/core, one after another, in one process. Each module
 * measures its anchors in the same run and prints ratios against them.
 */
const modules = [
  './estimate.bench.ts',
  './truncate.bench.ts',
  './conversation.bench.ts',
  './compact.bench.ts',
  './coding-session.bench.ts',
  './recall.bench.ts',
];

for (const path of modules) {
  const module = (await import(path)) as { run: () => Promise<void> };
  await module.run();
}

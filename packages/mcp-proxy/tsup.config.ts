import { defineConfig } from 'tsup';

// Dual build for npm: ESM (dist/index.js + index.d.ts) for `import`, CommonJS (dist/index.cjs +
// index.d.cts) for `require()`. The `spillway-mcp` bin is dist/cli.js (src/cli.ts starts with a
// shebang, which esbuild keeps). Splitting on for both formats keeps the shared code in one chunk
// per format instead of a second copy inside each CLI file.
// No source maps: the output is not minified (a stack trace reads as it is), and maps carrying
// their sources (src/ is not shipped) were over half of every package's install size.
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  splitting: true,
  sourcemap: false,
  clean: true,
  target: 'es2022',
});

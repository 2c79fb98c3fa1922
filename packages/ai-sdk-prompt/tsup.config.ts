import { defineConfig } from 'tsup';

// Dual build for npm: ESM (dist/index.js + index.d.ts) for `import`, CommonJS (dist/index.cjs +
// index.d.cts) for `require()`. The export map gives each condition its own types.
// No source maps: the output is not minified (a stack trace reads as it is), and maps carrying
// their sources (src/ is not shipped) were over half of every package's install size.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: false,
  clean: true,
  target: 'es2022',
});

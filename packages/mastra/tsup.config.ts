import { defineConfig } from 'tsup';

// Dual build for npm: ESM (dist/index.js + index.d.ts) for `import`, CommonJS (dist/index.cjs +
// index.d.cts) for `require()`. The export map gives each condition its own types.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
});

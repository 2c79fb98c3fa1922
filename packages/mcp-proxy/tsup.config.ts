import { defineConfig } from 'tsup';

export default defineConfig({
  // src/cli.ts starts with a shebang, which esbuild keeps at the top of dist/cli.js.
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'es2022',
});

import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsup';

type Core = typeof import('../../src/index.ts');

let shipped: Promise<Core> | undefined;

/**
 * `@spillway/core` as it ships: `src/index.ts` built by tsup (the package's own build, the same
 * defaults) into a scratch folder inside the package (so its dependencies resolve), then imported.
 * The per-request benchmarks time this, not the sources through tsx: tsx transforms with
 * `keepNames`, which wraps every function made at run time in a `__name` call (a property definition
 * per closure) that the published code does not pay — 5–12% of a fresh request at 500–2,000
 * messages. Built afresh on every run, so it is never a stale `dist/`.
 */
export function shippedCore(): Promise<Core> {
  shipped ??= (async () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
    const outDir = mkdtempSync(join(root, 'bench', '.shipped-'));
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    await build({
      entry: [join(root, 'src', 'index.ts')],
      format: ['esm'],
      outDir,
      target: 'es2022',
      dts: false,
      sourcemap: false,
      clean: false,
      silent: true,
      config: false,
    });
    return (await import(pathToFileURL(join(outDir, 'index.js')).href)) as Core;
  })();
  return shipped;
}

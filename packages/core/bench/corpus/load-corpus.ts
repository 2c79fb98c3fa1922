/**
 * The benchmark corpus: the generated and shipped classes of `generate-corpus.ts` plus real
 * source code read from this repository (`packages/core/src/**\/*.ts`) and TypeScript's own
 * `lib.es5.d.ts` when it is installed. Bench only (uses Node's file system).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ContentClass, generateSamples } from './generate-corpus.ts';

const sourceDirectory = fileURLToPath(new URL('../../src', import.meta.url));

function typeScriptFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...typeScriptFiles(path));
    else if (entry.name.endsWith('.ts')) files.push(path);
  }
  return files.sort();
}

/** Real TypeScript: this package's sources (tests included) and `lib.es5.d.ts` if resolvable. */
export function loadSourceCode(): string {
  const texts = typeScriptFiles(sourceDirectory).map((path) => readFileSync(path, 'utf8'));
  try {
    const require = createRequire(import.meta.url);
    texts.push(readFileSync(require.resolve('typescript/lib/lib.es5.d.ts'), 'utf8'));
  } catch {
    // TypeScript not installed next to the bench: the repository's own sources are enough.
  }
  return texts.join('\n');
}

/** Options of `loadCorpus`. */
export interface LoadCorpusOptions {
  /** Samples per class. @default 80 */
  samplesPerClass?: number;
  /** Seed of the pseudo-random source. @default 20_250_101 */
  seed?: number;
}

/** Samples of 200–8,000 characters per content class, deterministic for a given seed. */
export function loadCorpus({
  samplesPerClass = 80,
  seed = 20_250_101,
}: LoadCorpusOptions = {}): Record<ContentClass, string[]> {
  return generateSamples({ samplesPerClass, seed, sourceCode: loadSourceCode() });
}

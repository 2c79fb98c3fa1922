import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { CONTENT_CLASSES, generateSamples } from '../../bench/corpus/generate-corpus';
import { CHARS_PER_TOKEN_ESTIMATE } from './chars-per-token';
import { estimateTextTokens } from './estimate-text-tokens';

const encoding = new Tiktoken(o200kBase);
const exactTokens = (text: string): number => encoding.encode(text).length;

/** This package's own TypeScript sources, read at test time (the tests run in Node). */
async function readOwnSources(): Promise<string> {
  const fileSystemModule = 'node:fs';
  const { readdirSync, readFileSync } = (await import(/* @vite-ignore */ fileSystemModule)) as {
    readdirSync(path: URL): string[];
    readFileSync(path: URL, encoding: 'utf8'): string;
  };
  const directory = new URL('./', import.meta.url);
  return readdirSync(directory)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => readFileSync(new URL(name, directory), 'utf8'))
    .join('\n');
}

function meanAbsoluteRelativeError(samples: readonly string[], estimate: (text: string) => number): number {
  let total = 0;
  for (const sample of samples) {
    const exact = exactTokens(sample);
    total += Math.abs(estimate(sample) - exact) / exact;
  }
  return total / samples.length;
}

describe('estimateTextTokens', () => {
  it('is 0 for the empty string and at least 1 for any other', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens(' ')).toBe(1);
    expect(estimateTextTokens('a')).toBe(1);
    expect(estimateTextTokens('\u{1F600}')).toBeGreaterThanOrEqual(1);
  });

  it('follows the tokenizer on digits, indentation and repeated punctuation', () => {
    expect(estimateTextTokens('1234567')).toBe(3);
    expect(estimateTextTokens('x = 1')).toBe(exactTokens('x = 1'));
    expect(estimateTextTokens(`a${' '.repeat(40)}b`)).toBe(exactTokens(`a${' '.repeat(40)}b`));
    expect(estimateTextTokens('-'.repeat(60))).toBeLessThanOrEqual(10);
    const sentence = 'The quick brown fox jumps over the lazy dog.';
    expect(Math.abs(estimateTextTokens(sentence) - exactTokens(sentence))).toBeLessThanOrEqual(1);
  });

  it(`lands within 10% of o200k_base on every content class (mean absolute relative error)`, async () => {
    const samples = generateSamples({ seed: 7, samplesPerClass: 30, sourceCode: await readOwnSources() });
    const errors: Record<string, number> = {};
    for (const contentClass of CONTENT_CLASSES) {
      expect(samples[contentClass].length).toBeGreaterThan(0);
      errors[contentClass] = meanAbsoluteRelativeError(samples[contentClass], estimateTextTokens);
    }
    for (const contentClass of CONTENT_CLASSES) {
      expect({ contentClass, error: errors[contentClass]! }).toEqual({
        contentClass,
        error: expect.toSatisfy((error: number) => error <= 0.1),
      });
    }
  });

  it('beats chars/4 by a wide margin where chars/4 is worst', () => {
    const samples = generateSamples({ seed: 11, samplesPerClass: 15 });
    const charsPerToken = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN_ESTIMATE);
    for (const contentClass of [
      'Chinese',
      'Japanese',
      'Base64',
      'Hex / random ids',
      'JSON (minified)',
    ] as const) {
      const ours = meanAbsoluteRelativeError(samples[contentClass], estimateTextTokens);
      const rough = meanAbsoluteRelativeError(samples[contentClass], charsPerToken);
      expect(ours * 3).toBeLessThan(rough);
    }
  });

  it('returns a finite integer ≥ 0 for any string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const count = estimateTextTokens(text);
        return Number.isInteger(count) && count >= 0 && (text.length === 0) === (count === 0);
      }),
      { numRuns: 500 },
    );
  });

  it('is nearly additive: estimate(a + b) ≤ estimate(a) + estimate(b) + 2', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.string({
        unit: fc.constantFrom(...'aZq9 \n.,-_{}"\'\u4e2d\u3042\uac00\u00e9\u0416'),
        maxLength: 40,
      }),
    );
    fc.assert(
      fc.property(text, text, (first, second) => {
        return (
          estimateTextTokens(first + second) <= estimateTextTokens(first) + estimateTextTokens(second) + 2
        );
      }),
      { numRuns: 2000 },
    );
  });
});

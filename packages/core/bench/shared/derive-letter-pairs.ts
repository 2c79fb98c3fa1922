/**
 * Re-derives the letter-pair tables of `src/estimate/estimate-text-tokens.ts` from the o200k_base
 * vocabulary: which letters commonly follow which inside vocabulary tokens. A pair that never (or
 * rarely) occurs inside a token is where BPE cuts, which is how the estimator tells English words
 * from random letters.
 *
 * Run: `pnpm tsx bench/shared/derive-letter-pairs.ts` (from packages/core) and compare with the
 * constants in the source.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

/** Lowercase pairs: counted in the 20,000 lowest-ranked tokens, common from 8 occurrences. */
const LOWERCASE_VOCABULARY = 20_000;
const LOWERCASE_MINIMUM = 8;
/** Uppercase pairs: counted in the 100,000 lowest-ranked tokens, common from 1 occurrence. */
const UPPERCASE_VOCABULARY = 100_000;
const UPPERCASE_MINIMUM = 1;

function pairCounts(encoding: Tiktoken, vocabulary: number) {
  const lowercase = new Uint32Array(26 * 26);
  const uppercase = new Uint32Array(26 * 26);
  for (let rank = 0; rank < vocabulary; rank++) {
    let token: string;
    try {
      token = encoding.decode([rank]);
    } catch {
      continue;
    }
    for (let index = 1; index < token.length; index++) {
      const first = token.charCodeAt(index - 1);
      const second = token.charCodeAt(index);
      const firstLetter = (first >= 97 && first <= 122) || (first >= 65 && first <= 90);
      if (firstLetter && second >= 97 && second <= 122) lowercase[((first | 32) - 97) * 26 + second - 97]!++;
      else if (first >= 65 && first <= 90 && second >= 65 && second <= 90)
        uppercase[(first - 65) * 26 + second - 65]!++;
    }
  }
  return { lowercase, uppercase };
}

function masks(counts: Uint32Array, minimum: number): string[] {
  return Array.from({ length: 26 }, (_, first) => {
    let mask = 0;
    for (let second = 0; second < 26; second++)
      if (counts[first * 26 + second]! >= minimum) mask |= 1 << second;
    return `0x${(mask >>> 0).toString(16)}`;
  });
}

const encoding = new Tiktoken(o200kBase);
console.log('commonLowercaseFollowers:');
console.log(masks(pairCounts(encoding, LOWERCASE_VOCABULARY).lowercase, LOWERCASE_MINIMUM).join(', '));
console.log('commonUppercaseFollowers:');
console.log(masks(pairCounts(encoding, UPPERCASE_VOCABULARY).uppercase, UPPERCASE_MINIMUM).join(', '));

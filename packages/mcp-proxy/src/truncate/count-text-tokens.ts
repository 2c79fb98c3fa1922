import { estimateTokens } from '@spillway/core';
import type { TextValue } from '../large-text/large-text';

/** Texts up to this length are counted in full; longer ones from a head and a tail sample. */
const FULL_COUNT_MAX_CHARS = 262_144;
const SAMPLE_CHARS = 65_536;

/**
 * Estimated tokens of `text` (`@spillway/core`'s `estimateTokens`). A text longer than 256K
 * characters is estimated from its first and last 64K characters scaled to its length, so a 50 MB
 * result costs the same as a 128 KB one; the estimate of the part a cut result keeps is always exact.
 * A large text (read in pieces) is only sliced, never joined.
 */
export function countTextTokens(text: TextValue): number {
  if (text.length <= FULL_COUNT_MAX_CHARS) return estimateTokens(text.toString());
  const sampleTokens =
    estimateTokens(text.slice(0, SAMPLE_CHARS)) + estimateTokens(text.slice(text.length - SAMPLE_CHARS));
  return Math.ceil((sampleTokens / (2 * SAMPLE_CHARS)) * text.length);
}

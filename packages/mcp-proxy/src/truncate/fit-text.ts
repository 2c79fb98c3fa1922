import { cutPoints } from '@spillway/core';
import type { TextValue } from '../large-text/large-text';
import { countTextTokens } from './count-text-tokens';

/** Where a text was cut: `text.slice(0, headEnd)` and `text.slice(tailStart)` were kept. */
export interface TextCut {
  /** Characters (UTF-16 code units) of the whole text. */
  readonly total: number;
  /** Estimated tokens of the whole text. */
  readonly tokenCount: number;
  /** End of the kept head (exclusive). */
  readonly headEnd: number;
  /** Start of the kept tail. */
  readonly tailStart: number;
}

/** Options of {@link fitText}. */
export interface FitTextOptions {
  /** Token budget of the output, marker included. */
  maxTokens: number;
  /**
   * Share of the kept characters that goes to the head.
   * @default 0.5
   */
  headRatio?: number;
  /** The text placed between head and tail; called with the final cut and with trial cuts. */
  marker: (cut: TextCut) => string;
  /**
   * Estimated tokens of `text`, when the caller already knows them.
   * @default countTextTokens(text)
   */
  tokenCount?: number;
}

/** The output of {@link fitText}: the same text and no cut when the text fits. */
export interface FitTextResult<T extends TextValue = string> {
  readonly text: T | string;
  readonly cut: TextCut | undefined;
}

const MAX_ATTEMPTS = 6;

/**
 * Shortens `text` to about `maxTokens` estimated tokens as head + marker + tail. The cut points come
 * from `@spillway/core`'s `cutPoints`, the ones `truncateText` uses (line-boundary preference, never
 * a split surrogate pair);
 * the marker is the caller's, so it can state totals and how to page. Work is proportional to the
 * kept part, not to the text (a large text read in pieces is only sliced, never joined).
 */
export function fitText<T extends TextValue>(
  text: T,
  { maxTokens, headRatio = 0.5, marker, tokenCount }: FitTextOptions,
): FitTextResult<T> {
  const total = text.length;
  const fullTokens = tokenCount ?? countTextTokens(text);
  if (fullTokens <= maxTokens || !Number.isFinite(maxTokens)) return { text, cut: undefined };

  const widestMarker = marker({ total, tokenCount: fullTokens, headEnd: total, tailStart: total }).length;
  const charsPerToken = total / Math.max(1, fullTokens);
  let keep = Math.floor(maxTokens * charsPerToken) - widestMarker;
  let last: { text: string; cut: TextCut } | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const cut = cutAt(text, Math.max(0, keep), headRatio, fullTokens);
    const output = text.slice(0, cut.headEnd) + marker(cut) + text.slice(cut.tailStart);
    last = { text: output, cut };
    const outputTokens = countTextTokens(output);
    if (outputTokens <= maxTokens || keep <= 0) return last;
    const markerTokens = countTextTokens(marker(cut));
    const scale = Math.max(0, maxTokens - markerTokens) / Math.max(1, outputTokens - markerTokens);
    keep = Math.min(keep - 1, Math.floor(keep * scale * 0.97));
  }
  const cut = { total, tokenCount: fullTokens, headEnd: 0, tailStart: total };
  return last !== undefined && countTextTokens(last.text) <= maxTokens ? last : { text: marker(cut), cut };
}

/** Head end and tail start when `keep` characters are kept, as `truncateText` chooses them. */
function cutAt(text: TextValue, keep: number, headRatio: number, tokenCount: number): TextCut {
  const total = text.length;
  if (keep <= 0) return { total, tokenCount, headEnd: 0, tailStart: total };
  if (typeof text === 'string')
    return { total, tokenCount, ...cutPoints(text, { keepChars: keep, headRatio }) };
  // `cutPoints` looks only near the two cut points (up to its 200-character line window, plus one
  // character either side): the head and the tail of the text, side by side, give the same points.
  const reach = Math.ceil(keep) + CUT_POINT_REACH;
  if (2 * reach >= total) {
    return { total, tokenCount, ...cutPoints(text.toString(), { keepChars: keep, headRatio }) };
  }
  const probe = text.slice(0, reach) + text.slice(total - reach);
  const { headEnd, tailStart } = cutPoints(probe, { keepChars: keep, headRatio });
  return { total, tokenCount, headEnd, tailStart: tailStart + (total - probe.length) };
}

/** How far past the kept characters `cutPoints` may look (its line window of 200, and a margin). */
const CUT_POINT_REACH = 256;

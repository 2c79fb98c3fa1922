import { createEstimator, imageTokens } from '@spillway/core';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { hashText } from '../random/hash-text';
import type { BenchRequest, RequestMessage, RequestPart } from '../request/bench-request';

/**
 * Counts tokens the way the benchmark reports them, for every strategy alike: text with OpenAI's
 * o200k_base (js-tiktoken), images by OpenAI's published tile formula (85 + 170 per 512-px tile),
 * 4 tokens of framing per message and 3 per tool call or result.
 */
export interface TokenCounter {
  text(text: string): number;
  part(part: RequestPart): number;
  message(message: RequestMessage): number;
  request(request: BenchRequest): number;
  /**
   * The exact counts of every text counted so far, keyed by {@link textKey} (for the on-disk
   * conversation cache); empty for an estimating counter.
   */
  exportCounts(): Record<string, number>;
  /** Counts from {@link exportCounts} of an earlier run: a text whose key is known is not encoded again. */
  preload(counts: Readonly<Record<string, number>>): void;
}

/** A text's key in exported counts: two 32-bit hashes of it and its length (collisions: ~2⁻⁶⁴). */
export function textKey(text: string): string {
  return `${hashText(text, 0x9e3779b9).toString(36)}.${hashText(text, 0x85ebca6b).toString(36)}.${text.length}`;
}

/** Framing tokens per message (role markers), as OpenAI's chat format spends them. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Framing tokens per tool call or tool result. */
export const TOOL_OVERHEAD_TOKENS = 3;
/**
 * BPE on one very long unbroken piece (a base64 blob) is quadratic in js-tiktoken; texts are
 * counted in pieces of at most this many characters, cut at a line break or space when one is near.
 * The sum differs from a one-piece count by at most a token or two per cut.
 */
const PIECE_CHARS = 2_000;

let encoder: Tiktoken | undefined;

/** Options of {@link createTokenCounter}. */
export interface TokenCounterOptions {
  /**
   * How text is counted. `o200k`: exactly, with js-tiktoken (every number the benchmark reports).
   * `estimate`: with `@spillway/core`'s content-class estimator (fitted to o200k, within a few
   * percent, hundreds of times faster), for the counts strategies steer by: LangChain's
   * summarization recounts partial messages hundreds of times per summary, which exact BPE makes
   * take minutes.
   * @default 'o200k'
   */
  text?: 'o200k' | 'estimate';
}

/**
 * A {@link TokenCounter}. Texts are memoised by content, so counting a request that repeats the
 * previous one's texts costs lookups, not encodes.
 */
export function createTokenCounter({ text: method = 'o200k' }: TokenCounterOptions = {}): TokenCounter {
  const estimator = method === 'estimate' ? createEstimator() : undefined;
  if (estimator === undefined) encoder ??= new Tiktoken(o200kBase);
  const exact = encoder;
  const texts = new Map<string, number>();
  const known = new Map<string, number>();
  const images = new Map<string, number>();
  const text = (value: string): number => {
    if (value.length === 0) return 0;
    let count = texts.get(value);
    if (estimator !== undefined) {
      // Memoised too: strategies recount the same texts at every call.
      if (count === undefined) {
        count = estimator.countText(value);
        texts.set(value, count);
      }
      return count;
    }
    if (count === undefined && known.size > 0) {
      count = known.get(textKey(value));
      if (count !== undefined) texts.set(value, count);
    }
    if (count === undefined) {
      count = 0;
      for (let start = 0; start < value.length; ) {
        let end = Math.min(value.length, start + PIECE_CHARS);
        if (end < value.length) {
          const breakAt = Math.max(value.lastIndexOf('\n', end), value.lastIndexOf(' ', end));
          if (breakAt > start + PIECE_CHARS / 2) end = breakAt;
        }
        count += exact!.encode(value.slice(start, end)).length;
        start = end;
      }
      texts.set(value, count);
    }
    return count;
  };
  const image = (data: string, mediaType: string): number => {
    let count = images.get(data);
    if (count === undefined) {
      count = data.startsWith('http')
        ? imageTokens({ type: 'image', url: data }, { provider: 'openai' })
        : imageTokens({ type: 'image', data, mediaType }, { provider: 'openai' });
      images.set(data, count);
    }
    return count;
  };
  const part = (value: RequestPart): number => {
    switch (value.type) {
      case 'text':
        return text(value.text);
      case 'image':
        return image(value.data, value.mediaType);
      case 'tool-call':
        return TOOL_OVERHEAD_TOKENS + text(value.toolName) + text(value.input);
      case 'tool-result':
        return (
          TOOL_OVERHEAD_TOKENS +
          value.content.reduce(
            (sum, item) => sum + (item.type === 'text' ? text(item.text) : image(item.data, item.mediaType)),
            0,
          )
        );
    }
  };
  const message = (value: RequestMessage): number =>
    value.parts.reduce((sum, item) => sum + part(item), MESSAGE_OVERHEAD_TOKENS);
  return {
    text,
    part,
    message,
    request: (request) => request.reduce((sum, item) => sum + message(item), 0),
    exportCounts: () => {
      const counts: Record<string, number> = {};
      if (estimator === undefined) for (const [value, count] of texts) counts[textKey(value)] = count;
      return counts;
    },
    preload: (counts) => {
      if (estimator !== undefined) return;
      for (const [key, count] of Object.entries(counts)) known.set(key, count);
    },
  };
}

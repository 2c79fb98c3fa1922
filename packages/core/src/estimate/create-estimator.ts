import { LRUCache } from 'lru-cache';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { contentMemo } from '../message/content-memo';
import { listMemos } from '../message/list-memos';
import type {
  FilePart,
  ImagePart,
  Message,
  MessagePart,
  OpaquePart,
  ToolResultPart,
} from '../message/message';
import { estimateTextTokens } from './estimate-text-tokens';
import type { Estimator } from './estimator';
import { fileTokens } from './file-tokens';
import { type ImageProvider, imageTokens } from './image-tokens';
import { jsonForCounting } from './json-for-counting';

/** Options of `createEstimator`. */
export interface EstimatorOptions {
  /**
   * An exact tokenizer for text, e.g. a js-tiktoken wrapper
   * (`(text) => encoding.encode(text).length`). When given it counts every piece of text (text and
   * reasoning parts, tool names, tool inputs and results, text files, opaque values) instead of the
   * built-in heuristic. A call that throws or returns something other than a finite count ≥ 0
   * falls back to the heuristic for that text.
   * @default undefined (the built-in `estimateTextTokens`, fitted to o200k_base)
   */
  tokenizer?: (text: string) => number;
  /**
   * Whose formula counts images: `anthropic` (w×h/750), `openai` (512 px tiles) or `google`
   * (768 px tiles). See `imageTokens`.
   * @default 'anthropic'
   */
  imageProvider?: ImageProvider;
  /**
   * Tokens added per message for its framing (role markers, separators), as chat templates add.
   * @default 4
   */
  messageOverheadTokens?: number;
  /**
   * The lower end of the band of plausible calibration observations (actual ÷ estimated). A
   * response whose ratio falls outside the band is an outlier (a provider that sent more than the
   * prompt, cached or batched usage, a misreported count) and is ignored, so one odd call cannot
   * swing the thresholds.
   * @default 0.5
   */
  minimumCalibrationFactor?: number;
  /**
   * The upper end of that band: observations above it are ignored as outliers.
   * @default 2
   */
  maximumCalibrationFactor?: number;
  /**
   * Weight of each new observation in the exponentially smoothed factor, in (0, 1]. The factor
   * starts at 1 and moves this share of the way towards each observation inside the band, so it
   * follows a steady difference within a few responses and never jumps on one.
   * @default 0.3
   */
  calibrationSmoothing?: number;
  /**
   * Texts of 256 characters or more are remembered by content, up to this many characters in all
   * (least recently used forgotten first), so a request that carries the same tool results in new
   * objects (the AI SDK builds the prompt anew on every call) does not estimate them again. `0`
   * turns the cache off; message objects are memoised by identity regardless.
   * @default 4_000_000
   */
  textCacheChars?: number;
}

/** Lists whose totals are remembered (the last few, of this many messages or more). */
const RECENT_TOTALS = 3;
const RECENT_TOTAL_MIN_MESSAGES = 32;

/** Whether two lists hold the same message objects in the same order. */
function sameElements(first: readonly Message[], second: readonly Message[]): boolean {
  if (first.length !== second.length) return false;
  for (let index = 0; index < first.length; index++) if (first[index] !== second[index]) return false;
  return true;
}

/** Texts shorter than this are estimated every time: a cache lookup would cost about as much. */
const CACHED_TEXT_MIN_CHARS = 256;

/** Framing of a tool call (ids, type tags, argument wrapper) beyond its name, id and input. */
const TOOL_CALL_OVERHEAD_TOKENS = 6;
/** Framing of a tool result beyond its id and content. */
const TOOL_RESULT_OVERHEAD_TOKENS = 4;
/** o200k_base reads random base64 at about this many characters per token (measured: 40,000 → 27,287). */
const BASE64_CHARS_PER_TOKEN = 1.466;
/** Binary data inside opaque values and tool inputs: bytes per token (as a file of that size). */
const BINARY_BYTES_PER_TOKEN = 500;

const imageProviders: readonly ImageProvider[] = ['anthropic', 'openai', 'google'];

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function validate({
  tokenizer,
  imageProvider,
  messageOverheadTokens,
  minimumCalibrationFactor,
  maximumCalibrationFactor,
  calibrationSmoothing,
  textCacheChars,
}: Required<Omit<EstimatorOptions, 'tokenizer'>> & Pick<EstimatorOptions, 'tokenizer'>): void {
  if (tokenizer !== undefined && typeof tokenizer !== 'function') {
    throw new InvalidConfigError({
      option: 'tokenizer',
      value: tokenizer,
      message: 'must be a function (text) => number',
    });
  }
  if (!imageProviders.includes(imageProvider)) {
    throw new InvalidConfigError({
      option: 'imageProvider',
      value: imageProvider,
      message: `must be one of ${imageProviders.map((provider) => `'${provider}'`).join(', ')}`,
    });
  }
  if (!isFiniteNumber(messageOverheadTokens) || messageOverheadTokens < 0) {
    throw new InvalidConfigError({
      option: 'messageOverheadTokens',
      value: messageOverheadTokens,
      message: 'must be a finite number ≥ 0',
    });
  }
  if (!isFiniteNumber(minimumCalibrationFactor) || minimumCalibrationFactor <= 0) {
    throw new InvalidConfigError({
      option: 'minimumCalibrationFactor',
      value: minimumCalibrationFactor,
      message: 'must be a finite number > 0',
    });
  }
  if (!isFiniteNumber(maximumCalibrationFactor) || maximumCalibrationFactor < minimumCalibrationFactor) {
    throw new InvalidConfigError({
      option: 'maximumCalibrationFactor',
      value: maximumCalibrationFactor,
      message: `must be a finite number ≥ minimumCalibrationFactor (${minimumCalibrationFactor})`,
    });
  }
  if (!isFiniteNumber(calibrationSmoothing) || calibrationSmoothing <= 0 || calibrationSmoothing > 1) {
    throw new InvalidConfigError({
      option: 'calibrationSmoothing',
      value: calibrationSmoothing,
      message: 'must be a number in (0, 1]',
    });
  }
  if (!Number.isInteger(textCacheChars) || textCacheChars < 0) {
    throw new InvalidConfigError({
      option: 'textCacheChars',
      value: textCacheChars,
      message: 'must be a whole number of characters ≥ 0',
    });
  }
}

/**
 * Creates an `Estimator`: token counts for text, parts and messages, memoised per message object,
 * and a per-model calibration learned from the providers' reported usage.
 *
 * Counting rules (all uncalibrated):
 * - text and reasoning parts: their text;
 * - images: `imageTokens` with `imageProvider`; files: `fileTokens`;
 * - tool calls: tool name + call id + the input's JSON (a string input as is) + 6;
 * - tool results: call id + each content part (text, images, files, opaque) + 4;
 * - opaque parts: `text` when present, else the JSON of `value`, binary data (typed arrays,
 *   `ArrayBuffer`s) counted as one token per 500 bytes without being stringified;
 * - a message: its parts + `messageOverheadTokens`.
 *
 * Re-counting a message object is a lookup (a `WeakMap` keyed by the message holds its raw count),
 * so counting a conversation that grew by one message costs one message. A new object that the
 * compactor found to hold exactly the content of an earlier one (a request rebuilt from JSON) is a
 * lookup too, and counting a list of the same objects as one of the last three lists counted (of
 * 32 messages or more) is one pass over the two arrays. Replace a message rather than mutating it:
 * a mutated message keeps its old count.
 *
 * @throws {InvalidConfigError} when an option is invalid (e.g. calibration bounds reversed).
 */
export function createEstimator({
  tokenizer,
  imageProvider = 'anthropic',
  messageOverheadTokens = 4,
  minimumCalibrationFactor = 0.5,
  maximumCalibrationFactor = 2,
  calibrationSmoothing = 0.3,
  textCacheChars = 4_000_000,
}: EstimatorOptions = {}): Estimator {
  validate({
    tokenizer,
    imageProvider,
    messageOverheadTokens,
    minimumCalibrationFactor,
    maximumCalibrationFactor,
    calibrationSmoothing,
    textCacheChars,
  });

  const countFreshText =
    tokenizer === undefined
      ? estimateTextTokens
      : (text: string): number => {
          if (text.length === 0) return 0;
          try {
            const count = tokenizer(text);
            if (isFiniteNumber(count) && count >= 0) return count;
          } catch {
            // Fall back to the heuristic below.
          }
          return estimateTextTokens(text);
        };

  const textCache =
    textCacheChars > 0
      ? new LRUCache<string, number>({
          maxSize: textCacheChars,
          sizeCalculation: (_count, text) => text.length,
        })
      : undefined;
  const countText = (text: string): number => {
    if (textCache === undefined || text.length < CACHED_TEXT_MIN_CHARS || text.length > textCacheChars) {
      return countFreshText(text);
    }
    const known = textCache.get(text);
    if (known !== undefined) return known;
    const count = countFreshText(text);
    textCache.set(text, count);
    return count;
  };

  const textOf = (value: unknown): number => (typeof value === 'string' ? countText(value) : 0);

  const countValue = (value: unknown): number => {
    if (typeof value === 'string') return countText(value);
    if (value === undefined) return 0;
    const { text, binaryBytes } = jsonForCounting(value);
    return countText(text) + Math.ceil(binaryBytes / BINARY_BYTES_PER_TOKEN);
  };

  const countOpaque = (part: OpaquePart): number =>
    typeof part.text === 'string' ? countText(part.text) : countValue(part.value);

  /** Media a provider sends inside a tool message as JSON text: its base64, counted as text. */
  const countMediaAsText = (part: ImagePart | FilePart): number => {
    const { data, url } = part;
    if (typeof data === 'string') return countText(data);
    if (data != null && typeof data.byteLength === 'number') {
      return Math.ceil((Math.ceil(data.byteLength / 3) * 4) / BASE64_CHARS_PER_TOKEN);
    }
    return typeof url === 'string' ? countText(url) : 0;
  };

  /** The counting functions for one provider profile, each with its own per-message memo. */
  const makeCounter = (formula: ImageProvider, toolResultMediaAsText: boolean) => {
    const countToolResult = (part: ToolResultPart): number => {
      let tokens = TOOL_RESULT_OVERHEAD_TOKENS + textOf(part.toolCallId);
      const { content } = part;
      if (typeof content === 'string') return tokens + countText(content);
      if (!Array.isArray(content)) return tokens + countValue(content);
      for (const item of content as readonly MessagePart[]) {
        tokens +=
          toolResultMediaAsText && (item?.type === 'image' || item?.type === 'file')
            ? countMediaAsText(item)
            : countPart(item);
      }
      return tokens;
    };

    const countPart = (part: MessagePart): number => {
      if (typeof part !== 'object' || part === null) return countValue(part);
      switch (part.type) {
        case 'text':
        case 'reasoning':
          return textOf(part.text);
        case 'image':
          return imageTokens(part, { provider: formula });
        case 'file':
          return fileTokens(part, { countText });
        case 'tool-call':
          return (
            TOOL_CALL_OVERHEAD_TOKENS +
            textOf(part.toolName) +
            textOf(part.toolCallId) +
            countValue(part.input)
          );
        case 'tool-result':
          return countToolResult(part);
        case 'opaque':
          return countOpaque(part);
        default:
          return countValue(part);
      }
    };

    const messageCounts = new WeakMap<object, number>();
    /** Identifies this counter's counts in the shared content memos. */
    const identity = {};
    const countMessage = (message: Message): number => {
      if (typeof message !== 'object' || message === null) return 0;
      // A message the conversation memo recognized (a request rebuilt from JSON) shares its
      // content's memo with the equal messages of earlier requests; any other is memoised by
      // identity.
      const shared = contentMemo(message);
      if (shared !== undefined && shared.countedBy === identity) return shared.count;
      const known = messageCounts.get(shared ?? message);
      if (known !== undefined) return known;
      let tokens = messageOverheadTokens;
      const { content } = message;
      if (typeof content === 'string') tokens += countText(content);
      else if (Array.isArray(content))
        for (const part of content as readonly MessagePart[]) tokens += countPart(part);
      if (shared !== undefined && shared.countedBy === undefined) {
        shared.countedBy = identity;
        shared.count = tokens;
      } else {
        messageCounts.set(shared ?? message, tokens);
      }
      return tokens;
    };
    return { countPart, countMessage, identity };
  };

  const factors = new Map<string, number>();
  const views = new Map<string, Estimator>();

  const makeEstimator = (formula: ImageProvider, toolResultMediaAsText: boolean): Estimator => {
    const { countPart, countMessage, identity } = makeCounter(formula, toolResultMediaAsText);
    /** The totals of the lists counted last (messages are memoised by identity, so they hold). */
    const recentTotals: { messages: readonly Message[]; tokens: number }[] = [];
    const estimator: Estimator = {
      countText: (text) => textOf(text),
      countPart,
      countMessage,
      countMessages(messages) {
        // The same messages counted a moment ago (a request counts its conversation several
        // times, in new arrays): comparing the arrays touches no message, so it costs far less than
        // looking each one up again.
        const known = recentTotals.find((recent) => sameElements(recent.messages, messages));
        if (known !== undefined) return known.tokens;
        let tokens = 0;
        // A recognized request's counts are read from its memos, not through each message.
        const memos = listMemos(messages);
        // An index loop: no iterator objects for the many kinds of lists counted here.
        for (let index = 0; index < messages.length; index++) {
          const memo = memos?.[index];
          tokens +=
            memo !== undefined && memo.countedBy === identity ? memo.count : countMessage(messages[index]!);
        }
        if (messages.length >= RECENT_TOTAL_MIN_MESSAGES) {
          recentTotals.unshift({ messages: messages.slice(), tokens });
          if (recentTotals.length > RECENT_TOTALS) recentTotals.pop();
        }
        return tokens;
      },
      calibrated(tokenCount, model) {
        if (Number.isNaN(tokenCount) || tokenCount <= 0) return 0;
        if (tokenCount === Number.POSITIVE_INFINITY) return tokenCount;
        return Math.round(tokenCount * (factors.get(model ?? '') ?? 1));
      },
      calibrate(input) {
        if (typeof input !== 'object' || input === null) return;
        const { model, estimatedTokens, actualTokens } = input;
        if (!isFiniteNumber(estimatedTokens) || !isFiniteNumber(actualTokens)) return;
        if (estimatedTokens <= 0 || actualTokens <= 0) return;
        const observed = actualTokens / estimatedTokens;
        // Outside the band: an outlier (cached or batched usage, a misreport), not the tokenizer.
        if (observed < minimumCalibrationFactor || observed > maximumCalibrationFactor) return;
        const key = typeof model === 'string' ? model : '';
        const previous = factors.get(key) ?? 1;
        factors.set(key, previous + calibrationSmoothing * (observed - previous));
      },
      calibrationFactor(model) {
        return factors.get(model ?? '') ?? 1;
      },
      forProvider({ imageFormula, toolResultMedia }) {
        const asText = toolResultMedia === 'text';
        if (imageFormula === imageProvider && !asText) return base;
        const key = `${imageFormula}|${asText}`;
        let view = views.get(key);
        if (view === undefined) {
          view = makeEstimator(imageFormula, asText);
          views.set(key, view);
        }
        return view;
      },
    };
    return estimator;
  };
  const base = makeEstimator(imageProvider, false);
  return base;
}

import type { FilePart, ImagePart, Message } from '../message/message';
import { messageText } from '../message/message-parts';
import { type SalientSentence, salientSentenceParts, sentenceTexts } from '../summarize/salient-sentences';
import { imagePlaceholderWithRef } from '../truncate/image-placeholder';
import { shortenPastedBlobs } from '../truncate/shorten-pasted-blobs';
import { isUserTurn } from './current-turn';

/** The first line of the block of the user's own words. */
export const USER_WORDS_HEADING =
  "The user's own words in that part of the conversation, verbatim (oldest first):";

/**
 * The share of a span's own tokens its user words may take beside its summary or note: what
 * stands in for a span is never larger than the span.
 */
const USER_WORDS_SPAN_SHARE = 0.5;

/** The bound on the block of the user's words of `messages`: `maxTokens`, and at most half the span. */
export function userWordsBound(
  messages: readonly Message[],
  maxTokens: number,
  countMessages: (messages: readonly Message[]) => number,
): number {
  return Math.min(maxTokens, Math.floor(countMessages(messages) * USER_WORDS_SPAN_SHARE));
}

/** Options of {@link userWordsBlock}. */
export interface UserWordsBlockOptions {
  /** Conversation number (0-based, system messages not counted) of `messages[0]`'s first conversation message. */
  firstNumber: number;
  /** The most tokens the block may take; the oldest messages are condensed first to stay within it. */
  maxTokens: number;
  countText: (text: string) => number;
  /** Pasted blobs (logs, code, JSON) in the user's messages are shortened above this many characters. */
  blobMinChars: number;
  blobKeepChars: number;
  /** The reference of an image or file the user sent (written after its placeholder). */
  imageRef?: ((part: ImagePart | FilePart) => string | undefined) | undefined;
  /**
   * Where the condensed messages went, for the line that names them: beside a summary they are
   * `condensed into the summary above`; in a drop note there is none, and they are `left out for room`.
   * @default 'summary'
   */
  beside?: 'summary' | 'note';
}

/** What {@link userWordsBlock} returns. */
export interface UserWordsBlock {
  /** The block; `undefined` when the span holds no words of the user. */
  readonly text: string | undefined;
  /**
   * Conversation numbers of the user messages quoted, whole or in part: every rule and revocation
   * `detectRules` finds in them is in the block.
   */
  readonly quoted: ReadonlySet<number>;
  /** Those of `quoted` quoted whole (a message pinned explicitly is in the block only then). */
  readonly whole: ReadonlySet<number>;
  /** How many of the span's user messages were condensed (left out, oldest first). */
  readonly condensed: number;
}

/**
 * The user's own words of a span that a summary (or a drop) took out of the request: every message
 * in which the user spoke, verbatim (pasted logs and code shortened like tool output), oldest first,
 * each after its message number — `[message 3] …`, images and files they sent as placeholders with
 * their reference. When they are over `maxTokens`, they give way oldest first, in three steps: a
 * message is first shortened to its sentences that name something or carry a choice, a direction
 * or a rule (`[message 3, in part] …`, see `salientSentenceParts`; one with none is left out); when
 * every message is so shortened and the block is still over, the oldest lose the sentences that only
 * name something (the summary's identifier line lists the identifiers among them, not bare numbers
 * or names; nothing would carry a direction the rule detector missed); only then are the oldest
 * left out (the summary covers them, their identifiers are appended to it, and the standing
 * instructions the detector or the summarizer found are in the pinned block), with one line saying
 * which.
 * Deterministic: the same span and bound give the same block, so the request's prefix holds.
 */
export function userWordsBlock(
  messages: readonly Message[],
  {
    firstNumber,
    maxTokens,
    countText,
    blobMinChars,
    blobKeepChars,
    imageRef,
    beside = 'summary',
  }: UserWordsBlockOptions,
): UserWordsBlock {
  const quotes: Quote[] = [];
  let number = firstNumber;
  for (const message of messages) {
    if (message.role === 'system') continue;
    const own = number++;
    if (!isUserTurn(message)) continue;
    const shortened = shortenPastedBlobs(message, {
      minChars: blobMinChars,
      keepChars: blobKeepChars,
    }).message;
    // Images and files the user sent stay as placeholders with their reference.
    const media = Array.isArray(shortened.content)
      ? shortened.content
          .filter((part): part is ImagePart | FilePart => part?.type === 'image' || part?.type === 'file')
          .map((part) => imagePlaceholderWithRef(part, imageRef?.(part)))
      : [];
    const words = messageText(shortened).trim();
    const text = [words, ...media].filter((piece) => piece !== '').join('\n');
    if (text === '') continue;
    const line = `[message ${own + 1}] ${text}`;
    quotes.push({ number: own, line, tokens: countText(line) + 1, words, media });
  }
  if (quotes.length === 0) return { text: undefined, quoted: new Set(), whole: new Set(), condensed: 0 };
  const forms = condense(quotes, maxTokens - (countText(USER_WORDS_HEADING) + 24), countText);
  const kept = forms.filter((form): form is string => form !== undefined);
  const left = quotes.filter((_, index) => forms[index] === undefined).map((quote) => quote.number + 1);
  const lines = kept.length > 0 ? [USER_WORDS_HEADING] : [];
  if (left.length > 0) {
    const where = beside === 'summary' ? 'condensed into the summary above' : 'left out for room';
    // The oldest, one run of them: their range; left out here and there too: how many, from where to where.
    const prefix = forms.slice(0, left.length).every((form) => form === undefined);
    lines.push(
      left.length === 1
        ? `[user message ${left[0]}: ${where}]`
        : prefix
          ? `[user messages ${left[0]}–${left.at(-1)}: ${where}]`
          : `[${left.length} user messages from ${left[0]} to ${left.at(-1)}, not quoted below: ${where}]`,
    );
  }
  lines.push(...kept);
  return {
    text: lines.join('\n'),
    quoted: new Set(quotes.filter((_, index) => forms[index] !== undefined).map((quote) => quote.number)),
    whole: new Set(quotes.filter((quote, index) => forms[index] === quote.line).map((quote) => quote.number)),
    condensed: left.length,
  };
}

/** One user message of the span: its line verbatim, and what it says (for its shortened form). */
interface Quote {
  number: number;
  line: string;
  tokens: number;
  words: string;
  media: string[];
}

/**
 * Each quote's line in the block within `maxTokens` (`undefined`: left out). Oldest first, a
 * message gives way in three steps: to its sentences that name something or carry a choice, a
 * direction or a rule (`[message N, in part] …`; a message with none is left out); when every
 * message is so shortened and the block is still over, to those that carry a choice, a direction or
 * a rule; and only then are the oldest left out.
 *
 * Measured (the middle step, on the quality benchmark's tune split, 5% window, default row): needles
 * 205 → 214 of 260 (implicit facts 27 → 35 of 35), nothing lost, the same tokens and breaks; on
 * `operationsSession` seeds 20–25 (not looked at before), rules at 5% on seeds 24 and 25 92–97% →
 * 94–98% (the other four 100% before and after), every other class unchanged. Measured once on the
 * held-out split: default suite 198 → 204 of 259 (decisions 33 → 38, implicit facts 24 → 22);
 * `--full` 469 → 473 of 623 (decisions 68 → 76; superseded settings 59 → 56, implicit facts and
 * rules one fewer each: bare numbers and names that only the dropped sentences carried).
 */
function condense(
  quotes: readonly Quote[],
  maxTokens: number,
  countText: (text: string) => number,
): (string | undefined)[] {
  const forms: (string | undefined)[] = quotes.map((quote) => quote.line);
  const costs = quotes.map((quote) => quote.tokens);
  let total = costs.reduce((sum, tokens) => sum + tokens, 0);
  // Each message's salient sentences, found once for both steps.
  const parts: (SalientSentence[] | undefined)[] = [];
  for (const names of [true, false]) {
    for (let index = 0; index < quotes.length && total > maxTokens; index++) {
      const quote = quotes[index]!;
      if (forms[index] === undefined) continue;
      parts[index] ??= salientSentenceParts(quote.words);
      const sentences = sentenceTexts(parts[index]!, { names });
      const line =
        sentences.length === 0 && quote.media.length === 0
          ? undefined
          : [
              `[message ${quote.number + 1}, in part] ${sentences.join(' … ')}`.trimEnd(),
              ...quote.media,
            ].join('\n');
      const tokens = line === undefined ? 0 : countText(line) + 1;
      if (tokens >= costs[index]!) continue;
      forms[index] = line;
      total -= costs[index]! - tokens;
      costs[index] = tokens;
    }
  }
  for (let index = 0; index < quotes.length && total > maxTokens; index++) {
    if (forms[index] === undefined) continue;
    total -= costs[index]!;
    forms[index] = undefined;
  }
  return forms;
}

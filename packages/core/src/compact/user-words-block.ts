import type { FilePart, ImagePart, Message } from '../message/message';
import { messageText } from '../message/message-parts';
import { imagePlaceholderWithRef } from '../truncate/image-placeholder';
import { shortenPastedBlobs } from '../truncate/shorten-pasted-blobs';
import { isUserTurn } from './current-turn';

/** The first line of the block of the user's own words. */
export const USER_WORDS_HEADING =
  "The user's own words in that part of the conversation, verbatim (oldest first):";

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
  /** Conversation numbers of the user messages quoted verbatim. */
  readonly quoted: ReadonlySet<number>;
  /** How many of the span's user messages were condensed (left out, oldest first). */
  readonly condensed: number;
}

/**
 * The user's own words of a span that a summary (or a drop) took out of the request: every message
 * in which the user spoke, verbatim (pasted logs and code shortened like tool output), oldest first,
 * each after its message number — `[message 3] …`, images and files they sent as placeholders with
 * their reference. When they are over `maxTokens`, the oldest are
 * condensed first: left out of the block (the summary covers them, their identifiers are appended to
 * it, and their standing instructions are in the pinned block), with one line saying which.
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
  const quotes: { number: number; line: string; tokens: number }[] = [];
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
    const text = [messageText(shortened).trim(), ...media].filter((piece) => piece !== '').join('\n');
    if (text === '') continue;
    const line = `[message ${own + 1}] ${text}`;
    quotes.push({ number: own, line, tokens: countText(line) + 1 });
  }
  if (quotes.length === 0) return { text: undefined, quoted: new Set(), condensed: 0 };
  const headingTokens = countText(USER_WORDS_HEADING) + 24;
  let total = headingTokens;
  for (const quote of quotes) total += quote.tokens;
  let first = 0;
  while (first < quotes.length && total > maxTokens) total -= quotes[first++]!.tokens;
  const kept = quotes.slice(first);
  const lines = kept.length > 0 ? [USER_WORDS_HEADING] : [];
  if (first > 0) {
    lines.push(
      `[user messages ${quotes[0]!.number + 1}–${quotes[first - 1]!.number + 1}: ${beside === 'summary' ? 'condensed into the summary above' : 'left out for room'}]`,
    );
  }
  for (const quote of kept) lines.push(quote.line);
  return { text: lines.join('\n'), quoted: new Set(kept.map((quote) => quote.number)), condensed: first };
}

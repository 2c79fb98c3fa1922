import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message } from '../message/message';
import { refAnnotation } from '../recall/recall-ref';
import type { TruncationRecord } from '../truncate/truncation-record';

/** Options of {@link collapseExchanges}. */
export interface CollapseExchangesOptions {
  /**
   * Only messages with an index below this are collapsed (the engine passes the start of the
   * protected window, at a grid point).
   * @default Infinity (every message)
   */
  before?: number;
  /**
   * A message is short when its text is at most this many characters.
   * @default 400
   */
  maxChars?: number;
  /**
   * Fewest user messages a collapsed run holds.
   * @default 2
   */
  minExchanges?: number;
  /**
   * The assistant's replies inside a collapsed run keep at most this many characters (cut at the end
   * of a sentence or word, marked with ` …`); the user's words are always kept whole.
   * @default 160
   */
  assistantChars?: number;
}

/** What {@link collapseExchanges} returns. */
export interface CollapseExchangesResult {
  /** The messages, each collapsed run replaced by one user message; everything else the same objects. */
  messages: Message[];
  /** One `collapsed` record per run, with the index of its first message in the input and its length. */
  records: TruncationRecord[];
}

/** A run of short exchanges that may be collapsed: `[start, end)` in the input. */
export interface ExchangeSpan {
  start: number;
  end: number;
}

/** The first line of a collapsed run. */
export const COLLAPSED_HEADER = '[Earlier exchanges, condensed]';

const DEFAULT_MAX_CHARS = 400;
const DEFAULT_MIN_EXCHANGES = 2;
const DEFAULT_ASSISTANT_CHARS = 160;

/**
 * Collapses runs of short exchanges without tool calls (chat, acknowledgements, quick questions)
 * into one user message that quotes them: `User: …` with the user's words verbatim, `Assistant: …`
 * with the reply shortened to `assistantChars`. A run starts at a short user message, alternates
 * short user and assistant messages (text only; an assistant's reasoning is dropped), and ends with
 * a user message whose reply — any assistant message, kept as it is — follows it. So the result
 * still alternates user and assistant wherever the input did, and opens with the user wherever the
 * input did (what strict providers such as Anthropic require). Messages with tool calls or results,
 * images, files or provider items are never part of a run; the input is never mutated.
 *
 * @throws {InvalidConfigError} when a number option is not a number (or `minExchanges` is below 2).
 */
export function collapseExchanges(
  messages: readonly Message[],
  {
    before = Number.POSITIVE_INFINITY,
    maxChars = DEFAULT_MAX_CHARS,
    minExchanges = DEFAULT_MIN_EXCHANGES,
    assistantChars = DEFAULT_ASSISTANT_CHARS,
  }: CollapseExchangesOptions = {},
): CollapseExchangesResult {
  checkCollapseOptions({ before, maxChars, minExchanges, assistantChars });
  const spans = collapsibleSpans(messages, exchangeRuns(messages, maxChars), before, minExchanges);
  const output: Message[] = [];
  const records: TruncationRecord[] = [];
  let index = 0;
  for (const span of spans) {
    output.push(...messages.slice(index, span.start));
    const collapsed = collapseSpan(messages, span, assistantChars);
    output.push(collapsed);
    records.push(collapsedRecord(messages, span, collapsed));
    index = span.end;
  }
  output.push(...messages.slice(index));
  return { messages: output, records };
}

/** Checks the options of {@link collapseExchanges}. */
export function checkCollapseOptions({
  before,
  maxChars,
  minExchanges,
  assistantChars,
}: Required<CollapseExchangesOptions>): void {
  const number = (option: string, value: unknown, min: number) => {
    if (typeof value !== 'number' || Number.isNaN(value) || value < min) {
      throw new InvalidConfigError({ option, value, message: `must be a number of at least ${min}` });
    }
  };
  number('before', before, Number.NEGATIVE_INFINITY);
  number('maxChars', maxChars, 0);
  number('minExchanges', minExchanges, 2);
  number('assistantChars', assistantChars, 0);
}

/**
 * The maximal runs of short, text-only messages that alternate user and assistant, starting with
 * the user: `[start, end)` each. Computed once; {@link collapsibleSpans} clips them to a limit.
 */
export function exchangeRuns(messages: readonly Message[], maxChars: number): ExchangeSpan[] {
  const runs: ExchangeSpan[] = [];
  let start = -1;
  for (let index = 0; index <= messages.length; index++) {
    const message = messages[index];
    const expected = start === -1 || (index - start) % 2 === 0 ? 'user' : 'assistant';
    const fits = message !== undefined && message.role === expected && isShortText(message, maxChars);
    if (fits && start === -1) start = index;
    else if (!fits && start !== -1) {
      runs.push({ start, end: index });
      start = -1;
      // This message may open the next run.
      if (message !== undefined && message.role === 'user' && isShortText(message, maxChars)) start = index;
    }
  }
  return runs;
}

/**
 * The spans to collapse: each run cut at `before`, then shortened to end with a user message that
 * an assistant message follows (the reply stays its own message), with at least `minExchanges`
 * user messages.
 */
export function collapsibleSpans(
  messages: readonly Message[],
  runs: readonly ExchangeSpan[],
  before: number,
  minExchanges: number,
): ExchangeSpan[] {
  const spans: ExchangeSpan[] = [];
  for (const run of runs) {
    if (run.start >= before) break;
    const limit = Math.min(run.end, before);
    // Users sit at even offsets from the start; find the last one followed by an assistant.
    let last = run.start + Math.floor((limit - 1 - run.start) / 2) * 2;
    while (last >= run.start && messages[last + 1]?.role !== 'assistant') last -= 2;
    if (last < run.start) continue;
    const users = (last - run.start) / 2 + 1;
    if (users >= minExchanges) spans.push({ start: run.start, end: last + 1 });
  }
  return spans;
}

/** The one user message that stands in for `messages[start, end)`. */
export function collapseSpan(
  messages: readonly Message[],
  { start, end }: ExchangeSpan,
  assistantChars: number,
  ref?: string,
): Message {
  const lines = [COLLAPSED_HEADER];
  let shortened = false;
  for (let index = start; index < end; index++) {
    const message = messages[index]!;
    const text = textOf(message);
    if (message.role === 'user') {
      lines.push(`User: ${text}`);
      continue;
    }
    const reply = shorten(text, assistantChars);
    shortened ||= reply !== text || Array.isArray(message.content);
    lines.push(`Assistant: ${reply}`);
  }
  // Replies were cut: the reference of the exchanges in full (recall, issue 16).
  if (shortened && ref !== undefined) lines.push(`[The exchanges in full: ${refAnnotation(ref)}]`);
  return { role: 'user', content: lines.join('\n') };
}

/** The record of one collapsed span. */
export function collapsedRecord(
  messages: readonly Message[],
  span: ExchangeSpan,
  collapsed: Message,
): TruncationRecord {
  let charsBefore = 0;
  for (let index = span.start; index < span.end; index++) charsBefore += textOf(messages[index]!).length;
  return {
    kind: 'collapsed',
    messageIndex: span.start,
    messageCount: span.end - span.start,
    charsBefore,
    charsAfter: (collapsed.content as string).length,
  };
}

/** A user or assistant message of text only (reasoning allowed for the assistant), at most `maxChars`. */
function isShortText(message: Message, maxChars: number): boolean {
  if (message.role !== 'user' && message.role !== 'assistant') return false;
  if (typeof message.content === 'string')
    return message.content.trim().length > 0 && message.content.length <= maxChars;
  if (!Array.isArray(message.content)) return false;
  let chars = 0;
  let texts = 0;
  for (const part of message.content) {
    if (part?.type === 'text' && typeof part.text === 'string') {
      chars += part.text.length;
      if (part.text.trim().length > 0) texts++;
    } else if (!(part?.type === 'reasoning' && message.role === 'assistant')) return false;
  }
  return texts > 0 && chars <= maxChars;
}

function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** `text` cut to at most `max` characters at a sentence or word end, marked with ` …`. */
function shorten(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim();
  if (flat.length <= max) return flat;
  let cut = max;
  const head = flat.slice(0, max);
  const sentence = Math.max(
    head.lastIndexOf('. '),
    head.lastIndexOf('! '),
    head.lastIndexOf('? '),
    head.lastIndexOf('。'),
  );
  const space = head.lastIndexOf(' ');
  if (sentence >= max / 2) cut = sentence + 1;
  else if (space >= max / 2) cut = space;
  const code = flat.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${flat.slice(0, cut).trimEnd()} …`;
}

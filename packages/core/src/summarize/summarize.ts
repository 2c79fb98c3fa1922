import { InvalidConfigError } from '../errors/invalid-config-error';
import { SummarizationError } from '../errors/summarization-error';
import { defaultEstimator } from '../estimate/default-estimator';
import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { truncateText } from '../truncate/truncate-text';
import { linkSignals, raceAbort } from './abortable';
import { DEFAULT_SUMMARY_PROMPT, MEMORY_INSTRUCTIONS } from './default-summary-prompt';
import { messageText } from '../message/message-parts';
import type { PinnedQuote } from '../store/compaction-state';
import { extractIdentifiers } from './extract-identifiers';
import { type RenderTranscriptOptions, renderMessage } from './render-transcript';
import { acceptStandingInstructions, splitStandingInstructions } from './standing-instructions';
import type { Summarizer, SummarizerOutput } from './summarizer';

/** Options of {@link summarize}. */
export interface SummarizeOptions {
  /** The messages to summarize, oldest first. */
  messages: readonly Message[];
  /** Makes the summary. */
  summarizer: Summarizer;
  /** A summary to merge the messages into (cumulative compaction). */
  previousSummary?: string;
  /**
   * The summarizer's own input budget in tokens (instructions + previous summary + transcript).
   * Longer spans are summarized in chunks, oldest first, each folded into the running summary.
   * @default 100000
   */
  maxInputTokens?: number;
  /**
   * Instructions for the summarizer.
   * @default DEFAULT_SUMMARY_PROMPT
   */
  summaryPrompt?: string;
  /** How the transcript is rendered (tool results shortened to 2,000 characters by default). */
  transcript?: RenderTranscriptOptions;
  /**
   * Check that identifiers (paths, URLs, ids, numbers) from the user's messages survive into the
   * summary; those it left out are appended to it on one line (`Identifiers the user gave: …`),
   * within the bound (the summary's middle is shortened to make room when it must). No second
   * call is made for them.
   * @default true
   */
  auditIdentifiers?: boolean;
  /**
   * The user's words in the span, by conversation number: a `Standing instructions:` list at the
   * end of the summary (see the default prompt) is checked against them, and only quotes found
   * verbatim are returned as `standingInstructions` (the list is removed from the summary).
   * @default the user messages of `messages`, numbered from 0
   */
  userTexts?: readonly { number: number; text: string }[];
  /**
   * Receives durable facts for long-term memory: those a summarizer returns as `memories`, and
   * lines starting with `MEMORY: ` in a text summary (the prompt asks for them when this is set).
   * Errors it throws are caught and returned as `memoryError`.
   */
  onMemory?: (memories: readonly string[]) => void | Promise<void>;
  /**
   * The bound on the summary, in tokens (counted with `estimator`). The summarizer is told it
   * (`SummarizerInput.maxTokens`, and a line in the prompt). A summary up to twice over it is
   * shortened to it (middle cut, head and tail kept); one further over is a failed attempt, retried
   * once like any failure. Chunked spans keep the running summary under it too.
   * @default 2048 (the seeds' SUMMARY_MAX_TOKENS)
   */
  maxSummaryTokens?: number;
  /**
   * Time limit for the whole call, in milliseconds: every summarizer call gets an `AbortSignal`
   * that fires at the deadline, and a call still running then is abandoned and counts as a failed
   * attempt (a retry is made only while time is left). `Infinity` means no limit.
   * @default Infinity
   */
  timeoutMs?: number;
  /** Counts tokens for chunking and the bound. @default a default estimator */
  estimator?: Estimator;
  /**
   * Aborts the summarizer at once (passed to it, and a call that ignores it is abandoned); the
   * abort reason is thrown.
   */
  abortSignal?: AbortSignal;
  /** Passed on to the summarizer. */
  conversationId?: string;
}

/** What {@link summarize} returns. */
export interface SummarizeResult {
  summary: string;
  /** Summarizer calls made (a failed or blank call counts). */
  calls: number;
  /** How many chunks the span was split into. */
  chunks: number;
  /** Durable facts handed to `onMemory`. */
  memories: string[];
  /** What `onMemory` threw, if it did. */
  memoryError?: unknown;
  /** Standing instructions the summarizer quoted that are found verbatim in the user's words. */
  standingInstructions: PinnedQuote[];
}

/** The seeds' bound on a summary, in tokens (SUMMARY_MAX_TOKENS). */
export const SUMMARY_MAX_TOKENS = 2_048;
/** The line that carries the identifiers a summary left out. */
export const IDENTIFIERS_LINE_PREFIX = 'Identifiers the user gave:';
/** The most of the bound the identifiers line may take. */
const IDENTIFIERS_SHARE = 0.25;
const MEMORY_LINE = /^\s*MEMORY:\s*(.+)$/gm;

/**
 * Summarizes a span of conversation with `summarizer`: renders a transcript, merges it into the
 * previous summary, splits spans too large for the summarizer's own budget into chunks, treats
 * blank output as a failure, retries a failed call exactly once, and audits identifiers.
 *
 * @throws {SummarizationError} when a chunk fails twice. Nothing is half-done: no partial summary
 * is returned.
 */
export async function summarize({
  messages,
  summarizer,
  previousSummary,
  maxInputTokens = 100_000,
  summaryPrompt = DEFAULT_SUMMARY_PROMPT,
  transcript: transcriptOptions,
  auditIdentifiers = true,
  onMemory,
  maxSummaryTokens = SUMMARY_MAX_TOKENS,
  timeoutMs = Number.POSITIVE_INFINITY,
  estimator = defaultEstimator(),
  abortSignal,
  conversationId,
  userTexts = userTextsOf(messages),
}: SummarizeOptions): Promise<SummarizeResult> {
  if (typeof summarizer !== 'function') {
    throw new InvalidConfigError({ option: 'summarizer', value: summarizer, message: 'must be a function' });
  }
  if (!(maxInputTokens > 0)) {
    throw new InvalidConfigError({
      option: 'maxInputTokens',
      value: maxInputTokens,
      message: 'must be above 0',
    });
  }
  if (!(maxSummaryTokens > 0)) {
    throw new InvalidConfigError({
      option: 'maxSummaryTokens',
      value: maxSummaryTokens,
      message: 'must be a number of tokens above 0',
    });
  }
  if (!(timeoutMs > 0)) {
    throw new InvalidConfigError({
      option: 'timeoutMs',
      value: timeoutMs,
      message: 'must be a number of milliseconds above 0 (Infinity for no limit)',
    });
  }
  abortSignal?.throwIfAborted();
  const system = onMemory ? summaryPrompt + MEMORY_INSTRUCTIONS : summaryPrompt;
  const rendered = messages
    .map((message) => ({ message, text: renderMessage(message, transcriptOptions) }))
    .filter((entry) => entry.text !== '');
  const chunkBudget = Math.max(
    1_000,
    maxInputTokens - estimator.countText(system) - Math.max(maxSummaryTokens, estimateOf(previousSummary)),
  );
  const chunks = chunkTranscript(rendered, chunkBudget, estimator);

  let running = previousSummary;
  let calls = 0;
  const memories: string[] = [];
  const deadline = linkSignals(
    [abortSignal],
    timeoutMs,
    `The summarizer did not finish within ${timeoutMs} ms.`,
  );
  try {
    for (const chunk of chunks) {
      const transcript = chunk.map((entry) => entry.text).join('\n\n');
      const prompt = buildPrompt(running, transcript, maxSummaryTokens);
      const previous = running;
      const chunkMessages = chunk.map((entry) => entry.message);
      const outcome = await summarizeChunk({
        call: () =>
          summarizer({
            system,
            prompt,
            messages: chunkMessages,
            previousSummary: previous,
            transcript,
            maxTokens: maxSummaryTokens,
            abortSignal: deadline.signal,
            conversationId,
          }),
        callerSignal: abortSignal,
        signal: deadline.signal,
        fitBound: (summary) => fitSummaryToBound(summary, maxSummaryTokens, estimator),
      });
      calls += outcome.calls;
      running = outcome.summary;
      memories.push(...outcome.memories);
    }
  } finally {
    deadline.dispose();
  }

  const split = splitStandingInstructions(running ?? '');
  const standingInstructions = acceptStandingInstructions(split.quotes, userTexts);
  let summary = split.summary.trim() === '' ? (running ?? '') : split.summary;
  if (auditIdentifiers) summary = withIdentifiers(summary, userTexts, maxSummaryTokens, estimator);

  let memoryError: unknown;
  if (onMemory && memories.length > 0) {
    try {
      await onMemory(memories);
    } catch (error) {
      memoryError = error;
    }
  }
  return { summary, calls, chunks: chunks.length, memories, memoryError, standingInstructions };

  function estimateOf(text: string | undefined): number {
    return text ? estimator.countText(text) : 0;
  }
}

/**
 * How far over its bound a summary may come back and still be used, shortened to the bound: models
 * overshoot a length they are asked for by a few tens of percent, and throwing such a summary away
 * (then dropping the history it covered) loses far more than trimming its middle. Beyond this the
 * summarizer ignored the bound (a transcript echoed back, a runaway answer): a failed attempt.
 */
const SUMMARY_OVERSHOOT_LIMIT = 2;

/**
 * `summary` within `maxTokens`: itself when it fits; a little over (up to
 * {@link SUMMARY_OVERSHOOT_LIMIT} times the bound), its middle cut (head and tail kept, on line
 * boundaries, with the truncation marker) until it fits; far over, an error.
 */
function fitSummaryToBound(
  summary: string,
  maxTokens: number,
  estimator: Estimator,
  overshootLimit = SUMMARY_OVERSHOOT_LIMIT,
): string | Error {
  let tokens = estimator.countText(summary);
  if (tokens <= maxTokens) return summary;
  if (tokens > maxTokens * overshootLimit) {
    return new Error(
      `The summary is about ${tokens} tokens, over ${SUMMARY_OVERSHOOT_LIMIT}× its bound of ${maxTokens}.`,
    );
  }
  let fitted = summary;
  let maxChars = Math.floor((summary.length * maxTokens) / tokens);
  for (let attempt = 0; attempt < 8 && tokens > maxTokens; attempt++) {
    fitted = truncateText(summary, { maxChars: Math.max(0, maxChars), mode: 'head-tail' });
    tokens = estimator.countText(fitted);
    maxChars = Math.floor(maxChars * 0.9);
  }
  return tokens <= maxTokens && fitted.trim() !== ''
    ? fitted
    : new Error(`The summary could not be shortened to its bound of ${maxTokens} tokens.`);
}

function buildPrompt(previousSummary: string | undefined, transcript: string, maxTokens: number): string {
  const previous = previousSummary
    ? `Previous summary (merge it with the conversation below into one updated summary):\n<previous-summary>\n${previousSummary}\n</previous-summary>\n\n`
    : '';
  const words = Math.max(20, Math.floor(maxTokens * 0.6));
  return `${previous}Conversation to summarize:\n<transcript>\n${transcript}\n</transcript>\n\nKeep the whole summary under ${maxTokens} tokens (about ${words} words); condense older details rather than exceed it.`;
}

interface RenderedMessage {
  message: Message;
  text: string;
}

/** Groups rendered messages into chunks that fit `budget` tokens; an oversized one is shortened. */
function chunkTranscript(
  rendered: readonly RenderedMessage[],
  budget: number,
  estimator: Estimator,
): RenderedMessage[][] {
  const chunks: RenderedMessage[][] = [];
  let current: RenderedMessage[] = [];
  let used = 0;
  for (const entry of rendered) {
    let text = entry.text;
    let tokens = estimator.countText(text);
    if (tokens > budget) {
      text = truncateText(text, { maxChars: Math.floor((text.length * budget) / tokens), mode: 'head-tail' });
      tokens = estimator.countText(text);
    }
    if (used + tokens > budget && current.length > 0) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push({ message: entry.message, text });
    used += tokens;
  }
  if (current.length > 0 || chunks.length === 0) chunks.push(current);
  return chunks;
}

interface ChunkOutcome {
  summary: string;
  memories: string[];
  calls: number;
}

/**
 * One chunk: at most two calls (the retry, only after a failure); blank output or a summary far
 * over its bound is a failure, one a little over is shortened to it (`fitBound`). A call still
 * running when `signal` aborts is abandoned: the caller's abort is rethrown at once; the deadline
 * counts as a failed attempt, and no retry starts after it.
 */
async function summarizeChunk({
  call,
  callerSignal,
  signal,
  fitBound,
}: {
  call: () => ReturnType<Summarizer>;
  callerSignal: AbortSignal | undefined;
  signal: AbortSignal;
  fitBound: (summary: string) => string | Error;
}): Promise<ChunkOutcome> {
  const errors: unknown[] = [];
  let best: { summary: string; memories: string[] } | undefined;
  let calls = 0;
  for (let attempt = 1; attempt <= 2; attempt++) {
    callerSignal?.throwIfAborted();
    if (signal.aborted) {
      if (errors.length === 0) errors.push(signal.reason);
      break;
    }
    calls++;
    let output: string | SummarizerOutput;
    try {
      output = await raceAbort(call(), signal);
    } catch (error) {
      callerSignal?.throwIfAborted();
      errors.push(error);
      continue;
    }
    let { summary, memories } = readOutput(output);
    if (summary.trim() === '') {
      errors.push(new Error('The summarizer returned blank text.'));
      continue;
    }
    const fitted = fitBound(summary);
    if (fitted instanceof Error) {
      errors.push(fitted);
      continue;
    }
    best = { summary: fitted, memories };
    break;
  }
  if (best === undefined) throw new SummarizationError({ attempts: calls, errors });
  return { summary: best.summary, memories: best.memories, calls };
}

function readOutput(output: string | SummarizerOutput): { summary: string; memories: string[] } {
  if (typeof output === 'string') {
    const memories = [...output.matchAll(MEMORY_LINE)].map((match) => match[1]!.trim());
    const summary = memories.length > 0 ? output.replace(MEMORY_LINE, '').trim() : output.trim();
    return { summary, memories };
  }
  if (output == null || typeof output.summary !== 'string') return { summary: '', memories: [] };
  return { summary: output.summary.trim(), memories: [...(output.memories ?? [])] };
}

function userTextsOf(messages: readonly Message[]): { number: number; text: string }[] {
  const texts: { number: number; text: string }[] = [];
  let number = 0;
  for (const message of messages) {
    if (message.role === 'system') continue;
    const own = number++;
    if (message.role !== 'user') continue;
    const text = messageText(message);
    if (text.trim() !== '') texts.push({ number: own, text });
  }
  return texts;
}

/**
 * `summary` with the identifiers of the user's words it left out appended on one line, the whole
 * within `maxTokens`: the line takes at most a quarter of the bound (the latest identifiers
 * first), and the summary's middle is shortened to make room when it must.
 */
function withIdentifiers(
  summary: string,
  userTexts: readonly { number: number; text: string }[],
  maxTokens: number,
  estimator: Estimator,
): string {
  const identifiers = extractIdentifiers(userTexts.map((entry) => entry.text).join('\n'), { limit: 200 });
  const missing = identifiers.filter((identifier) => !summary.includes(identifier)).reverse();
  if (missing.length === 0) return summary;
  const lineBudget = Math.floor(maxTokens * IDENTIFIERS_SHARE);
  const taken: string[] = [];
  for (const identifier of missing) {
    const line = `${IDENTIFIERS_LINE_PREFIX} ${[...taken, identifier].reverse().join(', ')}`;
    if (estimator.countText(line) > lineBudget) break;
    taken.push(identifier);
  }
  if (taken.length === 0) return summary;
  const line = `${IDENTIFIERS_LINE_PREFIX} ${taken.reverse().join(', ')}`;
  const room = maxTokens - estimator.countText(line) - 2;
  const body = fitSummaryToBound(summary, Math.max(1, room), estimator, Number.POSITIVE_INFINITY);
  return typeof body === 'string' ? `${body}\n\n${line}` : summary;
}

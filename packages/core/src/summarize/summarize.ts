import { InvalidConfigError } from '../errors/invalid-config-error';
import { SummarizationError } from '../errors/summarization-error';
import { defaultEstimator } from '../estimate/default-estimator';
import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { truncateText } from '../truncate/truncate-text';
import { linkSignals, raceAbort } from './abortable';
import { DEFAULT_SUMMARY_PROMPT, MEMORY_INSTRUCTIONS } from './default-summary-prompt';
import { extractIdentifiers, identifierCoverage } from './extract-identifiers';
import { type RenderTranscriptOptions, renderMessage } from './render-transcript';
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
   * Check that identifiers (paths, URLs, numbers) from the user's messages survive into the
   * summary; a summary that keeps fewer than half of them is retried once (the better of the two is
   * kept).
   * @default true
   */
  auditIdentifiers?: boolean;
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
}

/** The seeds' bound on a summary, in tokens (SUMMARY_MAX_TOKENS). */
export const SUMMARY_MAX_TOKENS = 2_048;
const MIN_AUDITED_IDENTIFIERS = 3;
const MIN_IDENTIFIER_COVERAGE = 0.5;
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
  const identifiers = auditIdentifiers ? userIdentifiers(messages) : [];

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
        identifiers: identifiers.filter((identifier) => transcript.includes(identifier)),
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

  let memoryError: unknown;
  if (onMemory && memories.length > 0) {
    try {
      await onMemory(memories);
    } catch (error) {
      memoryError = error;
    }
  }
  return { summary: running ?? '', calls, chunks: chunks.length, memories, memoryError };

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
function fitSummaryToBound(summary: string, maxTokens: number, estimator: Estimator): string | Error {
  let tokens = estimator.countText(summary);
  if (tokens <= maxTokens) return summary;
  if (tokens > maxTokens * SUMMARY_OVERSHOOT_LIMIT) {
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
 * One chunk: at most two calls (the retry); blank output or a summary far over its bound is a
 * failure, one a little over is shortened to it (`fitBound`); identifiers audited. A call still running when `signal` aborts is abandoned: the caller's abort is
 * rethrown at once; the deadline counts as a failed attempt, and no retry starts after it.
 */
async function summarizeChunk({
  call,
  identifiers,
  callerSignal,
  signal,
  fitBound,
}: {
  call: () => ReturnType<Summarizer>;
  identifiers: readonly string[];
  callerSignal: AbortSignal | undefined;
  signal: AbortSignal;
  fitBound: (summary: string) => string | Error;
}): Promise<ChunkOutcome> {
  const errors: unknown[] = [];
  let best: { summary: string; memories: string[]; coverage: number } | undefined;
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
    summary = fitted;
    const coverage =
      identifiers.length >= MIN_AUDITED_IDENTIFIERS ? identifierCoverage(identifiers, summary) : 1;
    if (best === undefined || coverage > best.coverage) best = { summary, memories, coverage };
    if (coverage >= MIN_IDENTIFIER_COVERAGE) break;
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

function userIdentifiers(messages: readonly Message[]): string[] {
  const text = messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'),
    )
    .join('\n');
  return extractIdentifiers(text, { limit: 50 });
}

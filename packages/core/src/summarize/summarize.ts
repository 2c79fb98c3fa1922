import { InvalidConfigError } from '../errors/invalid-config-error';
import { defaultEstimator } from '../estimate/default-estimator';
import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { messageText } from '../message/message-parts';
import type { PinnedQuote } from '../store/compaction-state';
import { truncateText } from '../truncate/truncate-text';
import { linkSignals } from './abortable';
import { withIdentifiers } from './append-identifiers';
import { decisionsOf, type StatedDecision } from './decision-sentences';
import { DEFAULT_SUMMARY_PROMPT, MEMORY_INSTRUCTIONS } from './default-summary-prompt';
import { fitSummaryToBound } from './fit-summary-to-bound';
import { type RenderTranscriptOptions, renderMessage } from './render-transcript';
import { salientIdentifiers } from './salient-identifiers';
import { acceptStandingInstructions, splitStandingInstructions } from './standing-instructions';
import { summarizeChunk } from './summarize-chunk';
import type { Summarizer } from './summarizer';
import { inRounds, toolIdentifiersOf } from './tool-identifiers';

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
   * Check that identifiers (paths, URLs, ids, numbers) from the user's messages and from the tool
   * results survive into the summary; those it left out are appended to it, within the bound: the
   * user's on one line (`Identifiers the user gave: …`; the summary's middle is shortened to make
   * room when it must), the tools' on another (`Identifiers the tools returned: …`, a tenth of the
   * bound in any case, up to 15% from room the summary leaves); likewise the decisions stated
   * (`Decision stated: …`, see `decisions`). The lines of the previous summary are
   * carried on. No second call is made for them.
   * @default true
   */
  auditIdentifiers?: boolean;
  /**
   * The identifiers the span's tool results mentioned (checked by `auditIdentifiers`), read from
   * the end: best first.
   * @default the three most telling `salientIdentifiers` of each tool result of `messages`, one of
   * every result (newest first) before a second of any
   */
  toolIdentifiers?: readonly string[];
  /**
   * The sentences of the span that state a choice, oldest first, with who stated them (checked by
   * `auditIdentifiers`: those the summary left out are appended verbatim, the latest first, on
   * `Decision stated: …` or `Decision stated by the user: …` lines within 15% of the bound).
   * @default the user's and the assistant's sentences of `messages` that state a choice
   */
  decisions?: readonly StatedDecision[];
  /**
   * The user's words in the span, by conversation number: a `Standing instructions:` list at the
   * end of the summary (see the default prompt) is checked against them, and only quotes found
   * verbatim are returned as `standingInstructions` (the list is removed from the summary).
   * @default the user messages of `messages`, numbered from 0
   */
  userTexts?: readonly { number: number; text: string }[];
  /**
   * The user's words that `previousSummary` stands in for, oldest first. Checked by
   * `auditIdentifiers`: their identifiers that neither the new summary nor the lines it carries on
   * hold are listed too, as the oldest of the user's, so a summary that re-summarizes its
   * predecessor (and cuts it to fit) does not lose what the predecessor still named.
   * @default none
   */
  earlierUserTexts?: readonly string[];
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
  earlierUserTexts = [],
  toolIdentifiers,
  decisions: statedDecisions,
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
  if (
    statedDecisions !== undefined &&
    !(Array.isArray(statedDecisions) && statedDecisions.every(isStatedDecision))
  ) {
    throw new InvalidConfigError({
      option: 'decisions',
      value: statedDecisions,
      message: "must be an array of { text: string, by: 'user' | 'assistant' }",
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
  if (auditIdentifiers) {
    const identifiersOf = (text: string) => salientIdentifiers(text, { maxCount: 40, maxChars: 1_000 });
    const user = [
      ...inRounds(earlierUserTexts.map(identifiersOf)),
      ...inRounds(userTexts.map((entry) => identifiersOf(entry.text))),
    ];
    const tools = toolIdentifiers ?? toolIdentifiersOf(messages);
    const decisions = statedDecisions ?? decisionsOf(messages);
    summary = withIdentifiers(
      summary,
      { user, tools, decisions },
      maxSummaryTokens,
      estimator,
      previousSummary,
    );
  }

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

function isStatedDecision(value: unknown): value is StatedDecision {
  const decision = value as Partial<StatedDecision> | null;
  return (
    typeof decision === 'object' &&
    decision !== null &&
    typeof decision.text === 'string' &&
    (decision.by === 'user' || decision.by === 'assistant')
  );
}

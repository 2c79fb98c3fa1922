import { InvalidConfigError } from '../errors/invalid-config-error';
import { createEstimator } from '../estimate/create-estimator';
import type { Estimator } from '../estimate/estimator';
import { PROTECTED_WINDOW_RATIO } from '../split/split-messages';
import { extractiveSummarizer } from '../summarize/extractive-summarizer';
import type { Summarizer } from '../summarize/summarizer';
import { TOOL_RESULT_MAX_CHARS } from '../truncate/truncate-tool-result';
import type { CompactionEventHandler } from './compaction-event';
import type { SummaryPlacement } from './compaction-layout';
import { BACKGROUND_THRESHOLD_RATIO, COMPACT_THRESHOLD_RATIO, EMERGENCY_THRESHOLD_RATIO } from './thresholds';

/** Shares of the context window at which each stage acts. */
export interface CompactionThresholds {
  /**
   * After a response: start summarizing in the background.
   * @default 0.8
   */
  background?: number;
  /**
   * Before a request: apply the ready summary, or compact now if none is ready or running.
   * @default 0.85
   */
  compact?: number;
  /**
   * Before a request, after the above: drop the oldest messages from the request (no model).
   * @default 0.95
   */
  emergency?: number;
}

/** Options shared by {@link compactMessages} and {@link createCompactor}. */
export interface CompactionOptions {
  /**
   * The model's context window in tokens. Unknown → no compaction (a no-op); the storage-time
   * tool-result cap still applies. See `getContextWindow`.
   */
  contextWindow?: number;
  /** The model id: the key under which usage calibration is learned. */
  model?: string;
  /** When each stage acts, as shares of the context window. */
  thresholds?: CompactionThresholds;
  /**
   * Share of the context window kept verbatim as recent messages.
   * @default 0.25 (PROTECTED_WINDOW_RATIO)
   */
  protectedRatio?: number;
  /**
   * Makes summaries. Adapters default to the conversation's own model.
   * @default extractiveSummarizer (deterministic, no model)
   */
  summarizer?: Summarizer;
  /**
   * The summarizer's own input budget in tokens; longer spans are summarized in chunks.
   * @default 60% of the context window, at most 100,000
   */
  summarizerMaxInputTokens?: number;
  /**
   * `cumulative`: each compaction merges the previous summary and the newly covered messages into
   * one (seed FEAT-011). `stack`: one summary per compaction, in order (seed Spacebot); when the
   * stack takes more than a tenth of the context window, the next compaction folds it into one.
   * @default 'cumulative'
   */
  summaryMode?: 'cumulative' | 'stack';
  /**
   * `system`: the summary is a system message placed before the original system prompt (seed
   * RFC-011). `user`: a user message at the start of the conversation.
   * @default 'system'
   */
  summaryPlacement?: SummaryPlacement;
  /**
   * Instructions for the summarizer.
   * @default DEFAULT_SUMMARY_PROMPT
   */
  summaryPrompt?: string;
  /** Receives durable facts the summarizer extracts for long-term memory (seed Spacebot). */
  onMemory?: (memories: readonly string[]) => void | Promise<void>;
  /**
   * Retry once a summary that keeps fewer than half of the identifiers (paths, URLs, numbers) of
   * the user's messages it covers.
   * @default true
   */
  auditIdentifiers?: boolean;
  /**
   * Storage-time cap on every tool result, in characters (seed FEAT-011). `Infinity` disables it.
   * @default 30000 (TOOL_RESULT_MAX_CHARS)
   */
  toolResultMaxChars?: number;
  /** Per-tool caps by tool name; they win over `toolResultMaxChars`. */
  toolResultLimits?: Readonly<Record<string, number>>;
  /**
   * Request-time reduction of large tool results, oldest first, head and tail kept. `false`
   * disables it.
   * @default { minChars: 4000, keepChars: 2000 }
   */
  toolResultReduction?: { minChars?: number; keepChars?: number } | false;
  /**
   * Replace images older than the protected window with text placeholders.
   * @default true
   */
  imagePlaceholders?: boolean;
  /**
   * Replace results superseded by a later identical call, and duplicate results, with a note.
   * @default true
   */
  supersedeToolResults?: boolean;
  /**
   * Counts tokens; holds the usage calibration.
   * @default createEstimator()
   */
  estimator?: Estimator;
  /** Receives every compaction event. Errors it throws are caught and ignored. */
  onEvent?: CompactionEventHandler;
}

/** {@link CompactionOptions} with every default filled in and checked. */
export interface ResolvedCompactionOptions {
  contextWindow: number | undefined;
  model: string | undefined;
  thresholds: Required<CompactionThresholds>;
  protectedRatio: number;
  summarizer: Summarizer;
  summarizerMaxInputTokens: number | undefined;
  summaryMode: 'cumulative' | 'stack';
  summaryPlacement: SummaryPlacement;
  summaryPrompt: string | undefined;
  onMemory: CompactionOptions['onMemory'];
  auditIdentifiers: boolean;
  toolResultMaxChars: number;
  toolResultLimits: Readonly<Record<string, number>>;
  toolResultReduction: { minChars: number; keepChars: number } | false;
  imagePlaceholders: boolean;
  supersedeToolResults: boolean;
  estimator: Estimator;
  onEvent: CompactionEventHandler;
}

/**
 * Fills in defaults and checks every option.
 * @throws {InvalidConfigError} naming the first bad option.
 */
export function resolveCompactionOptions({
  contextWindow,
  model,
  thresholds = {},
  protectedRatio = PROTECTED_WINDOW_RATIO,
  summarizer = extractiveSummarizer,
  summarizerMaxInputTokens,
  summaryMode = 'cumulative',
  summaryPlacement = 'system',
  summaryPrompt,
  onMemory,
  auditIdentifiers = true,
  toolResultMaxChars = TOOL_RESULT_MAX_CHARS,
  toolResultLimits = {},
  toolResultReduction = {},
  imagePlaceholders = true,
  supersedeToolResults = true,
  estimator = createEstimator(),
  onEvent,
}: CompactionOptions): ResolvedCompactionOptions {
  if (contextWindow !== undefined) positive('contextWindow', contextWindow);
  const {
    background = BACKGROUND_THRESHOLD_RATIO,
    compact = COMPACT_THRESHOLD_RATIO,
    emergency = EMERGENCY_THRESHOLD_RATIO,
  } = thresholds;
  share('thresholds.background', background);
  share('thresholds.compact', compact);
  share('thresholds.emergency', emergency);
  if (!(background <= compact && compact <= emergency)) {
    throw new InvalidConfigError({
      option: 'thresholds',
      value: thresholds,
      message: `must satisfy background <= compact <= emergency (got ${background}, ${compact}, ${emergency})`,
    });
  }
  share('protectedRatio', protectedRatio);
  if (protectedRatio >= compact) {
    throw new InvalidConfigError({
      option: 'protectedRatio',
      value: protectedRatio,
      message: `must be below thresholds.compact (${compact}), or nothing could ever be compacted`,
    });
  }
  if (typeof summarizer !== 'function') {
    throw new InvalidConfigError({ option: 'summarizer', value: summarizer, message: 'must be a function' });
  }
  if (summarizerMaxInputTokens !== undefined) positive('summarizerMaxInputTokens', summarizerMaxInputTokens);
  if (summaryMode !== 'cumulative' && summaryMode !== 'stack') {
    throw new InvalidConfigError({
      option: 'summaryMode',
      value: summaryMode,
      message: "must be 'cumulative' or 'stack'",
    });
  }
  if (summaryPlacement !== 'system' && summaryPlacement !== 'user') {
    throw new InvalidConfigError({
      option: 'summaryPlacement',
      value: summaryPlacement,
      message: "must be 'system' or 'user'",
    });
  }
  positive('toolResultMaxChars', toolResultMaxChars);
  for (const [toolName, limit] of Object.entries(toolResultLimits))
    positive(`toolResultLimits.${toolName}`, limit);
  let reduction: ResolvedCompactionOptions['toolResultReduction'] = false;
  if (toolResultReduction !== false) {
    const { minChars = 4000, keepChars = 2000 } = toolResultReduction;
    positive('toolResultReduction.minChars', minChars);
    positive('toolResultReduction.keepChars', keepChars);
    reduction = { minChars, keepChars };
  }
  return {
    contextWindow,
    model,
    thresholds: { background, compact, emergency },
    protectedRatio,
    summarizer,
    summarizerMaxInputTokens,
    summaryMode,
    summaryPlacement,
    summaryPrompt,
    onMemory,
    auditIdentifiers,
    toolResultMaxChars,
    toolResultLimits,
    toolResultReduction: reduction,
    imagePlaceholders,
    supersedeToolResults,
    estimator,
    onEvent: safeHandler(onEvent),
  };
}

function positive(option: string, value: unknown): void {
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    throw new InvalidConfigError({ option, value, message: 'must be a number above 0' });
  }
}

function share(option: string, value: unknown): void {
  if (typeof value !== 'number' || !(value > 0 && value <= 1)) {
    throw new InvalidConfigError({
      option,
      value,
      message: 'must be a share of the context window, above 0 and at most 1',
    });
  }
}

function safeHandler(handler: CompactionEventHandler | undefined): CompactionEventHandler {
  if (handler === undefined) return () => {};
  return (event) => {
    try {
      handler(event);
    } catch {
      // An event handler must never break a request.
    }
  };
}

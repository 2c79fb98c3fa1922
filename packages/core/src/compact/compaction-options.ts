import type { Estimator } from '../estimate/estimator';
import type { PinPredicate } from '../pin/collect-pinned-rules';
import type {
  ClusterOptions,
  CollapseOptions,
  ResolvedStructureOptions,
  SupersedeOptions,
} from '../structure/structure-options';
import type { Summarizer } from '../summarize/summarizer';
import type { CompactionEventHandler } from './compaction-event';
import type { SummaryPlacement } from './compaction-layout';

/** Shares of the context window at which each stage acts. */
export interface CompactionThresholds {
  /**
   * After a response: start summarizing in the background when the request the next call would
   * send (after the reductions that need no model) is at or over this share. Request-time
   * reductions aim under it.
   * @default 0.8
   */
  background?: number;
  /**
   * Before a request: at or over this share, shorten old tool results and images, apply the ready
   * summary or summarize now, and if still over, drop the oldest messages from the request (no
   * model). Every request that can fit goes out at or under this share.
   * @default 0.85
   */
  compact?: number;
  /**
   * Kept for configurations written for 0.1, where a request between `compact` and `emergency`
   * could go out unshrunk while a summary was being made. Since then every request is brought under
   * `compact`; the value is still checked (`compact <= emergency <= 1`) but changes nothing.
   * @default 0.95
   */
  emergency?: number;
}

/** Options shared by {@link compactMessages} and {@link createCompactor}. */
export interface CompactionOptions {
  /**
   * The model's context window in tokens. Default: the built-in table's window for `model` (see
   * `getContextWindow`; a compactor also takes `contextWindows` and a model's declared window).
   * Unknown → no compaction (the storage-time tool-result cap still applies) and a
   * `context-window-unknown` event.
   */
  contextWindow?: number;
  /**
   * The provider the request goes to, as the framework names it (the AI SDK's `model.provider`,
   * e.g. `openai.chat`, `anthropic.messages`, `google.generative-ai`). Images are counted with that
   * provider's formula, and media inside tool results follow `toolResultMedia`. Adapters set it.
   * @default undefined (Anthropic's image formula, media counted as media)
   */
  provider?: string;
  /** The model id: the key under which usage calibration is learned, and the window looked up. */
  model?: string;
  /** When each stage acts, as shares of the context window. */
  thresholds?: CompactionThresholds;
  /**
   * Share of the context window, counted back from the newest message (messages as they are, tool
   * results whole), that a **manual** compaction (`compactor.compact()`, the compact tool) leaves
   * word for word; with the provider's own context management, the recent share it keeps. At the
   * threshold a summary covers the oldest dialogue only as far as it must to get the request well
   * under it (to the reduction target, so the next summary is far off), and the user's own words of
   * what it covers stay verbatim beside it: this share does not bound it there (a quarter of the
   * window, beside the summary and the user's words, would leave no room to grow, and a summary
   * would follow nearly every turn).
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
  /**
   * The bound on a summary in tokens; the effective bound is also at most 10% of the context
   * window. The summarizer is told it; a longer summary is a failed attempt (retried once, then the
   * fallback); a cumulative summary is condensed to it at every compaction; a stored summary over
   * the bound of a smaller window is shortened (head and tail) in the request.
   * @default 2048 (SUMMARY_MAX_TOKENS)
   */
  summaryMaxTokens?: number;
  /**
   * Time limits for making a summary, in milliseconds. `foreground`: when a request waits for it
   * (over the compact threshold with no summary ready) — the request is never held longer than
   * this plus the fallback's own cost (dropping the oldest messages, no model). `background`: for
   * the summary started after a response. A summarizer still running at its limit gets its
   * `abortSignal` aborted and is abandoned; that counts as a failed attempt.
   * @default { foreground: 15_000, background: 120_000 }
   */
  summaryTimeouts?: { foreground?: number; background?: number };
  /** Receives durable facts the summarizer extracts for long-term memory (seed Spacebot). */
  onMemory?: (memories: readonly string[]) => void | Promise<void>;
  /**
   * Append the identifiers (paths, URLs, ids, error codes) a summary left out, of the user's words
   * and of the tool results it covers, on `Identifiers …` lines within the summary's bound (see
   * `summarize`). No second summarizer call is made for them.
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
   * Request-time reduction of large tool results, oldest first, head and tail kept: results longer
   * than `minChars` characters keep `keepChars` (marker included). `false` disables it (the current
   * turn is still shrunk when it alone does not fit).
   * @default derived from the window: keepChars = 2% of the window at 4 characters a token,
   * 400–2,000; minChars = 2 × keepChars
   */
  toolResultReduction?: { minChars?: number; keepChars?: number } | false;
  /**
   * Media inside tool results for a provider that can only send them as text (OpenAI chat
   * completions and OpenAI-compatible chat APIs serialize them as JSON with their base64):
   * `placeholder` replaces them with a one-line placeholder before sending (the model could not
   * see them anyway, and the base64 costs about one token per 1.5 characters); `keep` sends them as
   * the provider would and counts them as that text. Providers that send media natively are not
   * affected.
   * @default 'placeholder'
   */
  toolResultMedia?: 'placeholder' | 'keep';
  /**
   * Replace images older than the protected window with text placeholders.
   * @default true
   */
  imagePlaceholders?: boolean;
  /**
   * Structural stage 1, over the threshold: a result made stale by a later call becomes a one-line
   * note naming that call — a read after a later write, edit, patch or delete of the same path (or
   * a later full read), a write after a later write, a listing after a file was created or deleted
   * in it, any call repeated later with the same arguments — and a result identical to an earlier
   * one of the same tool becomes a note pointing at it. Which calls read, write or list which paths
   * is the default tool mapping (`defaultToolMapping`); `{ tools, toolMapping }` teaches it yours.
   * `false` turns the stage off.
   * @default true
   */
  supersedeToolResults?: boolean | SupersedeOptions;
  /**
   * Runs of short exchanges without tool calls, among the turns whose tool steps are folded, become
   * one user message that quotes them (`User: …` verbatim, `Assistant: …` shortened to
   * `assistantChars`). Off by default: it shortens the assistant's words, which the dialogue tiers
   * keep whole until a summary is the only way left; folding tool steps frees far more.
   * `{ maxChars = 400, minExchanges = 2, assistantChars = 160 }` tunes it; `true` turns it on.
   * @default false
   */
  collapseExchanges?: boolean | CollapseOptions;
  /**
   * Structural stage 3, over the threshold, outside the protected window: a tool result that shares
   * at least `similarity` of its distinct lines with an earlier result of the same tool becomes a
   * note holding its line diff against that result (kept whole). `{ similarity = 0.75, minChars =
   * 400, maxNoteShare = 0.5 }` tunes it; `false` turns it off.
   * @default true
   */
  clusterToolResults?: boolean | ClusterOptions;
  /**
   * Counts tokens; holds the usage calibration.
   * @default createEstimator()
   */
  estimator?: Estimator;
  /** Receives every compaction event. Errors it throws are caught and ignored. */
  onEvent?: CompactionEventHandler;
  /**
   * References in every cut: each truncated tool result, placeholder, superseded note, summary and
   * drop note names what it stands for (`[ref=t.…]`, `[ref=i.…]`, `[ref=s.…]`), so the model can read
   * the original back with `spillway_recall`. `secret` is mixed into every reference (give the read-
   * back tool the same one). `false` writes the markers without references.
   * @default { secret: DEFAULT_RECALL_SECRET }
   */
  recall?: { secret?: string } | false;
  /**
   * Standing rules the user stated ("never …", "always …", "do not …", "only use …") are kept
   * verbatim in a pinned block that goes with the summary into every compacted request, outside
   * anything a summarizer writes; a later "you may now …" updates the rule it is about. The block
   * holds only rules whose message is no longer in the request, and at most `maxTokens` tokens (the
   * oldest rules leave first, with a `pinned-rule-evicted` event). `detect: false` pins only what
   * `pin` pins. `false` turns pinning off.
   * @default { detect: true, maxTokens: min(1,000, 5% of the window) }
   */
  pinnedRules?: { detect?: boolean; maxTokens?: number } | false;
  /**
   * Pins or unpins per message: `true` pins the whole text of the message, `false` pins nothing
   * from it (even what detection would find), `undefined` leaves it to detection. Adapters combine
   * it with their per-message marker (AI SDK `providerOptions.spillway.pin`, LangChain
   * `additional_kwargs.spillway_pin`).
   * @default none
   */
  pin?: PinPredicate;
}

/** {@link CompactionOptions} with every default filled in and checked. */
export interface ResolvedCompactionOptions {
  contextWindow: number | undefined;
  provider: string | undefined;
  model: string | undefined;
  thresholds: Required<CompactionThresholds>;
  protectedRatio: number;
  summarizer: Summarizer;
  summarizerMaxInputTokens: number | undefined;
  summaryMode: 'cumulative' | 'stack';
  summaryPlacement: SummaryPlacement;
  summaryPrompt: string | undefined;
  summaryMaxTokens: number;
  summaryTimeouts: { foreground: number; background: number };
  onMemory: CompactionOptions['onMemory'];
  auditIdentifiers: boolean;
  toolResultMaxChars: number;
  toolResultLimits: Readonly<Record<string, number>>;
  toolResultReduction: { minChars?: number; keepChars?: number } | false;
  toolResultMedia: 'placeholder' | 'keep';
  imagePlaceholders: boolean;
  /** The structural stages (supersede, collapse, cluster), `false` where turned off. */
  structure: ResolvedStructureOptions;
  estimator: Estimator;
  onEvent: CompactionEventHandler;
  recall: { secret: string } | false;
  pinnedRules: { detect: boolean; maxTokens: number | undefined } | false;
  pin: PinPredicate | undefined;
  /**
   * Whether the no-model reductions may take a step before the compact threshold when it frees as
   * much as a step at the threshold (see `stepEarly`): on, but where the provider manages the
   * context (`delegatedOptions`).
   */
  earlySteps: boolean;
}

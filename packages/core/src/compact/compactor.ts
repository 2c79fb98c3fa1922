import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import type { CompactionStore } from '../store/compaction-store';
import type { CompactMessagesResult } from './compact-messages-types';
import type { CompactionOptions } from './compaction-options';
import type { LeaseOptions } from './distributed-flight';

/** Options of `createCompactor`. */
export interface CompactorOptions extends CompactionOptions {
  /**
   * Where compaction state is kept between requests.
   * @default new MemoryCompactionStore() (in-process LRU of 1,000 conversations)
   */
  store?: CompactionStore;
  /**
   * Windows for model ids the built-in table does not know, or to override it (see
   * `getContextWindow`). Used when neither `contextWindow` nor a per-call window is given.
   */
  contextWindows?: Readonly<Record<string, number>>;
  /**
   * After a summary fails (the summarizer's own retry included), the next request over the
   * threshold tries once more in the background (the request itself does not wait; it is brought
   * under the threshold without a model). If that fails too, this many requests of the conversation
   * go by before summarizing is tried again; meanwhile the stages that need no model keep each
   * request within the window. `0` tries on every request. A manual `compact` always tries.
   * @default 5
   */
  retrySummaryAfter?: number;
  /**
   * Write one `console.warn` line per model whose context window is unknown (the
   * `context-window-unknown` event is emitted either way). Set `false` to silence it, e.g. when you
   * handle the event yourself.
   * @default true
   */
  warnOnUnknownContextWindow?: boolean;
  /**
   * How the store's lease is used, when the store has one (`MemoryCompactionStore`,
   * `@spillway/redis`, `@spillway/postgres`): one summarizer run per threshold crossing across every
   * instance sharing the store. `false` ignores the store's lease (single-flight per process only).
   * @default { ttlMs: 30_000, pollIntervalMs: 100 }
   */
  lease?: LeaseOptions | false;
  /**
   * Longest wait for one store call, in milliseconds. A call that fails or takes longer is reported
   * as a `store-error` event; while the store is down the compactor keeps states in memory, per
   * process, until it answers again. The built-in `MemoryCompactionStore` (as it is: not a subclass,
   * a proxy or an instance with replaced methods) answers at once and is called without a timer.
   * @default 1000
   */
  storeTimeoutMs?: number;
}

/** Per-call options of {@link Compactor.prepare}. */
export interface PrepareOptions {
  /**
   * The conversation's key in the store.
   * @default derived from the conversation's first messages
   */
  conversationId?: string;
  /** The model this request goes to (window lookup and calibration); overrides the option. */
  model?: string;
  /** The provider this request goes to (image counting, tool-result media); overrides the option. */
  provider?: string;
  /** The window for this request; overrides the option and the model lookup. */
  contextWindow?: number;
  /**
   * The window the model object declares of itself (an AI SDK model's `contextWindow` or
   * `maxInputTokens`, a LangChain model profile's `maxInputTokens`): adapters pass it. Used when
   * neither `contextWindow` (per call or option) nor a `contextWindows` entry names the window;
   * it wins over the built-in table.
   * @default none
   */
  modelContextWindow?: number;
  /** Tokens besides the messages (tool definitions, framing). @default 0 */
  overheadTokens?: number;
  /**
   * Tokens reserved for the answer (the call's `maxOutputTokens`): the request is refused only when
   * it cannot fit the window less this.
   * @default 0
   */
  outputTokens?: number;
  /** Set on the n-th retry after the provider rejected the prompt as too long (1, 2, …). */
  overflowAttempt?: number;
  /**
   * The provider's overflow error, on a retry: when it states the model's limit ("maximum context
   * length is 8192 tokens", "prompt is too long: 210000 tokens > 200000 maximum"), the window is
   * learned for the model and used from this call on; a stated prompt size calibrates the estimator.
   */
  overflowError?: unknown;
  /** Aborts a summarizer running for this request at once (the reason is thrown). */
  abortSignal?: AbortSignal;
  /**
   * The conversation as the framework holds it, message for message, before a storage-time cap the
   * adapter applied itself: references in the request name these originals.
   * @default messages
   */
  originals?: readonly Message[];
  /**
   * Whether the model has the read-back tool (`spillway_recall`) in this request; when it does and
   * something was cut, one line tells it so.
   * @default false
   */
  recallTool?: boolean;
  /**
   * The provider manages this request's context (its context-management options were set from the
   * engine's thresholds, e.g. the AI SDK middleware's `strategy: 'provider'`): no summary is made,
   * the history is reduced only at the emergency threshold (the request must still fit), and the
   * storage-time cap, media placeholders for text-only providers, pinned rules and references work
   * as always.
   * @default false
   */
  delegated?: boolean;
}

/** What {@link Compactor.prepare} returns. */
export interface PrepareResult extends CompactMessagesResult {
  /** The key the conversation is stored under. */
  conversationId: string;
  /** The context window used, when known. */
  contextWindow: number | undefined;
}

/** Per-call options of {@link Compactor.afterResponse}. */
export interface AfterResponseOptions {
  /** The conversation's key in the store. @default derived from the conversation's first messages */
  conversationId?: string;
  /** The model that answered (window lookup and calibration); overrides the option. */
  model?: string;
  /** The provider that answered; overrides the option. */
  provider?: string;
  /** The window; overrides the option and the model lookup. */
  contextWindow?: number;
  /**
   * The window the model object declares of itself (an AI SDK model's `contextWindow` or
   * `maxInputTokens`, a LangChain model profile's `maxInputTokens`): adapters pass it. Used when
   * neither `contextWindow` (per call or option) nor a `contextWindows` entry names the window;
   * it wins over the built-in table.
   * @default none
   */
  modelContextWindow?: number;
  /** The provider's reported input tokens for the request (calibrates the estimator). */
  inputTokens?: number;
  /** `estimatedTokens` from the `prepare` that built the request, paired with `inputTokens`. */
  estimatedTokens?: number;
  /** Tokens the response adds to the conversation (e.g. reported output tokens). @default 0 */
  responseTokens?: number;
  /** Tokens besides the messages (tool definitions, framing). @default 0 */
  overheadTokens?: number;
  /** Aborts the background summary this call starts (it also ends at `summaryTimeouts.background`). */
  abortSignal?: AbortSignal;
  /**
   * Whether the response ended the user's turn (a final answer, no tool calls), so the next request
   * starts a new turn and what is the current turn now becomes history that may be reduced and
   * summarized. Within an agent's tool loop the turn goes on.
   * @default true when `messages` ends with an assistant message without tool calls
   */
  turnFinished?: boolean;
  /**
   * The provider manages this conversation's context (see `PrepareOptions.delegated`): no
   * background summary starts, and the reported usage (the provider's count after its own
   * clearing and compaction) does not calibrate the estimator.
   * @default false
   */
  delegated?: boolean;
}

/** Per-call options of {@link Compactor.compact}. */
export interface CompactOptions {
  /** The conversation's key in the store. @default derived from the conversation's first messages */
  conversationId?: string;
  /** The model (window lookup and calibration); overrides the option. */
  model?: string;
  /** The provider (image counting); overrides the option. */
  provider?: string;
  /** The window; overrides the option and the model lookup. */
  contextWindow?: number;
  /**
   * The window the model object declares of itself (an AI SDK model's `contextWindow` or
   * `maxInputTokens`, a LangChain model profile's `maxInputTokens`): adapters pass it. Used when
   * neither `contextWindow` (per call or option) nor a `contextWindows` entry names the window;
   * it wins over the built-in table.
   * @default none
   */
  modelContextWindow?: number;
  /** Aborts the summarizer at once (the reason is thrown). */
  abortSignal?: AbortSignal;
  /**
   * What the summary must keep in particular (e.g. "the failing test names and the file paths"),
   * added to the summarizer's instructions for this compaction only (see `withSummaryInstructions`;
   * a model summarizer receives them in `SummarizerInput.system`, the extractive one ignores them).
   * Ignored when the call joins a manual or request-time compaction already running. At most
   * `SUMMARY_INSTRUCTIONS_MAX_CHARS` (2,000) characters.
   * @default none: the summary prompt alone
   */
  instructions?: string;
  /**
   * Share of the context window kept verbatim as recent messages for this compaction, in place of
   * the `protectedRatio` option: `0` summarizes everything before the current turn but the latest
   * turn before it (what an agent asking to "compact now" usually wants). At least 0, below the
   * compact threshold.
   * @default the compactor's `protectedRatio` (0.25)
   */
  protectedRatio?: number;
}

/**
 * A compaction engine with memory: the store, the usage calibration, learned windows, and
 * single-flight per conversation (across instances when the store has a lease). Adapters hold one;
 * see `createCompactor`.
 */
export interface Compactor {
  /** The estimator (and its calibration) every count goes through. */
  readonly estimator: Estimator;
  /** Where state is kept. */
  readonly store: CompactionStore;
  /**
   * Before a request: the compacted messages to send. Applies the ready summary; compacts now when
   * over the compact threshold and no compaction is running for the conversation (within
   * `summaryTimeouts.foreground`); brings the request under the threshold without a model
   * otherwise. Stores a new state when one is made. Waits for a compaction another request started
   * for the same conversation (up to the foreground limit), never starts a second.
   *
   * @throws {ContextOverflowError} when even the smallest request cannot fit (no provider call should
   * be made); the abort reason when `abortSignal` aborts.
   */
  prepare(messages: readonly Message[], options?: PrepareOptions): Promise<PrepareResult>;
  /**
   * After a response completes: calibrates from the reported usage and, when the next request would
   * be over the background threshold, starts summarizing in the background (single-flight, within
   * `summaryTimeouts.background`). Returns at once with a promise of that work (never rejects, always
   * settles): hand it to a `waitUntil` on serverless hosts, or ignore it.
   */
  afterResponse(messages: readonly Message[], options?: AfterResponseOptions): Promise<void>;
  /**
   * Compacts now, whatever the usage (a "compact" button): summarizes what is older than the
   * protected window (never the current turn), stores and returns the new state (the current one
   * when nothing is older). Joins another manual or request-time compaction already running for the
   * conversation instead of starting one; waits for a background summary to end, then compacts.
   */
  compact(messages: readonly Message[], options?: CompactOptions): Promise<CompactionState | undefined>;
  /**
   * The window the compactor uses for `model`: the options, the window the model object declares
   * (`modelContextWindow`), the table; capped by a limit a provider's overflow error stated.
   * @throws {InvalidConfigError} when `modelContextWindow` is given and is not a finite number of
   * tokens above 0.
   */
  contextWindowFor(model: string | undefined, modelContextWindow?: number): number | undefined;
  /** Whether a compaction is running for the conversation. */
  isCompacting(conversationId: string): boolean;
  /** Resolves when no compaction is running (for tests, shutdown, serverless hosts). Always settles. */
  idle(): Promise<void>;
}

import { getContextWindow } from '../context-window/get-context-window';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { readContextLimit } from '../errors/read-context-limit';
import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { toolCallsOf } from '../message/message-parts';
import { providerProfile } from '../provider/provider-profile';
import type { CompactionState } from '../store/compaction-state';
import type { CompactionStore } from '../store/compaction-store';
import { MemoryCompactionStore } from '../store/memory-compaction-store';
import { linkSignals } from '../summarize/abortable';
import { capToolResults } from '../truncate/cap-tool-results';
import { claimSummary } from './claim-summary';
import type { CompactMessagesResult } from './compact-messages';
import { stateMatches } from './compaction-layout';
import {
  type CompactionOptions,
  type ResolvedCompactionOptions,
  resolveCompactionOptions,
} from './compaction-options';
import { deriveConversationId } from './conversation-id';
import { createDistributedFlight, type LeaseOptions } from './distributed-flight';
import { needsSummary } from './needs-summary';
import { prepareWithStore } from './prepare-with-store';
import { recognizeMessages } from './recognize-messages';
import type { ReductionLevel } from './reduction-level';
import { requestBudget } from './request-budget';
import { OVERFLOW_KEEP_GROUPS, runCompaction } from './run-compaction';

/** Options of {@link createCompactor}. */
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
   * process, until it answers again.
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
  /** Tokens besides the messages (tool definitions, framing). @default 0 */
  overheadTokens?: number;
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
  /** Aborts the summarizer at once (the reason is thrown). */
  abortSignal?: AbortSignal;
}

/**
 * A compaction engine with memory: the store, the usage calibration, learned windows, and
 * single-flight per conversation (across instances when the store has a lease). Adapters hold one;
 * see {@link createCompactor}.
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
   * when nothing is older). Joins a compaction already running for the conversation instead of
   * starting another.
   */
  compact(messages: readonly Message[], options?: CompactOptions): Promise<CompactionState | undefined>;
  /** The window the compactor uses for `model`: the options, the learned windows, the table. */
  contextWindowFor(model: string | undefined): number | undefined;
  /** Whether a compaction is running for the conversation. */
  isCompacting(conversationId: string): boolean;
  /** Resolves when no compaction is running (for tests, shutdown, serverless hosts). Always settles. */
  idle(): Promise<void>;
}

interface Flight {
  kind: 'request' | 'background';
  promise: Promise<unknown>;
}

interface Cooldown {
  /** Requests left before summarizing may be tried again in the foreground. */
  remaining: number;
  /** Whether the one background retry after a failure is still to be made. */
  backgroundRetry: boolean;
}

/** Stands in for the user's next message when measuring after a final answer. */
const NEXT_TURN: Message = { role: 'user', content: '' };

/**
 * Creates a {@link Compactor}. Options are checked here, once.
 *
 * @example
 * const compactor = createCompactor({ contextWindow: 128_000, summarizer });
 * const { messages: toSend, estimatedTokens } = await compactor.prepare(messages, { conversationId });
 * const response = await callModel(toSend);
 * void compactor.afterResponse([...messages, response], { conversationId, inputTokens, estimatedTokens });
 *
 * @throws {InvalidConfigError} for a bad option.
 */
export function createCompactor({
  store = new MemoryCompactionStore(),
  contextWindows,
  retrySummaryAfter = 5,
  warnOnUnknownContextWindow = true,
  lease,
  storeTimeoutMs = 1000,
  ...options
}: CompactorOptions = {}): Compactor {
  const resolved = resolveCompactionOptions(options);
  const shared = createDistributedFlight({ store, onEvent: resolved.onEvent, lease, storeTimeoutMs });
  if (!Number.isInteger(retrySummaryAfter) || retrySummaryAfter < 0) {
    throw new InvalidConfigError({
      option: 'retrySummaryAfter',
      value: retrySummaryAfter,
      message: 'must be a whole number of requests, 0 or more',
    });
  }
  if (contextWindows !== undefined) {
    if (typeof contextWindows !== 'object' || contextWindows === null) {
      throw new InvalidConfigError({
        option: 'contextWindows',
        value: contextWindows,
        message: 'must be an object of model id → window in tokens',
      });
    }
    for (const [id, value] of Object.entries(contextWindows)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
        throw new InvalidConfigError({
          option: `contextWindows.${id}`,
          value,
          message: 'must be a finite number of tokens above 0',
        });
      }
    }
  }
  const flights = new Map<string, Flight>();
  const cooldowns = new Map<string, Cooldown>();
  /** Windows learned from providers' overflow errors, by model id. */
  const learnedWindows = new Map<string, number>();
  /** Models whose unknown window has been reported. */
  const reportedUnknown = new Set<string>();
  /** The raw estimate of the last request prepared per conversation (for calibrating from errors). */
  const lastEstimates = new Map<string, number>();
  /** How far the last request of each conversation reduced its history (kept at least that far). */
  const reductionLevels = new Map<string, ReductionLevel>();

  const noteFailure = (conversationId: string, reason: 'request' | 'background') => {
    if (retrySummaryAfter === 0) return;
    const previous = cooldowns.get(conversationId);
    // A failed request gets one background retry; a failed background attempt waits out the cooldown.
    const backgroundRetry = reason === 'request' && previous?.backgroundRetry !== false;
    cooldowns.set(conversationId, { remaining: retrySummaryAfter, backgroundRetry });
  };
  /** Whether foreground summarizing is on hold for the conversation; counts one request off. */
  const takeCooldown = (conversationId: string): Cooldown | undefined => {
    const cooldown = cooldowns.get(conversationId);
    if (cooldown === undefined) return undefined;
    if (cooldown.remaining <= 1 && !cooldown.backgroundRetry) cooldowns.delete(conversationId);
    else cooldown.remaining = Math.max(0, cooldown.remaining - 1);
    return cooldown;
  };

  const contextWindowFor = (model: string | undefined, contextWindow?: number): number | undefined => {
    const learned = model === undefined ? undefined : learnedWindows.get(model);
    const configured =
      contextWindow ?? resolved.contextWindow ?? getContextWindow(model, { overrides: contextWindows });
    // A provider's stated limit wins over a table entry, an option or a per-call window that
    // promised more.
    if (learned !== undefined) return configured === undefined ? learned : Math.min(learned, configured);
    return configured;
  };
  const reportUnknown = (model: string | undefined, conversationId: string) => {
    const key = model ?? '';
    if (reportedUnknown.has(key)) return;
    reportedUnknown.add(key);
    resolved.onEvent({ type: 'context-window-unknown', conversationId, model });
    if (warnOnUnknownContextWindow) {
      console.warn(
        `[spillway] The context window of ${model === undefined ? 'this model' : `model "${model}"`} is unknown, so ` +
          'conversations are not compacted until a provider error states the limit. Set `contextWindow` ' +
          '(or `contextWindows: { [modelId]: tokens }`) to enable compaction, or ' +
          '`warnOnUnknownContextWindow: false` to silence this.',
      );
    }
  };
  const windowFor = (
    model: string | undefined,
    contextWindow: number | undefined,
    conversationId: string,
  ) => {
    const window = contextWindowFor(model, contextWindow);
    if (window === undefined) reportUnknown(model, conversationId);
    return window;
  };
  const learnFromOverflow = (
    model: string | undefined,
    error: unknown,
    estimatedTokens: number | undefined,
  ) => {
    const { limit, tokens } = readContextLimit(error);
    if (limit !== undefined && model !== undefined) {
      const known = learnedWindows.get(model);
      learnedWindows.set(model, known === undefined ? limit : Math.min(known, limit));
      if (known === undefined) reportedUnknown.delete(model);
    }
    if (tokens !== undefined && estimatedTokens !== undefined && estimatedTokens > 0) {
      resolved.estimator.calibrate({ model, estimatedTokens, actualTokens: tokens });
    }
  };
  const rememberLevel = (conversationId: string, level: ReductionLevel | undefined) => {
    if (level === undefined) return;
    reductionLevels.delete(conversationId);
    reductionLevels.set(conversationId, level);
    if (reductionLevels.size > 1_000) reductionLevels.delete(reductionLevels.keys().next().value as string);
  };
  const rememberEstimate = (conversationId: string, estimatedTokens: number) => {
    lastEstimates.delete(conversationId);
    lastEstimates.set(conversationId, estimatedTokens);
    if (lastEstimates.size > 1_000) lastEstimates.delete(lastEstimates.keys().next().value as string);
  };

  const withOverrides = (
    model: string | undefined,
    provider: string | undefined,
  ): ResolvedCompactionOptions =>
    (model === undefined || model === resolved.model) &&
    (provider === undefined || provider === resolved.provider)
      ? resolved
      : {
          ...resolved,
          ...(model === undefined ? {} : { model }),
          ...(provider === undefined ? {} : { provider }),
        };

  const track = <T>(conversationId: string, kind: Flight['kind'], run: () => Promise<T>): Promise<T> => {
    const promise = run().finally(() => {
      if (flights.get(conversationId)?.promise === promise) flights.delete(conversationId);
    });
    flights.set(conversationId, { kind, promise });
    return promise;
  };

  /** The conversation after the storage-time cap. */
  const capped = (messages: readonly Message[]) =>
    capToolResults(messages, {
      maxChars: resolved.toolResultMaxChars,
      limits: resolved.toolResultLimits,
    }).messages;
  /** The stored state if it still applies to `messages`. */
  const applicable = (messages: readonly Message[], stored: CompactionState | undefined) =>
    stateMatches(messages, stored) ? stored : undefined;

  /**
   * Summarizes in the background when the request the next call would send, after the reductions
   * that need no model, is over the trigger (see `requestBudget`). Takes the store's lease when it
   * has one; another instance already at it means this one goes on. Never rejects.
   */
  const startBackground = (
    id: string,
    conversation: readonly Message[],
    {
      effective,
      window,
      overheadTokens,
      responseTokens,
      abortSignal,
      turnFinished,
    }: {
      effective: ResolvedCompactionOptions;
      window: number;
      overheadTokens: number;
      responseTokens: number;
      abortSignal: AbortSignal | undefined;
      turnFinished: boolean;
    },
  ): Promise<void> =>
    track(id, 'background', async () => {
      let release: (() => Promise<void>) | undefined;
      // After a final answer the next request starts a new turn: what is the current turn now will
      // be history then (reducible, and summarizable once outside the protected window).
      const messages = turnFinished ? [...conversation, NEXT_TURN] : conversation;
      try {
        const budget = requestBudget(window, effective);
        const over = async (stored: CompactionState | undefined) => {
          const measured = await runCompaction(messages, effective, {
            state: applicable(messages, stored),
            conversationId: id,
            overheadTokens,
            contextWindow: window,
            allowSummarize: false,
            mode: 'measure',
          });
          // Summarize once the reductions that need no model cannot keep the next request well
          // under the background threshold.
          return measured.tokensAfter + responseTokens >= budget.summaryTriggerTokens;
        };
        // A stored summary only makes the request smaller: under the trigger without one, the store
        // need not be asked.
        if (!(await over(undefined))) return;
        const loaded = await shared.read(id);
        if (loaded.revision === undefined || !(await over(loaded.state))) return;
        // Another instance compacting this conversation: go on without waiting.
        const claim = await claimSummary(shared, id, {
          loaded: { state: loaded.state, revision: loaded.revision },
          stillNeeded: over,
        });
        if (claim.kind === 'skip') return;
        release = claim.lease?.release;
        const result = await runCompaction(messages, effective, {
          state: applicable(messages, claim.loaded.state),
          conversationId: id,
          overheadTokens,
          contextWindow: window,
          mode: 'summarize',
          summarizeReason: 'background',
          ...(abortSignal === undefined ? {} : { abortSignal }),
        });
        if (result.stateChanged && result.state) {
          await shared.write(id, result.state, { revision: claim.loaded.revision, lease: claim.lease });
          cooldowns.delete(id);
        }
      } catch (error) {
        if (!abortSignal?.aborted) noteFailure(id, 'background');
        resolved.onEvent({
          type: 'compaction-failed',
          conversationId: id,
          reason: 'background',
          error,
          fallback: 'none',
        });
      } finally {
        await release?.();
      }
    });

  const compactor: Compactor = {
    estimator: resolved.estimator,
    store,
    contextWindowFor: (model) => contextWindowFor(model ?? resolved.model),

    async prepare(
      messages,
      {
        conversationId,
        model,
        provider,
        contextWindow,
        overheadTokens = 0,
        overflowAttempt,
        overflowError,
        abortSignal,
        originals,
        recallTool,
      } = {},
    ) {
      abortSignal?.throwIfAborted();
      const id = conversationId ?? deriveConversationId(messages);
      recognizeMessages(messages, { conversationId: id, scope: resolved.estimator });
      const effectiveModel = model ?? resolved.model;
      if (overflowError !== undefined)
        learnFromOverflow(effectiveModel, overflowError, lastEstimates.get(id));
      const window = windowFor(effectiveModel, contextWindow, id);
      const effective = withOverrides(model, provider);
      if (overflowAttempt !== undefined) {
        const attempt = Math.max(1, Math.floor(overflowAttempt));
        resolved.onEvent({
          type: 'overflow-retry',
          conversationId: id,
          attempt,
          keepGroups: OVERFLOW_KEEP_GROUPS[Math.min(attempt, OVERFLOW_KEEP_GROUPS.length) - 1]!,
        });
      }
      const deadline = Date.now() + resolved.summaryTimeouts.foreground;
      const run = async (allowSummarize: boolean): Promise<PrepareResult> => {
        const result = await prepareWithStore({
          flight: shared,
          conversationId: id,
          allowSummarize,
          waitMs: Math.max(0, deadline - Date.now()),
          abortSignal,
          needsSummary: (state) =>
            needsSummary({
              messages,
              state,
              options: effective,
              contextWindow: window,
              overheadTokens,
              overflowAttempt,
            }),
          compute: (state, summarize) =>
            runCompaction(messages, effective, {
              state,
              conversationId: id,
              overheadTokens,
              overflowAttempt,
              allowSummarize: summarize,
              abortSignal,
              contextWindow: window,
              ...(originals === undefined ? {} : { originals }),
              ...(recallTool === undefined ? {} : { recallTool }),
              ...(reductionLevels.has(id) ? { reductionLevel: reductionLevels.get(id)! } : {}),
              ...(overflowAttempt !== undefined && lastEstimates.has(id)
                ? { rejectedTokens: lastEstimates.get(id)! }
                : {}),
            }),
        });
        abortSignal?.throwIfAborted();
        if (result.stateChanged) cooldowns.delete(id);
        if (result.actions.includes('summarize-failed')) noteFailure(id, 'request');
        rememberEstimate(id, result.estimatedTokens);
        rememberLevel(id, result.reductionLevel);
        return { ...result, conversationId: id, contextWindow: window };
      };
      const cooldown = takeCooldown(id);
      if (cooldown?.backgroundRetry && window !== undefined && !flights.has(id)) {
        // The one retry after a failure: in the background, so this request does not wait for it.
        cooldown.backgroundRetry = false;
        if (cooldown.remaining === 0) cooldowns.delete(id);
        void startBackground(id, messages, {
          effective,
          window,
          overheadTokens,
          responseTokens: 0,
          abortSignal: undefined,
          turnFinished: false,
        });
      }
      // Check and claim the conversation in one synchronous step, so two requests never both
      // summarize. A request waits for another request's compaction (up to the foreground limit);
      // it does not wait for a background one (and does not start a second: the request is brought
      // under the threshold without a model until the summary is ready).
      for (;;) {
        const flight = flights.get(id);
        if (flight === undefined) {
          return cooldown !== undefined ? run(false) : track(id, 'request', () => run(true));
        }
        if (flight.kind === 'background') return run(false);
        const waited = linkSignals([abortSignal], deadline - Date.now());
        try {
          await new Promise<void>((resolve) => {
            flight.promise.then(
              () => resolve(),
              () => resolve(),
            );
            waited.signal.addEventListener('abort', () => resolve(), { once: true });
          });
        } finally {
          waited.dispose();
        }
        abortSignal?.throwIfAborted();
        if (waited.timedOut() || Date.now() >= deadline) return run(false);
      }
    },

    afterResponse(
      messages,
      {
        conversationId,
        model,
        provider,
        contextWindow,
        inputTokens,
        estimatedTokens,
        responseTokens = 0,
        overheadTokens = 0,
        abortSignal,
        turnFinished,
      } = {},
    ) {
      try {
        const effectiveModel = model ?? resolved.model;
        if (inputTokens !== undefined && estimatedTokens !== undefined) {
          resolved.estimator.calibrate({ model: effectiveModel, estimatedTokens, actualTokens: inputTokens });
        }
        const id = conversationId ?? deriveConversationId(messages);
        recognizeMessages(messages, { conversationId: id, scope: resolved.estimator });
        const window = windowFor(effectiveModel, contextWindow, id);
        if (window === undefined || flights.has(id) || cooldowns.has(id) || abortSignal?.aborted) {
          return Promise.resolve();
        }
        const last = messages.at(-1);
        return startBackground(id, messages, {
          effective: withOverrides(model, provider),
          window,
          overheadTokens,
          responseTokens,
          abortSignal,
          turnFinished: turnFinished ?? (last?.role === 'assistant' && toolCallsOf(last).length === 0),
        });
      } catch (error) {
        resolved.onEvent({
          type: 'compaction-failed',
          conversationId: conversationId ?? 'unknown',
          reason: 'background',
          error,
          fallback: 'none',
        });
        return Promise.resolve();
      }
    },

    async compact(messages, { conversationId, model, provider, contextWindow, abortSignal } = {}) {
      abortSignal?.throwIfAborted();
      const id = conversationId ?? deriveConversationId(messages);
      recognizeMessages(messages, { conversationId: id, scope: resolved.estimator });
      const running = flights.get(id);
      if (running) {
        await running.promise.catch(() => {});
        return applicable(messages, (await shared.read(id)).state);
      }
      const effectiveModel = model ?? resolved.model;
      const window = windowFor(effectiveModel, contextWindow, id);
      const effective = withOverrides(model, provider);
      const estimator = estimatorOf(effective);
      return track(id, 'request', async () => {
        const loaded = await shared.read(id);
        const working = capped(messages);
        let state = applicable(messages, loaded.state);
        let revision = loaded.revision;
        let claim: Awaited<ReturnType<typeof claimSummary>> | undefined;
        if (revision !== undefined) {
          claim = await claimSummary(shared, id, {
            loaded: { state: loaded.state, revision },
            stillNeeded: () => true,
            wait: { deadline: Date.now() + resolved.summaryTimeouts.foreground, abortSignal },
          });
          // Another instance compacted it (or the store failed): that is the answer.
          if (claim.kind === 'skip') return applicable(messages, claim.loaded.state);
          state = applicable(messages, claim.loaded.state);
          revision = claim.loaded.revision;
        }
        const held = claim?.kind === 'claimed' ? claim.lease : undefined;
        try {
          const result = await runCompaction(messages, effective, {
            state,
            conversationId: id,
            contextWindow: window,
            mode: 'summarize',
            summarizeReason: 'manual',
            ...(abortSignal === undefined ? {} : { abortSignal }),
          });
          if (result.stateChanged && result.state) {
            await shared.write(id, result.state, { revision, lease: held });
            cooldowns.delete(id);
          }
          return result.state;
        } finally {
          await held?.release();
        }
      });
    },

    isCompacting(conversationId) {
      return flights.has(conversationId);
    },

    async idle() {
      while (flights.size > 0) {
        await Promise.allSettled([...flights.values()].map((flight) => flight.promise));
      }
    },
  };
  return compactor;
}

function estimatorOf(options: ResolvedCompactionOptions): Estimator {
  const { estimator, provider } = options;
  if (provider === undefined || estimator.forProvider === undefined) return estimator;
  return estimator.forProvider(providerProfile(provider));
}

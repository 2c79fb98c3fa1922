import { getContextWindow } from '../context-window/get-context-window';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import type { CompactionStore } from '../store/compaction-store';
import { MemoryCompactionStore } from '../store/memory-compaction-store';
import { capToolResults } from '../truncate/cap-tool-results';
import { claimSummary } from './claim-summary';
import { type CompactMessagesResult, OVERFLOW_KEEP_GROUPS, runCompaction } from './compact-messages';
import { assembleRequest, layoutConversation, stateMatches } from './compaction-layout';
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
import { summarizeOlder } from './summarize-older';

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
   * After a summary fails (twice: the summarizer's own retry included), this many requests of the
   * conversation go by before summarizing is tried again; meanwhile the stages that need no model
   * keep each request within the window, and no background compaction starts. `0` tries on every
   * request. A manual `compact` always tries.
   * @default 5
   */
  retrySummaryAfter?: number;
  /**
   * How the store's lease is used, when the store has one (`MemoryCompactionStore`,
   * `@spillway/redis`, `@spillway/postgres`): one summarizer run per threshold crossing across every
   * instance sharing the store. `false` ignores the store's lease (single-flight per process only).
   * @default { ttlMs: 30_000, pollIntervalMs: 100 }
   */
  lease?: LeaseOptions | false;
  /**
   * Longest wait for one store call, in milliseconds. A call that fails or takes longer is reported
   * as a `store-error` event and the request goes on without stored state.
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
  /** The window for this request; overrides the option and the model lookup. */
  contextWindow?: number;
  /** Tokens besides the messages (tool definitions, framing). @default 0 */
  overheadTokens?: number;
  /** Set on the n-th retry after the provider rejected the prompt as too long (1, 2, …). */
  overflowAttempt?: number;
  abortSignal?: AbortSignal;
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
  conversationId?: string;
  model?: string;
  contextWindow?: number;
  /** The provider's reported input tokens for the request (calibrates the estimator). */
  inputTokens?: number;
  /** `estimatedTokens` from the `prepare` that built the request, paired with `inputTokens`. */
  estimatedTokens?: number;
  /** Tokens the response adds to the conversation (e.g. reported output tokens). @default 0 */
  responseTokens?: number;
  /** Tokens besides the messages (tool definitions, framing). @default 0 */
  overheadTokens?: number;
}

/** Per-call options of {@link Compactor.compact}. */
export interface CompactOptions {
  conversationId?: string;
  model?: string;
  contextWindow?: number;
  abortSignal?: AbortSignal;
}

/**
 * A compaction engine with memory: the store, the usage calibration, and single-flight per
 * conversation. Adapters hold one; see {@link createCompactor}.
 */
export interface Compactor {
  /** The estimator (and its calibration) every count goes through. */
  readonly estimator: Estimator;
  /** Where state is kept. */
  readonly store: CompactionStore;
  /**
   * Before a request: the compacted messages to send. Applies the ready summary; compacts now when
   * over the compact threshold and no compaction is running for the conversation; drops the oldest
   * messages from the request in an emergency. Stores a new state when one is made. Waits for a
   * compaction that another request started for the same conversation, never starts a second.
   */
  prepare(messages: readonly Message[], options?: PrepareOptions): Promise<PrepareResult>;
  /**
   * After a response completes: calibrates from the reported usage and, when the conversation is
   * over the background threshold, starts summarizing in the background (single-flight). Returns at
   * once with a promise of that work (never rejects): hand it to a `waitUntil` on serverless hosts,
   * or ignore it.
   */
  afterResponse(messages: readonly Message[], options?: AfterResponseOptions): Promise<void>;
  /**
   * Compacts now, whatever the usage (a "compact" button): summarizes what is older than the
   * protected window, stores and returns the new state (the current one when nothing is older).
   * Joins a compaction already running for the conversation instead of starting another.
   */
  compact(messages: readonly Message[], options?: CompactOptions): Promise<CompactionState | undefined>;
  /** Whether a compaction is running for the conversation. */
  isCompacting(conversationId: string): boolean;
  /** Resolves when no compaction is running (for tests, shutdown, serverless hosts). */
  idle(): Promise<void>;
}

/**
 * Longest wait for another instance's summary before a request goes on without it, in
 * milliseconds: the foreground time limit for making a summary (`summaryTimeouts.foreground` where
 * the options have it), 15 s by default.
 */
const FOREGROUND_WAIT_MS = 15_000;
const foregroundLimit = (options: ResolvedCompactionOptions): number =>
  (options as { summaryTimeouts?: { foreground?: number } }).summaryTimeouts?.foreground ??
  FOREGROUND_WAIT_MS;

interface Flight {
  kind: 'request' | 'background';
  promise: Promise<unknown>;
}

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
  const flights = new Map<string, Flight>();
  /** Requests left before a conversation whose summary failed may be summarized again. */
  const cooldowns = new Map<string, number>();
  const noteFailure = (conversationId: string) => {
    if (retrySummaryAfter > 0) cooldowns.set(conversationId, retrySummaryAfter);
  };
  /** Whether summarizing is on hold for the conversation; counts one request off when it is. */
  const takeCooldown = (conversationId: string): boolean => {
    const remaining = cooldowns.get(conversationId);
    if (remaining === undefined) return false;
    if (remaining <= 1) cooldowns.delete(conversationId);
    else cooldowns.set(conversationId, remaining - 1);
    return true;
  };

  const windowFor = (model: string | undefined, contextWindow: number | undefined) =>
    contextWindow ?? resolved.contextWindow ?? getContextWindow(model, { overrides: contextWindows });
  const withModel = (model: string | undefined): ResolvedCompactionOptions =>
    model === undefined || model === resolved.model ? resolved : { ...resolved, model };

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

  const compactor: Compactor = {
    estimator: resolved.estimator,
    store,

    async prepare(
      messages,
      { conversationId, model, contextWindow, overheadTokens, overflowAttempt, abortSignal } = {},
    ) {
      const id = conversationId ?? deriveConversationId(messages);
      recognizeMessages(messages, { conversationId: id });
      const window = windowFor(model ?? resolved.model, contextWindow);
      const effective = withModel(model);
      if (overflowAttempt !== undefined) {
        const attempt = Math.max(1, Math.floor(overflowAttempt));
        resolved.onEvent({
          type: 'overflow-retry',
          conversationId: id,
          attempt,
          keepGroups: OVERFLOW_KEEP_GROUPS[Math.min(attempt, OVERFLOW_KEEP_GROUPS.length) - 1]!,
        });
      }
      const run = async (allowSummarize: boolean): Promise<PrepareResult> => {
        const result = await prepareWithStore({
          flight: shared,
          conversationId: id,
          allowSummarize,
          waitMs: foregroundLimit(resolved),
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
            }),
        });
        if (result.actions.includes('summarize-failed')) noteFailure(id);
        return { ...result, conversationId: id, contextWindow: window };
      };
      const coolingDown = takeCooldown(id);
      // Check and claim the conversation in one synchronous step, so two requests never both
      // summarize. A request waits for another request's compaction; it does not wait for a
      // background one (and does not start a second: the emergency stage covers the gap).
      for (;;) {
        const flight = flights.get(id);
        if (flight === undefined) return coolingDown ? run(false) : track(id, 'request', () => run(true));
        if (flight.kind === 'background') return run(false);
        await flight.promise.catch(() => {});
      }
    },

    afterResponse(
      messages,
      {
        conversationId,
        model,
        contextWindow,
        inputTokens,
        estimatedTokens,
        responseTokens = 0,
        overheadTokens = 0,
      } = {},
    ) {
      const effectiveModel = model ?? resolved.model;
      if (inputTokens !== undefined && estimatedTokens !== undefined) {
        resolved.estimator.calibrate({ model: effectiveModel, estimatedTokens, actualTokens: inputTokens });
      }
      const window = windowFor(effectiveModel, contextWindow);
      const id = conversationId ?? deriveConversationId(messages);
      recognizeMessages(messages, { conversationId: id });
      if (window === undefined || flights.has(id) || cooldowns.has(id)) return Promise.resolve();
      const effective = withModel(model);
      return track(id, 'background', async () => {
        let release: (() => Promise<void>) | undefined;
        try {
          const working = capped(messages);
          const countTokens = (list: readonly Message[]) =>
            resolved.estimator.calibrated(
              resolved.estimator.countMessages(list) + overheadTokens,
              effectiveModel,
            );
          const over = (stored: CompactionState | undefined) => {
            const current = applicable(messages, stored);
            const layout = layoutConversation(working, current?.coveredCount ?? 0);
            const request = current
              ? assembleRequest({
                  layout,
                  summaries: current.summaries,
                  placement: resolved.summaryPlacement,
                })
              : working;
            return countTokens(request) + responseTokens >= window * resolved.thresholds.background;
          };
          // A stored summary only makes the request smaller: under the threshold without one, the
          // store need not be asked.
          if (!over(undefined)) return;
          const loaded = await shared.read(id);
          if (loaded.revision === undefined || !over(loaded.state)) return;
          // Another instance compacting this conversation: go on without waiting.
          const claim = await claimSummary(shared, id, {
            loaded: { state: loaded.state, revision: loaded.revision },
            stillNeeded: over,
          });
          if (claim.kind === 'skip') return;
          release = claim.lease?.release;
          const result = await summarizeOlder({
            messages,
            working,
            state: applicable(messages, claim.loaded.state),
            options: effective,
            contextWindow: window,
            keepGroups: undefined,
            reason: 'background',
            conversationId: id,
            countTokens,
          });
          if (result.state) {
            await shared.write(id, result.state, { revision: claim.loaded.revision, lease: claim.lease });
          }
        } catch (error) {
          noteFailure(id);
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
    },

    async compact(messages, { conversationId, model, contextWindow, abortSignal } = {}) {
      const id = conversationId ?? deriveConversationId(messages);
      recognizeMessages(messages, { conversationId: id });
      const running = flights.get(id);
      if (running) {
        await running.promise.catch(() => {});
        return applicable(messages, (await shared.read(id)).state);
      }
      const effectiveModel = model ?? resolved.model;
      const window = windowFor(effectiveModel, contextWindow);
      return track(id, 'request', async () => {
        const loaded = await shared.read(id);
        const working = capped(messages);
        let state = applicable(messages, loaded.state);
        let revision = loaded.revision;
        let lease: Awaited<ReturnType<typeof claimSummary>> | undefined;
        if (revision !== undefined) {
          lease = await claimSummary(shared, id, {
            loaded: { state: loaded.state, revision },
            stillNeeded: () => true,
            wait: { deadline: Date.now() + foregroundLimit(resolved), abortSignal },
          });
          // Another instance compacted it (or the store failed): that is the answer.
          if (lease.kind === 'skip') return applicable(messages, lease.loaded.state);
          state = applicable(messages, lease.loaded.state);
          revision = lease.loaded.revision;
        }
        const held = lease?.kind === 'claimed' ? lease.lease : undefined;
        try {
          const result = await summarizeOlder({
            messages,
            working,
            state,
            options: withModel(model),
            contextWindow: window,
            keepGroups: undefined,
            reason: 'manual',
            conversationId: id,
            countTokens: (list) =>
              resolved.estimator.calibrated(resolved.estimator.countMessages(list), effectiveModel),
            abortSignal,
          });
          if (result.state) await shared.write(id, result.state, { revision, lease: held });
          return result.state ?? state;
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

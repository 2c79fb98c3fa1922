import { type CompactionMiddlewareOptions, compactionMiddleware } from '@spillway/ai-sdk-middleware';
import { extractiveSummarizer, type Summarizer } from '@spillway/core';
import type { LanguageModelMiddleware } from 'ai';
import { createSummaryLanguageModel } from '../summarizer/summary-models';
import { createAiSdkSession } from './ai-sdk-session';
import type { ReadBack, Strategy, StrategyContext } from './strategy';

/** What a Spillway read-back is built from (see {@link SpillwayStrategyOptions.readBack}). */
export interface SpillwayReadBackInput {
  /** The middleware under test (its `compactor` holds the store). */
  middleware: ReturnType<typeof compactionMiddleware>;
  /** The key the conversation is stored under. */
  conversationId: string;
  context: StrategyContext;
}

/** Options of {@link spillwayStrategy}. */
export interface SpillwayStrategyOptions {
  /**
   * The row label.
   * @default 'Spillway'
   */
  name?: string;
  /**
   * Options for `compactionMiddleware` (every engine option of `createCompactor`), on top of the
   * run's window and summarizer. A new variant is one more entry with different options.
   * @default {} (the defaults)
   */
  options?: Omit<CompactionMiddlewareOptions, 'contextWindow' | 'summarizer'>;
  /**
   * `'run'`: the run's summarizer, as an AI SDK model (what every peer is given). `'extractive'`:
   * Spillway's own deterministic `extractiveSummarizer` (its offline default; no model).
   * @default 'run'
   */
  summarizer?: 'run' | 'extractive';
  /**
   * Spillway's read-back mechanism for the recoverability score: given the middleware and the
   * conversation, the tool calls a model would make (build one with `toolReadBack`). Spillway has
   * none today; the recall tool (`spillway_recall`, core's `recall/`) plugs in here.
   * @default none
   */
  readBack?: (input: SpillwayReadBackInput) => ReadBack | undefined;
}

/**
 * Spillway through its real public API: `compactionMiddleware` from `@spillway/ai-sdk-middleware`
 * wrapping the fake provider in a real `generateText` call, with a stable conversation id. After
 * each call the benchmark waits for background compaction to finish (`compactor.idle()`), so a
 * run is deterministic.
 */
export function spillwayStrategy({
  name = 'Spillway',
  options = {},
  summarizer = 'run',
  readBack,
}: SpillwayStrategyOptions = {}): Strategy {
  return {
    name,
    summarizes: true,
    readsBack: readBack !== undefined,
    async start(context) {
      const model = createSummaryLanguageModel({
        summarizer: context.summarizer,
        contextWindow: context.contextWindow,
        counter: context.counter,
      });
      let extractiveCalls = 0;
      let extractiveTokens = 0;
      const extractive: Summarizer = (input) => {
        extractiveCalls++;
        extractiveTokens += context.counter.text(input.system) + context.counter.text(input.prompt);
        return extractiveSummarizer(input);
      };
      const middleware = compactionMiddleware({
        ...options,
        contextWindow: context.contextWindow,
        summarizer: summarizer === 'extractive' ? extractive : model.model,
      });
      const conversationId = `bench-${context.conversation.seed}`;
      const session = createAiSdkSession({
        context,
        middleware: middleware as LanguageModelMiddleware,
        providerOptions: { spillway: { conversationId } },
        afterCall: () => middleware.compactor.idle(),
      });
      return {
        step: session.step,
        readBack: readBack?.({ middleware, conversationId, context }),
        summarizerCalls: () => (summarizer === 'extractive' ? extractiveCalls : model.calls()),
        summarizerTokens: () => (summarizer === 'extractive' ? extractiveTokens : model.tokens()),
      };
    },
  };
}

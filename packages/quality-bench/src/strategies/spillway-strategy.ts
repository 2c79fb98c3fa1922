import { type CompactionMiddlewareOptions, compactionMiddleware } from '@spillway/ai-sdk-middleware';
import { extractiveSummarizer, RECALL_TOOL_NAME, type Summarizer } from '@spillway/core';
import type { LanguageModelMiddleware } from 'ai';
import { createSummaryLanguageModel } from '../summarizer/summary-models';
import { createAiSdkSession } from './ai-sdk-session';
import { spillwayRecallReadBack } from './spillway-recall-read-back';
import type { Strategy } from './strategy';

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
   * Whether the application offers the model Spillway's read-back tool: `tools: { spillway_recall:
   * middleware.recallTool() }` on every call, and the simulated model uses it for the
   * recoverability score (search the cue, read the page at the match; see
   * {@link spillwayRecallReadBack}).
   * @default false
   */
  recall?: boolean;
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
  recall = false,
}: SpillwayStrategyOptions = {}): Strategy {
  return {
    name,
    summarizes: true,
    readsBack: recall,
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
      const recallTool = middleware.recallTool();
      const session = createAiSdkSession({
        context,
        middleware: middleware as LanguageModelMiddleware,
        providerOptions: { spillway: { conversationId } },
        afterCall: () => middleware.compactor.idle(),
        ...(recall ? { tools: { [RECALL_TOOL_NAME]: recallTool } } : {}),
      });
      return {
        step: session.step,
        readBack: recall ? spillwayRecallReadBack(recallTool) : undefined,
        summarizerCalls: () => (summarizer === 'extractive' ? extractiveCalls : model.calls()),
        summarizerTokens: () => (summarizer === 'extractive' ? extractiveTokens : model.tokens()),
      };
    },
  };
}

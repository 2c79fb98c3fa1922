import { Agent } from '@mastra/core/agent';
import { noopLogger } from '@mastra/core/logger';
import { TokenLimiterProcessor, ToolCallFilter } from '@mastra/core/processors';
import { isContextOverflowError } from '@spillway/core';
import { compactionProcessor } from '@spillway/mastra';
import { createProviderModel } from '../run/provider-model';
import { createSummaryLanguageModel } from '../summarizer/summary-models';
import type { Strategy } from './strategy';

/** Options of {@link mastraStrategy}. */
export interface MastraStrategyOptions {
  /**
   * The row label.
   * @default 'Mastra TokenLimiterProcessor' (or the Spillway / filter variant's name)
   */
  name?: string;
  /**
   * The agent's input processors:
   * - `token-limiter`: Mastra's `TokenLimiterProcessor` at 85% of the window (Spillway's compact
   *   threshold, so both aim at the same size);
   * - `tool-call-filter`: `ToolCallFilter` (older tool traffic out) before that limiter;
   * - `spillway`: `@spillway/mastra`'s `compactionProcessor`, in `inputProcessors` and
   *   `errorProcessors`, with the run's summarizer.
   * @default 'token-limiter'
   */
  processors?: 'token-limiter' | 'tool-call-filter' | 'spillway';
}

const NAMES = {
  'token-limiter': 'Mastra TokenLimiterProcessor',
  'tool-call-filter': 'Mastra ToolCallFilter + TokenLimiterProcessor',
  spillway: 'Spillway (Mastra processor)',
} as const;

/**
 * A real Mastra `Agent` (`@mastra/core`) with the fake provider as its model: every model call is
 * `agent.generate(history)` with the conversation so far and the system prompt as the agent's
 * instructions, through the agent's input processors, to a provider that rejects prompts over the
 * window. The history goes in whole on every call (no Mastra memory), as an application that keeps
 * its own history does. (Mastra 1.71 sends a `content` tool output it is handed as input as JSON
 * text: an image in an earlier tool result reaches the provider as its base64, which o200k counts
 * at about one token per 1.5 characters and `TokenLimiterProcessor`'s estimate at about a quarter
 * of that.)
 */
export function mastraStrategy({ name, processors = 'token-limiter' }: MastraStrategyOptions = {}): Strategy {
  return {
    name: name ?? NAMES[processors],
    summarizes: processors === 'spillway',
    readsBack: false,
    async start(context) {
      const { conversation, contextWindow } = context;
      const provider = createProviderModel({ contextWindow, counter: context.counter });
      const summaryModel = createSummaryLanguageModel({
        summarizer: context.summarizer,
        contextWindow,
        counter: context.counter,
      });
      const limit = Math.floor(0.85 * contextWindow);
      const spillway =
        processors === 'spillway'
          ? compactionProcessor({ contextWindow, summarizer: summaryModel.model })
          : undefined;
      const inputProcessors =
        spillway !== undefined
          ? [spillway]
          : processors === 'tool-call-filter'
            ? [new ToolCallFilter(), new TokenLimiterProcessor({ limit })]
            : [new TokenLimiterProcessor({ limit })];
      const agent = new Agent({
        id: 'quality-bench',
        name: 'quality bench agent',
        instructions: conversation.system,
        // Mastra 1.71 types a V4 model's `doGenerate` as returning a stream result; the mock is right.
        model: provider.model as never,
        inputProcessors,
        ...(spillway === undefined ? {} : { errorProcessors: [spillway] }),
      });
      // A rejected request is part of the run; Mastra's error log of each would drown the report.
      (agent as unknown as { __setLogger(logger: unknown): void }).__setLogger(noopLogger);
      return {
        async step(call) {
          const history = conversation.messages.slice(0, call.historyLength);
          try {
            await agent.generate(history as never, { maxSteps: 1 });
          } catch (error) {
            if (!isContextOverflowError(error)) throw error;
          }
          await spillway?.compactor.idle();
          return provider.take();
        },
        summarizerCalls: () => (spillway === undefined ? 0 : summaryModel.calls()),
        summarizerTokens: () => (spillway === undefined ? 0 : summaryModel.tokens()),
      };
    },
  };
}

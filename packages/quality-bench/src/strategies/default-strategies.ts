import { clearToolOutputStrategy } from './clear-tool-output-strategy';
import { contextChefStrategy } from './context-chef-strategy';
import { langchainStrategy } from './langchain-strategy';
import { mastraStrategy } from './mastra-strategy';
import { pruneMessagesStrategy } from './prune-messages-strategy';
import { sendNothingStrategy } from './send-nothing-strategy';
import { slidingWindowStrategy } from './sliding-window-strategy';
import { spillwayStrategy } from './spillway-strategy';
import type { Strategy } from './strategy';

/**
 * The strategies a run compares, in table order. A Spillway variant is one more line with other
 * `options` (any `compactionMiddleware` / `createCompactor` option), e.g.
 *
 *   spillwayStrategy({ name: 'Spillway, no pinned rules', options: { pinnedRules: false } }),
 */
export function defaultStrategies(): Strategy[] {
  return [
    spillwayStrategy(),
    spillwayStrategy({ name: 'Spillway + spillway_recall', recall: true }),
    spillwayStrategy({ name: 'Spillway, extractive summarizer', summarizer: 'extractive' }),
    spillwayStrategy({ name: 'Spillway, protectedRatio 0.5', options: { protectedRatio: 0.5 } }),
    spillwayStrategy({
      name: 'Spillway, no structural stages',
      options: { supersedeToolResults: false, collapseExchanges: false, clusterToolResults: false },
    }),
    contextChefStrategy(),
    contextChefStrategy({ name: '@context-chef, in-flight (quick start)', persist: false, archive: false }),
    langchainStrategy(),
    langchainStrategy({ name: 'LangChain summarization + contextEditing', clearToolUsesAt: 0.5 }),
    mastraStrategy(),
    pruneMessagesStrategy(),
    clearToolOutputStrategy(),
    slidingWindowStrategy(),
    sendNothingStrategy(),
    sendNothingStrategy({ name: 'send nothing + read-back (control)', readBack: true }),
  ];
}

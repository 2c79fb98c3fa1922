import { isLanguageModel, type LanguageModelLike, languageModelSummarizer } from '@spillway/ai-sdk-prompt';
import {
  extractiveSummarizer,
  InvalidConfigError,
  type Summarizer,
  type SummarizerInput,
} from '@spillway/core';
import type { CompactionProcessorOptions } from '../compaction-processor-options';

/**
 * The engine's summarizer for the `summarizer` option: the agent's model (`agentModel`, per
 * conversation) when none is given, the extractive one, a given model, or a given function.
 * @throws {InvalidConfigError} for anything else.
 */
export function resolveSummarizer(
  summarizer: CompactionProcessorOptions['summarizer'],
  agentModel: (input: SummarizerInput) => LanguageModelLike | undefined,
): Summarizer {
  if (summarizer === undefined) return languageModelSummarizer({ model: agentModel });
  if (summarizer === 'extractive') return extractiveSummarizer;
  if (isLanguageModel(summarizer)) return languageModelSummarizer({ model: summarizer });
  if (typeof summarizer === 'function') return summarizer;
  throw new InvalidConfigError({
    option: 'summarizer',
    value: summarizer,
    message: "must be a language model, a function or 'extractive'",
  });
}

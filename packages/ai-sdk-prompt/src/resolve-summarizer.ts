import {
  extractiveSummarizer,
  InvalidConfigError,
  type Summarizer,
  type SummarizerInput,
} from '@spillway/core';
import { isLanguageModel, type LanguageModelLike } from './language-model-like';
import { languageModelSummarizer } from './language-model-summarizer';

/**
 * The engine's summarizer from an adapter's `summarizer` option: the model the conversation goes
 * to (`conversationModel`: the middleware's wrapped model, the Mastra agent's model) when none is
 * given, `extractiveSummarizer` for `'extractive'`, a language model called directly, or a function
 * as is.
 * @throws {InvalidConfigError} for anything else.
 */
export function resolveSummarizer(
  summarizer: LanguageModelLike | Summarizer | 'extractive' | undefined,
  conversationModel: (input: SummarizerInput) => LanguageModelLike | undefined,
): Summarizer {
  if (summarizer === undefined) return languageModelSummarizer({ model: conversationModel });
  if (summarizer === 'extractive') return extractiveSummarizer;
  if (isLanguageModel(summarizer)) return languageModelSummarizer({ model: summarizer });
  if (typeof summarizer === 'function') return summarizer;
  throw new InvalidConfigError({
    option: 'summarizer',
    value: summarizer,
    message: "must be a language model, a function or 'extractive'",
  });
}

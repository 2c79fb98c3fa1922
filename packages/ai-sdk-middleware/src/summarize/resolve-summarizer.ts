import { isLanguageModel, type LanguageModelLike, languageModelSummarizer } from '@spillway/ai-sdk-prompt';
import {
  extractiveSummarizer,
  InvalidConfigError,
  type Summarizer,
  type SummarizerInput,
} from '@spillway/core';

/**
 * The engine's summarizer from the middleware's `summarizer` option: the wrapped model by default,
 * `extractiveSummarizer` for `'extractive'`, a language model called directly, or a function as is.
 *
 * @throws {InvalidConfigError} for anything else.
 */
export function resolveSummarizer(
  summarizer: LanguageModelLike | Summarizer | 'extractive' | undefined,
  wrappedModel: (input: SummarizerInput) => LanguageModelLike | undefined,
): Summarizer {
  if (summarizer === undefined) return languageModelSummarizer({ model: wrappedModel });
  if (summarizer === 'extractive') return extractiveSummarizer;
  if (isLanguageModel(summarizer)) return languageModelSummarizer({ model: summarizer });
  if (typeof summarizer === 'function') return summarizer;
  throw new InvalidConfigError({
    option: 'summarizer',
    value: summarizer,
    message: "must be a language model, a function or 'extractive'",
  });
}

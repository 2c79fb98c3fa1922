import { InvalidConfigError, type Summarizer, type SummarizerInput } from '@spillway/core';
import type { LanguageModelLike } from './language-model-like';

/** Options of {@link languageModelSummarizer}. */
export interface LanguageModelSummarizerOptions {
  /**
   * The model that writes summaries (V3 or V4), or a function returning it per call (given the
   * summarizer's input, e.g. its `conversationId`).
   */
  model: LanguageModelLike | ((input: SummarizerInput) => LanguageModelLike | undefined);
  /**
   * Output budget of one summary call, in tokens; 90% of the engine's summary bound
   * (`SummarizerInput.maxTokens`: at most 2,048 and 10% of the window) is used when it is lower.
   * @default 4096
   */
  maxOutputTokens?: number;
}

/**
 * A `Summarizer` that calls an AI SDK language model directly (`doGenerate`, no middleware in
 * between, so summarizing never re-enters compaction). Works with V2, V3 and V4 models (and the model objects Mastra hands to processors, which make the same calls).
 */
export function languageModelSummarizer({
  model,
  maxOutputTokens = 4096,
}: LanguageModelSummarizerOptions): Summarizer {
  return async (input) => {
    const { system, prompt, abortSignal, maxTokens } = input;
    const target = typeof model === 'function' ? model(input) : model;
    if (target === undefined) {
      throw new InvalidConfigError({
        option: 'summarizer',
        value: undefined,
        message: 'no model to summarize with yet',
      });
    }
    const result = (await target.doGenerate({
      prompt: [
        { role: 'system', content: system },
        { role: 'user', content: [{ type: 'text', text: prompt }] },
      ],
      // A little under the bound: the model's tokenizer and the engine's estimate differ slightly.
      maxOutputTokens:
        maxTokens === undefined
          ? maxOutputTokens
          : Math.min(maxOutputTokens, Math.max(1, Math.floor(maxTokens * 0.9))),
      abortSignal,
    })) as { content?: readonly { type: string; text?: string }[] };
    return (result.content ?? [])
      .filter((part) => part.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text)
      .join('');
  };
}

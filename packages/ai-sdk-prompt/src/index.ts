// The public surface of @spillway/ai-sdk-prompt: the AI SDK language-model prompt (V2/V3/V4 shapes)
// to and from Spillway's neutral messages, shared by @spillway/ai-sdk-middleware and
// @spillway/mastra. An internal building block; adding a line here is an API decision.

export {
  type CompactionDataPart,
  type CompactionStatus,
  compactionDataPart,
} from './compaction-data-part';
export { type FromNeutralMessagesOptions, fromNeutralMessages } from './from-neutral-messages';
export { isLanguageModel, type LanguageModelLike } from './language-model-like';
export { type LanguageModelSummarizerOptions, languageModelSummarizer } from './language-model-summarizer';
export { modelContextWindow } from './model-context-window';
export { templateOf } from './origin';
export {
  type ConvertedPrompt,
  createPromptConverter,
  type PromptConverter,
  type PromptConverterOptions,
} from './prompt-converter';
export { repairPrompt } from './repair-prompt';
export { resolveSummarizer } from './resolve-summarizer';
export {
  type PromptVersion,
  promptVersionOf,
  type SdkMessage,
  type SdkPart,
  type SdkPrompt,
  type SdkToolResultOutput,
} from './sdk-prompt';
export { toNeutralMessage } from './to-neutral-message';

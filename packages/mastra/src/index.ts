// The public surface of @spillway/mastra. Adding a line here is an API decision.

export {
  type CompactionDataPart,
  type CompactionStatus,
  compactionDataPart,
} from '@spillway/ai-sdk-prompt';
export { type CompactionProcessor, compactionProcessor } from './compaction-processor';
export type {
  CompactionProcessorOptions,
  ContextUsage,
  ConversationIdInput,
} from './compaction-processor-options';
export {
  type RecallMastraTool,
  type RecallToolOptions,
  type RecallToolSchema,
  recallTool,
} from './recall/recall-tool';
export type { LanguageModelLike } from './summarize/language-model-like';
export {
  type LanguageModelSummarizerOptions,
  languageModelSummarizer,
} from './summarize/language-model-summarizer';

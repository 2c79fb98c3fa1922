// The public surface of @spillway/mastra. Adding a line here is an API decision.

export type { LanguageModelLike } from '@spillway/ai-sdk-prompt';
export {
  type CompactionDataPart,
  type CompactionStatus,
  compactionDataPart,
  type LanguageModelSummarizerOptions,
  languageModelSummarizer,
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

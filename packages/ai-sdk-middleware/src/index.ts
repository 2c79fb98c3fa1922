// The public surface of @spillway/ai-sdk-middleware. Adding a line here is an API decision.

export type { LanguageModelLike } from '@spillway/ai-sdk-prompt';
export {
  type CompactionDataPart,
  type CompactionStatus,
  compactionDataPart,
  type LanguageModelSummarizerOptions,
  languageModelSummarizer,
} from '@spillway/ai-sdk-prompt';
export type { CallParamsLike } from './call/call-params-like';
export type { SpillwayCallOptions } from './call/spillway-call-options';
export type { CompactAiTool, CompactToolOptions, CompactToolSchema } from './compact/compact-tool';
export { type CompactionMiddleware, compactionMiddleware } from './compaction-middleware';
export type {
  CompactionMiddlewareOptions,
  ContextUsage,
  ConversationIdInput,
} from './compaction-middleware-options';
export type { RecallMediaOutput, RecallToolOutput } from './recall/recall-media-output';
export {
  type RecallAiTool,
  type RecallToolOptions,
  type RecallToolSchema,
  recallTool,
} from './recall/recall-tool';
export { type ForwardCompactionEventsOptions, forwardCompactionEvents } from './ui/forward-compaction-events';

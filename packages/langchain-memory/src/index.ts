// The public surface of @spillway/langchain-memory. Adding a line here is an API decision.

export type { CompactNowResult } from './compact/compact-now-result';
export type { CompactToolOptions } from './compact/compact-tool';
export { fromNeutralMessages } from './convert/from-neutral-messages';
export { toNeutralMessages } from './convert/to-neutral-messages';
export type { TokenCounter } from './estimate/token-counter-estimator';
export { dispatchCompactionEvent, EVENT_NAME_PREFIX } from './events/dispatch-compaction-event';
export {
  type CompactHistoryOptions,
  CompactingChatMessageHistory,
  type CompactingChatMessageHistoryOptions,
  type GetPromptMessagesOptions,
} from './history/compacting-chat-message-history';
export { CompactionMemory, type CompactionMemoryOptions } from './memory/compaction-memory';
export type { CompactThreadOptions } from './middleware/compact-thread';
export { compactionMiddleware } from './middleware/compaction-middleware';
export type { CompactionMiddlewareOptions } from './middleware/compaction-middleware-options';
export { COMPACTION_STATE_KEY, compactionStateSchema } from './middleware/compaction-state-schema';
export type { TokenLimit } from './middleware/token-limit';
export { type RecallToolOptions, recallTool } from './recall/recall-tool';
export {
  createModelSummarizer,
  type InvokableChatModel,
  SUMMARY_RUN_TAG,
} from './summarize/model-summarizer';

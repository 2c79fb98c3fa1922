// The public surface of @spillway/core. Adding a line here is an API decision.

export {
  type CallWithOverflowRecoveryOptions,
  type CallWithOverflowRecoveryResult,
  callWithOverflowRecovery,
} from './compact/call-with-overflow-recovery';
export {
  type CompactMessagesOptions,
  type CompactMessagesResult,
  type CompactRequestOptions,
  compactMessages,
} from './compact/compact-messages';
export {
  COMPACT_TOOL_DESCRIPTION,
  COMPACT_TOOL_NAME,
  type CompactInput,
  type CompactToolInputProperty,
  type CompactToolInputSchema,
  type CompactToolOutcome,
  compactToolFailure,
  compactToolInputSchema,
  compactToolInstructions,
  compactToolReport,
  parseCompactInput,
} from './compact/compact-tool';
export type { CompactionAction } from './compact/compaction-action';
export type {
  CompactionEvent,
  CompactionEventHandler,
  CompactionReason,
  StoreErrorReason,
  StoreOperation,
} from './compact/compaction-event';
export { CONTINUATION_TEXT, type SummaryPlacement, stateMatches } from './compact/compaction-layout';
export type { CompactionOptions, CompactionThresholds } from './compact/compaction-options';
export type {
  AfterResponseOptions,
  CompactOptions,
  Compactor,
  CompactorOptions,
  PrepareOptions,
  PrepareResult,
} from './compact/compactor';
export { deriveConversationId } from './compact/conversation-id';
export { createCompactor } from './compact/create-compactor';
export { currentTurnStart } from './compact/current-turn';
export type { LeaseOptions } from './compact/distributed-flight';
export { hashMessages } from './compact/hash-messages';
export {
  hasProviderCompaction,
  isProviderCompaction,
  type ProviderCompactedSplit,
  splitProviderCompacted,
} from './compact/provider-compacted';
export {
  BACKGROUND_THRESHOLD_RATIO,
  COMPACT_THRESHOLD_RATIO,
  EMERGENCY_THRESHOLD_RATIO,
} from './compact/thresholds';
export {
  CONTEXT_WINDOWS,
  type GetContextWindowOptions,
  getContextWindow,
} from './context-window/get-context-window';
export { ContextOverflowError, type UnshrinkableTokens } from './errors/context-overflow-error';
export { InvalidConfigError } from './errors/invalid-config-error';
export {
  InvalidStoredStateError,
  type InvalidStoredStateReason,
} from './errors/invalid-stored-state-error';
export { isContextOverflowError } from './errors/is-context-overflow-error';
export { type ContextLimit, readContextLimit } from './errors/read-context-limit';
export { SpillwayError } from './errors/spillway-error';
export { SummarizationError } from './errors/summarization-error';
export { CHARS_PER_TOKEN_ESTIMATE } from './estimate/chars-per-token';
export { createEstimator, type EstimatorOptions } from './estimate/create-estimator';
export { estimateTextTokens } from './estimate/estimate-text-tokens';
export { estimateTokens } from './estimate/estimate-tokens';
export type { Estimator } from './estimate/estimator';
export { type FileTokensOptions, fileTokens } from './estimate/file-tokens';
export { type ImageDimensions, imageDimensions } from './estimate/image-dimensions';
export { type ImageProvider, type ImageTokensOptions, imageTokens } from './estimate/image-tokens';
export type {
  FilePart,
  ImagePart,
  Message,
  MessagePart,
  MessageRole,
  OpaquePart,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultContentPart,
  ToolResultPart,
} from './message/message';
export { messageParts, toolResultParts } from './message/message-parts';
export { sameValue } from './message/same-content';
export {
  type CollectPinnedRulesOptions,
  collectPinnedRules,
  type PinnedRule,
  type PinPredicate,
} from './pin/collect-pinned-rules';
export { type DetectedRules, detectRules } from './pin/detect-rules';
export {
  PINNED_RULES_HEADING,
  PINNED_RULES_MAX_TOKENS,
  PINNED_RULES_WINDOW_SHARE,
  type PinnedBlock,
  pinnedBlock,
} from './pin/pinned-block';
export {
  type ContextManagementFamily,
  contextManagementFamily,
  PROVIDER_COMPACTION_MIN_TRIGGER,
  type ProviderContextPlan,
  type ProviderContextPlanOptions,
  providerContextPlan,
} from './provider/provider-context-plan';
export { type ProviderProfile, providerProfile } from './provider/provider-profile';
export { createRecallRef } from './recall/create-recall-ref';
export {
  type ExtractedRecallRef,
  extractRecallRef,
  RECALL_REF_INPUT_MAX_CHARS,
} from './recall/extract-recall-ref';
export {
  type ParseRecallInputResult,
  parseRecallInput,
  RECALL_SEARCH_MAX_CHARS,
  type RecallReadRequest,
  type RecallRequest,
  type RecallSearchRequest,
} from './recall/parse-recall-input';
export { type ReadRecallPageOptions, type RecallPage, readRecallPage } from './recall/read-recall-page';
export { RECALL_ANNOUNCEMENT } from './recall/recall-announcement';
export type { RecallAnswerOptions } from './recall/recall-answer-options';
export {
  MemoryRecallArchive,
  type MemoryRecallArchiveOptions,
  type RecallArchive,
  type RecallArchiveEntry,
  type RecallEviction,
  type RecallEvictionReason,
} from './recall/recall-archive';
export {
  RECALL_ANSWER_MAX_CHARS,
  RECALL_ANSWER_WINDOW_SHARE,
  type RecallAnswer,
  type RecallFromMessagesOptions,
  type RecallMaterial,
  recallAnswerMaxTokens,
  recallFromMessages,
  resolveRecallRef,
} from './recall/recall-from-messages';
export { type CreateRecallMarksOptions, createRecallMarks, type RecallMarks } from './recall/recall-marks';
export { toolResultTexts } from './recall/recall-material';
export { parseRecallRef, RECALL_REF_PATTERN, type RecallRef, refAnnotation } from './recall/recall-ref';
export {
  type CreateRecallScopeOptions,
  createRecallScope,
  DEFAULT_RECALL_SECRET,
  type RecallScope,
} from './recall/recall-scope';
export { RECALL_SEARCH_MAX_PROGRAM } from './recall/recall-search-engine';
export {
  RECALL_TOOL_DESCRIPTION,
  RECALL_TOOL_NAME,
  type RecallToolInputProperty,
  type RecallToolInputSchema,
  recallToolInputSchema,
} from './recall/recall-tool';
export {
  type RestoreArchivedOriginalsOptions,
  restoreArchivedOriginals,
} from './recall/restore-archived-originals';
export {
  RECALL_SEARCH_MAX_SCAN_CHARS,
  RECALL_SEARCH_TIME_LIMIT_MS,
  type RecallMatch,
  type RecallSearchResult,
  type RecallSource,
  type SearchRecallOptions,
  searchRecall,
} from './recall/search-recall';
export {
  PROTECTED_WINDOW_RATIO,
  type SplitMessagesOptions,
  type SplitMessagesResult,
  splitMessages,
} from './split/split-messages';
export {
  COMPACTION_ENVELOPE_SCHEMA,
  decodeCompactionEnvelope,
  encodeCompactionEnvelope,
} from './store/compaction-envelope';
export type { CompactionState, PinnedQuote } from './store/compaction-state';
export type { CompactionStore } from './store/compaction-store';
export {
  checkCompactionStore,
  type StoreConformanceReport,
} from './store/conformance/check-compaction-store';
export type { StoreCapability, StoreConformanceCase } from './store/conformance/conformance-group';
export { conformanceState } from './store/conformance/conformance-state';
export { LEASE_DAMAGES, type LeaseDamage } from './store/conformance/lease-damage';
export { storeConformanceCases } from './store/conformance/store-conformance-cases';
export type { StoreConformanceOptions } from './store/conformance/store-conformance-options';
export {
  type AcquireLeaseOptions,
  type AcquireLeaseResult,
  type CompactionLease,
  isLeasingStore,
  type LeasingCompactionStore,
} from './store/leasing-compaction-store';
export { MemoryCompactionStore, type MemoryCompactionStoreOptions } from './store/memory-compaction-store';
export { COMPACTION_STATE_VERSION, parseCompactionState } from './store/parse-compaction-state';
export {
  type CompareAndSetOptions,
  type CompareAndSetResult,
  isVersionedStore,
  type VersionedCompactionState,
  type VersionedCompactionStore,
} from './store/versioned-compaction-store';
export {
  type ClusterToolResultsOptions,
  clusterToolResults,
} from './structure/cluster-tool-results';
export {
  COLLAPSED_HEADER,
  type CollapseExchangesOptions,
  type CollapseExchangesResult,
  collapseExchanges,
} from './structure/collapse-exchanges';
export { type CreateToolMappingOptions, createToolMapping } from './structure/create-tool-mapping';
export {
  DEFAULT_TOOL_FAMILIES,
  defaultToolMapping,
  normalizeToolName,
  PATH_ARGUMENTS,
  type ToolFamily,
} from './structure/default-tool-mapping';
export type { ClusterOptions, CollapseOptions, SupersedeOptions } from './structure/structure-options';
export type { ToolEffect, ToolMapping } from './structure/tool-effect';
export type { StatedDecision } from './summarize/decision-sentences';
export { DEFAULT_SUMMARY_PROMPT } from './summarize/default-summary-prompt';
export { extractIdentifiers } from './summarize/extract-identifiers';
export {
  createExtractiveSummarizer,
  type ExtractiveSummarizerOptions,
  extractiveSummarizer,
} from './summarize/extractive-summarizer';
export { type RenderTranscriptOptions, renderTranscript } from './summarize/render-transcript';
export {
  SUMMARY_MAX_TOKENS,
  type SummarizeOptions,
  type SummarizeResult,
  summarize,
} from './summarize/summarize';
export type { Summarizer, SummarizerInput, SummarizerOutput } from './summarize/summarizer';
export {
  SUMMARY_INSTRUCTIONS_MAX_CHARS,
  withSummaryInstructions,
} from './summarize/summary-instructions';
export { base64ByteLength, formatByteSize } from './truncate/byte-size';
export { type CapToolResultsOptions, capToolResults } from './truncate/cap-tool-results';
export { type CutPoints, type CutPointsOptions, cutPoints } from './truncate/cut-points';
export { imagePlaceholder } from './truncate/image-placeholder';
export {
  type ReduceToolResultsOptions,
  type ReduceToolResultsResult,
  reduceToolResults,
} from './truncate/reduce-tool-results';
export { type ReplaceImagesOptions, replaceImages } from './truncate/replace-images';
export { shareBudget } from './truncate/share-budget';
export { type SupersedeToolResultsOptions, supersedeToolResults } from './truncate/supersede-tool-results';
export { type TruncateMode, type TruncateTextOptions, truncateText } from './truncate/truncate-text';
export {
  TOOL_RESULT_MAX_CHARS,
  type TruncateToolResultOptions,
  truncateToolResult,
} from './truncate/truncate-tool-result';
export type { TruncationRecord } from './truncate/truncation-record';
export type { TruncationResult } from './truncate/truncation-result';

// The public surface of @spillway/mcp-proxy. Adding a line here is an API decision.

export { ForwardedError } from './errors/forwarded-error';
export { UpstreamError } from './errors/upstream-error';
export { createStderrLogger, type Logger, silentLogger } from './log/logger';
export { type ConfigFile, loadConfigFile } from './options/load-config-file';
export {
  CliExit,
  type CliSettings,
  type ParseCliArgumentsOptions,
  parseCliArguments,
} from './options/parse-cli-arguments';
export {
  DEFAULT_CONNECT_TIMEOUT,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_REQUEST_TIMEOUT,
  DEFAULT_SESSION_IDLE_TIMEOUT,
  type HttpUpstream,
  type ProxyOptions,
  type StdioUpstream,
  type UpstreamOptions,
} from './options/proxy-options';
export { type ResolvedProxyOptions, resolveProxyOptions } from './options/resolve-proxy-options';
export {
  DEFAULT_HEAD_RATIO,
  DEFAULT_MAX_MEDIA_BYTES,
  DEFAULT_MAX_RESULT_TOKENS,
  type MediaPolicy,
  type ToolBudget,
  type ToolTruncationOptions,
  type TruncationOptions,
} from './options/truncation-options';
export { createProxy, type McpProxy } from './proxy/create-proxy';
export type { HttpListener, ListenHttpOptions } from './proxy/listen-http';
export type { ProxySession } from './proxy/proxy-session';
export type { ProxySessionEnd } from './proxy/proxy-session-end';
export { type AnswerRecallOptions, answerRecall } from './recall/answer-recall';
export {
  DEFAULT_RECALL_STORE_MAX_BYTES,
  type RecallEntry,
  RecallStore,
  type RecallStoreOptions,
  type RecallStorePutOptions,
} from './recall/recall-store';
export { recallToolDefinition } from './recall/recall-tool-definition';
export {
  type TruncateCallToolResultOptions,
  type TruncateCallToolResultResult,
  truncateCallToolResult,
} from './truncate/truncate-call-tool-result';
export {
  type ContentBlock,
  type RecallTarget,
  STRUCTURED_NOTE_KEY,
  type TruncateContentOptions,
  type TruncateContentResult,
  truncateContent,
} from './truncate/truncate-content';
export {
  type TruncateGetPromptResultOptions,
  truncateGetPromptResult,
} from './truncate/truncate-get-prompt-result';
export {
  type TruncateReadResourceResultOptions,
  truncateReadResourceResult,
} from './truncate/truncate-read-resource-result';
export { VERSION } from './version';

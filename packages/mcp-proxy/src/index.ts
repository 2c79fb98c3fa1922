// The public surface of @spillway/mcp-proxy. Adding a line here is an API decision.

export { ForwardedError } from './errors/forwarded-error';
export { UpstreamError } from './errors/upstream-error';
export { createStderrLogger, type Logger, silentLogger } from './log/logger';
export { type ConfigFile, loadConfigFile } from './options/load-config-file';
export {
  type CliSettings,
  type ParseCliArgumentsOptions,
  parseCliArguments,
} from './options/parse-cli-arguments';
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_PAGE_STORE_MAX_CHARS,
  DEFAULT_REQUEST_TIMEOUT,
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
  DEFAULT_READ_TOOL_NAME,
  type MediaPolicy,
  type ToolBudget,
  type ToolTruncationOptions,
  type TruncationOptions,
} from './options/truncation-options';
export {
  type ReadResultPageOptions,
  readResultPage,
  readResultToolDefinition,
} from './paging/read-result-tool';
export {
  ResultStore,
  type ResultStoreOptions,
  type ResultStorePutOptions,
  type StoredResult,
} from './paging/result-store';
export { createProxy, type McpProxy } from './proxy/create-proxy';
export type { HttpListener, ListenHttpOptions } from './proxy/listen-http';
export type { ProxySession, ProxySessionEnd } from './proxy/proxy-session';
export {
  STRUCTURED_NOTE_KEY,
  type TruncateCallToolResultOptions,
  type TruncateCallToolResultResult,
  truncateCallToolResult,
} from './truncate/truncate-call-tool-result';
export { VERSION } from './version';

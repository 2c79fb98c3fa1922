import type { Logger } from '../log/logger';
import type { TruncationOptions } from './truncation-options';

/** An upstream MCP server started as a child process and spoken to over stdio. */
export interface StdioUpstream {
  /** The executable, e.g. `npx` or `process.execPath`. */
  command: string;
  /**
   * Its arguments.
   * @default []
   */
  args?: readonly string[];
  /**
   * Extra environment variables, added to the proxy's own environment (which the child inherits).
   * @default {}
   */
  env?: Readonly<Record<string, string>>;
  /**
   * Working directory of the child.
   * @default the proxy's working directory
   */
  cwd?: string;
}

/** An upstream MCP server reached over HTTP. */
export interface HttpUpstream {
  /** The endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string;
  /**
   * `'auto'` tries Streamable HTTP and falls back to the older HTTP+SSE transport when the server
   * answers the first POST with a 4xx.
   * @default 'auto'
   */
  transport?: 'auto' | 'streamable-http' | 'sse';
  /**
   * Extra HTTP headers sent with every request (e.g. `Authorization`).
   * @default {}
   */
  headers?: Readonly<Record<string, string>>;
}

/** Where the real MCP server is. */
export type UpstreamOptions = StdioUpstream | HttpUpstream;

/** Options of {@link createProxy}. */
export interface ProxyOptions extends TruncationOptions {
  /** The real MCP server. Each downstream connection gets its own upstream connection (and child process). */
  upstream: UpstreamOptions;
  /**
   * Timeout of one forwarded request in milliseconds; a progress notification resets it.
   * @default 600000 (10 minutes)
   */
  requestTimeout?: number;
  /**
   * Hard limit on one forwarded request in milliseconds, progress or not. `Infinity` means none.
   * @default Infinity
   */
  maxTotalTimeout?: number;
  /**
   * Largest single JSON-RPC message accepted on stdio, in bytes (the SDK's own cap is 10 MB).
   * @default 268435456 (256 MiB)
   */
  maxMessageBytes?: number;
  /**
   * Bytes of full texts kept for `spillway_recall` over all sessions, counted as 2 per UTF-16 code
   * unit; the least recently used are evicted first, and a session's texts are dropped when it ends.
   * A text larger than this is cut without a way back.
   * @default 268435456 (256 MiB)
   */
  recallStoreMaxBytes?: number;
  /**
   * Time allowed to start (or reach) the upstream and finish its `initialize`, in milliseconds.
   * @default 60000
   */
  connectTimeout?: number;
  /**
   * Reconnection attempts after a `url` upstream is lost, with exponential backoff
   * (`reconnectInitialDelay`, doubling, at most `reconnectMaxDelay`); `0` turns reconnection off (the
   * session ends). A stdio upstream is never restarted.
   * @default 10
   */
  reconnectAttempts?: number;
  /**
   * Delay before the first reconnection attempt, in milliseconds; each next one waits twice as long.
   * @default 500
   */
  reconnectInitialDelay?: number;
  /**
   * Longest delay between reconnection attempts, in milliseconds.
   * @default 30000
   */
  reconnectMaxDelay?: number;
  /**
   * HTTP downstream (`listen`): a session with no request open for this long (milliseconds) is
   * closed, and its upstream with it (a stdio upstream's child is stopped). An open GET event
   * stream or a call in progress counts as activity.
   * @default 300000 (5 minutes)
   */
  sessionIdleTimeout?: number;
  /**
   * HTTP downstream (`listen`): sessions open at once, at most; an `initialize` beyond it is refused
   * with HTTP 503 and a JSON-RPC error saying so.
   * @default 64
   */
  maxSessions?: number;
  /**
   * Where diagnostics go. The CLI passes a stderr logger.
   * @default silent
   */
  logger?: Logger;
}

export const DEFAULT_REQUEST_TIMEOUT = 600_000;
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_CONNECT_TIMEOUT = 60_000;
export const DEFAULT_SESSION_IDLE_TIMEOUT = 300_000;
export const DEFAULT_MAX_SESSIONS = 64;

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
   * Characters of full results kept for paging, over all results; the oldest are evicted first.
   * A result larger than this is cut without paging.
   * @default 100000000
   */
  pageStoreMaxChars?: number;
  /**
   * Name of the tool the proxy adds for paging.
   * @default 'spillway_read_result'
   */
  readToolName?: string;
  /**
   * Where diagnostics go. The CLI passes a stderr logger.
   * @default silent
   */
  logger?: Logger;
}

export const DEFAULT_REQUEST_TIMEOUT = 600_000;
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_PAGE_STORE_MAX_CHARS = 100_000_000;

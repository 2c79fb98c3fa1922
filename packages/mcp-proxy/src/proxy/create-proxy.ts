import type { ProxyOptions } from '../options/proxy-options';
import { type ResolvedProxyOptions, resolveProxyOptions } from '../options/resolve-proxy-options';
import { RecallStore } from '../recall/recall-store';
import type { Transport } from '../sdk/mcp-sdk';
import { type HttpListener, type ListenHttpOptions, listenHttp } from './listen-http';
import { ProxySession } from './proxy-session';

/** A proxy in front of one upstream MCP server, serving any number of client connections. */
export interface McpProxy {
  /** The options with defaults applied. */
  readonly options: ResolvedProxyOptions;
  /**
   * Serves one client connection, e.g. `new StdioServerTransport()` (not yet started). The upstream
   * is started or reached when the client's `initialize` arrives; the session's `ended` promise
   * says when and why it ended.
   */
  connect(downstream: Transport): Promise<ProxySession>;
  /** Also serves clients over Streamable HTTP on loopback; each MCP session gets its own upstream. */
  listen(
    options?: Omit<ListenHttpOptions, 'connect' | 'maxBodyBytes' | 'sessionIdleTimeout' | 'maxSessions'>,
  ): Promise<HttpListener>;
  /** Ends every session (stopping upstream children) and every listener. */
  close(): Promise<void>;
}

/**
 * Creates an MCP proxy that forwards everything between clients and the upstream server and keeps
 * oversized `tools/call` results within budget (see `ProxyOptions`).
 *
 * ```ts
 * const proxy = createProxy({ upstream: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } });
 * const session = await proxy.connect(new StdioServerTransport());
 * await session.ended;
 * ```
 * @throws {InvalidConfigError} for a bad option.
 */
export function createProxy(options: ProxyOptions): McpProxy {
  const resolved = resolveProxyOptions(options);
  const store = resolved.paging ? new RecallStore({ maxBytes: resolved.recallStoreMaxBytes }) : undefined;
  const sessions = new Set<ProxySession>();
  const listeners = new Set<HttpListener>();
  const connect = async (downstream: Transport) => {
    const session = new ProxySession({ downstream, options: resolved, store });
    sessions.add(session);
    void session.ended.then(() => sessions.delete(session));
    await session.start();
    return session;
  };
  return {
    options: resolved,
    connect,
    listen: async (listenOptions = {}) => {
      const listener = await listenHttp({
        ...listenOptions,
        maxBodyBytes: resolved.maxMessageBytes,
        sessionIdleTimeout: resolved.sessionIdleTimeout,
        maxSessions: resolved.maxSessions,
        connect,
      });
      listeners.add(listener);
      return listener;
    },
    close: async () => {
      await Promise.all([...listeners].map((listener) => listener.close()));
      await Promise.all([...sessions].map((session) => session.close()));
    },
  };
}

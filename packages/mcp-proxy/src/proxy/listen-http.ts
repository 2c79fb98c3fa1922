import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT } from '../options/proxy-options';
import { isInitializeRequest, StreamableHTTPServerTransport } from '../sdk/mcp-sdk';
import type { ProxySession } from './proxy-session';

/** Options of {@link listenHttp}. */
export interface ListenHttpOptions {
  /**
   * TCP port; `0` picks a free one.
   * @default 0
   */
  port?: number;
  /**
   * Interface to bind. Loopback only by default: the proxy has no authentication.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * The MCP endpoint's path.
   * @default '/mcp'
   */
  path?: string;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  /**
   * A session with no request open for this long (milliseconds) is closed, its upstream with it.
   * `Infinity` keeps sessions until `DELETE` or `close()`.
   * @default 300000 (5 minutes)
   */
  sessionIdleTimeout?: number;
  /**
   * Sessions open at once, at most; an `initialize` beyond it gets HTTP 503.
   * @default 64
   */
  maxSessions?: number;
  /** Starts a proxy session on a new downstream transport. */
  connect: (transport: StreamableHTTPServerTransport) => Promise<ProxySession>;
}

/** A running HTTP endpoint. */
export interface HttpListener {
  /** The endpoint URL, e.g. `http://127.0.0.1:43817/mcp`. */
  readonly url: string;
  /** Stops accepting connections and closes every session. */
  close(): Promise<void>;
}

/** One MCP session served over HTTP. */
interface HttpSession {
  readonly transport: StreamableHTTPServerTransport;
  session: ProxySession | undefined;
  /** HTTP requests of the session still open (a POST being answered, a GET event stream). */
  open: number;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Serves MCP over Streamable HTTP (with sessions; one proxy session, and one upstream connection, per
 * MCP session). Requests for other paths get 404; requests with an unknown (ended) session id get
 * 404, so the client starts a new session; requests without a session id that are not an
 * `initialize` get 400. A session with no request open for `sessionIdleTimeout` is closed, and
 * beyond `maxSessions` an `initialize` gets 503. DNS-rebinding protection accepts only loopback
 * `Host` headers.
 */
export async function listenHttp({
  port = 0,
  host = '127.0.0.1',
  path = '/mcp',
  maxBodyBytes,
  sessionIdleTimeout = DEFAULT_SESSION_IDLE_TIMEOUT,
  maxSessions = DEFAULT_MAX_SESSIONS,
  connect,
}: ListenHttpOptions): Promise<HttpListener> {
  const transports = new Map<string, HttpSession>();
  const sessions = new Set<ProxySession>();
  let allowedHosts: string[] = [];

  /** Counts an HTTP request of `entry` as open until its response closes; idle time starts when none is. */
  const track = (entry: HttpSession, response: ServerResponse) => {
    entry.open++;
    if (entry.idleTimer !== undefined) clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    response.once('close', () => {
      entry.open--;
      if (entry.open > 0 || !Number.isFinite(sessionIdleTimeout) || entry.session === undefined) return;
      const session = entry.session;
      entry.idleTimer = setTimeout(() => void session.close('idle'), sessionIdleTimeout);
      entry.idleTimer.unref();
    });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== path) {
      response.writeHead(404).end();
      return;
    }
    let body: unknown;
    if (request.method === 'POST') {
      try {
        body = await readJson(request, maxBodyBytes);
      } catch (error) {
        jsonRpcError(response, 400, -32700, `Parse error: ${(error as Error).message}`);
        return;
      }
    }
    const sessionId = request.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    // A session that is ending (DELETE, idle, upstream gone) is ended for its client already.
    const existing = known?.session?.ending === true ? undefined : known;
    if (existing !== undefined) {
      track(existing, response);
      await existing.transport.handleRequest(request, response, body);
      return;
    }
    if (typeof sessionId === 'string' && !(request.method === 'POST' && isInitializeRequest(body))) {
      // Ended (DELETE, idle, upstream gone) or never known: 404 tells the client to start a new session.
      jsonRpcError(
        response,
        404,
        -32001,
        'Session not found: it has ended; start a new session with initialize',
      );
      return;
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      jsonRpcError(response, 400, -32000, 'Bad Request: no valid session id, and not an initialize request');
      return;
    }
    // A session being closed (DELETE, idle) no longer counts, though its child may take a moment to stop.
    if ([...sessions].filter((session) => !session.ending).length >= maxSessions) {
      response.setHeader('retry-after', '30');
      jsonRpcError(
        response,
        503,
        -32000,
        `Too many sessions: this proxy serves at most ${maxSessions} at once (--max-sessions); end one (HTTP DELETE) or try again later`,
      );
      return;
    }
    const entry: HttpSession = {
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, entry);
        },
        enableDnsRebindingProtection: true,
        allowedHosts,
      }),
      session: undefined,
      open: 0,
      idleTimer: undefined,
    };
    const { transport } = entry;
    const session = await connect(transport);
    entry.session = session;
    sessions.add(session);
    void session.ended.then(() => {
      sessions.delete(session);
      if (entry.idleTimer !== undefined) clearTimeout(entry.idleTimer);
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    });
    track(entry, response);
    await transport.handleRequest(request, response, body);
    // Rejected before it began (a foreign Host header, a bad Accept header…): no MCP session will ever
    // reach this transport, so its proxy session ends now instead of waiting for the listener's close.
    if (transport.sessionId === undefined) await session.close();
  };

  // TCP keep-alive probes find clients whose machine vanished, so their event streams close.
  const server = createServer({ keepAlive: true, keepAliveInitialDelay: 60_000 }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) jsonRpcError(response, 500, -32603, `Internal error: ${String(error)}`);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: actualPort } = server.address() as AddressInfo;
  allowedHosts = [`${host}:${actualPort}`, `localhost:${actualPort}`, `127.0.0.1:${actualPort}`];
  const displayHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${displayHost}:${actualPort}${path}`,
    close: async () => {
      await Promise.all([...sessions].map((session) => session.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readJson(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new Error(`body larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function jsonRpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

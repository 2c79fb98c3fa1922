import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * Serves MCP over Streamable HTTP (with sessions; one proxy session, and one upstream connection, per
 * MCP session). Requests for other paths get 404; requests without a known session that are not an
 * `initialize` get 400. DNS-rebinding protection accepts only loopback `Host` headers.
 */
export async function listenHttp({
  port = 0,
  host = '127.0.0.1',
  path = '/mcp',
  maxBodyBytes,
  connect,
}: ListenHttpOptions): Promise<HttpListener> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const sessions = new Set<ProxySession>();
  let allowedHosts: string[] = [];

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
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (existing !== undefined) {
      await existing.handleRequest(request, response, body);
      return;
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      jsonRpcError(response, 400, -32000, 'Bad Request: no valid session id, and not an initialize request');
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
      enableDnsRebindingProtection: true,
      allowedHosts,
    });
    const session = await connect(transport);
    sessions.add(session);
    void session.ended.then(() => {
      sessions.delete(session);
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    });
    await transport.handleRequest(request, response, body);
    // Rejected before it began (a foreign Host header, a bad Accept header…): no MCP session will ever
    // reach this transport, so its proxy session ends now instead of waiting for the listener's close.
    if (transport.sessionId === undefined) await session.close();
  };

  const server = createServer((request, response) => {
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

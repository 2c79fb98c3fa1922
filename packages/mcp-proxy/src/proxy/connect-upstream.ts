import { UpstreamError } from '../errors/upstream-error';
import type { UpstreamOptions } from '../options/proxy-options';
import {
  Client,
  type ClientCapabilities,
  dispatchByShape,
  type Implementation,
  isInitializeRequest,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '../sdk/mcp-sdk';
import { StdioUpstreamTransport } from '../transport/stdio-upstream-transport';

/** Options of {@link connectUpstream}. */
export interface ConnectUpstreamOptions {
  upstream: UpstreamOptions;
  /** The downstream client's `clientInfo`, passed on unchanged. */
  clientInfo: Implementation;
  /** The downstream client's capabilities, passed on unchanged (mirroring). */
  capabilities: ClientCapabilities;
  /**
   * The protocol version the downstream client asked for, offered upstream in its place (the SDK's
   * client would offer its own newest).
   * @default the SDK's newest
   */
  protocolVersion?: string | undefined;
  maxMessageBytes: number;
  /** Installs handlers on the client before it connects (so nothing the server sends early is lost). */
  prepare: (client: Client) => void;
  /** Time allowed to start or reach the upstream and finish `initialize`, in milliseconds. */
  timeout: number;
  /**
   * Aborting it gives up: the upstream being started is stopped (a child process is ended) and the
   * returned promise rejects.
   * @default none
   */
  signal?: AbortSignal | undefined;
}

/** A connected upstream. */
export interface UpstreamConnection {
  readonly client: Client;
  readonly transport: Transport;
  /** The upstream as the user gave it, for messages. */
  readonly description: string;
  /** The protocol version the upstream answered `initialize` with. */
  readonly protocolVersion: string;
}

/** How the upstream is named in messages: the command line or the URL. */
export function describeUpstream(upstream: UpstreamOptions): string {
  return 'url' in upstream ? upstream.url : [upstream.command, ...(upstream.args ?? [])].join(' ');
}

/**
 * Starts (stdio) or reaches (HTTP) the upstream server and runs `initialize` with the downstream
 * client's identity and capabilities. For a URL, `transport: 'auto'` tries Streamable HTTP and falls
 * back to HTTP+SSE.
 * @throws {UpstreamError} when the server cannot be started, reached or initialized.
 */
export async function connectUpstream({
  upstream,
  clientInfo,
  capabilities,
  protocolVersion,
  maxMessageBytes,
  prepare,
  timeout,
  signal,
}: ConnectUpstreamOptions): Promise<UpstreamConnection> {
  const description = describeUpstream(upstream);
  const attempt = async (transport: Transport) => {
    const negotiated = negotiate(transport, protocolVersion);
    const client = new Client(clientInfo, { capabilities });
    prepare(client);
    // Closing the transport is what stops a child that has not answered `initialize` yet, and ends a
    // start that takes longer than `timeout` (spawning, npx downloads, initialize).
    const stop = () => void transport.close().catch(() => {});
    signal?.addEventListener('abort', stop, { once: true });
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeout);
    try {
      signal?.throwIfAborted();
      await client.connect(transport, { timeout, ...(signal === undefined ? {} : { signal }) });
      dispatchByShape(client);
    } catch (error) {
      throw timedOut ? new Error(`no answer to initialize within ${timeout} ms`, { cause: error }) : error;
    } finally {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', stop);
    }
    return { client, transport, description, protocolVersion: negotiated() };
  };
  if (!('url' in upstream)) {
    const transport = new StdioUpstreamTransport({
      command: upstream.command,
      args: upstream.args ?? [],
      env: { ...process.env, ...upstream.env },
      cwd: upstream.cwd,
      maxMessageBytes,
    });
    try {
      return await attempt(transport);
    } catch (error) {
      await transport.close().catch(() => {});
      const exit =
        transport.exitCode !== null || transport.exitSignal !== null
          ? ` (it exited with ${transport.exitSignal ?? `code ${transport.exitCode}`})`
          : '';
      throw new UpstreamError({
        upstream: description,
        message: `Could not start the upstream MCP server "${description}"${exit}: ${messageOf(error)}`,
        exitCode: transport.exitCode ?? undefined,
        signal: transport.exitSignal ?? undefined,
        cause: error,
      });
    }
  }
  const url = new URL(upstream.url);
  const requestInit = upstream.headers === undefined ? undefined : { headers: { ...upstream.headers } };
  const mode = upstream.transport ?? 'auto';
  let firstError: unknown;
  if (mode !== 'sse') {
    const transport = new StreamableHTTPClientTransport(
      url,
      requestInit === undefined ? undefined : { requestInit },
    );
    try {
      return await attempt(transport);
    } catch (error) {
      firstError = error;
      await transport.close().catch(() => {});
      if (mode === 'streamable-http' || signal?.aborted === true) {
        throw new UpstreamError({
          upstream: description,
          message: `Could not connect to ${description} over Streamable HTTP: ${messageOf(error)}`,
          cause: error,
        });
      }
    }
  }
  const transport = new SSEClientTransport(url, requestInit === undefined ? undefined : { requestInit });
  try {
    return await attempt(transport);
  } catch (error) {
    await transport.close().catch(() => {});
    const streamable = firstError === undefined ? '' : `Streamable HTTP: ${messageOf(firstError)}; `;
    throw new UpstreamError({
      upstream: description,
      message: `Could not connect to ${description} (${streamable}SSE: ${messageOf(error)})`,
      cause: error,
    });
  }
}

/**
 * Offers `protocolVersion` in the `initialize` request that goes through `transport` (the SDK's
 * `Client` always offers its newest), and records the version the server answered with (the SDK
 * hands it to `transport.setProtocolVersion`). Returns a reader of the negotiated version.
 */
function negotiate(transport: Transport, protocolVersion: string | undefined): () => string {
  let negotiated: string | undefined;
  const send = transport.send.bind(transport);
  transport.send = (message, options) =>
    send(
      // The method first: the SDK's guard is a schema parse, and this runs on every message sent.
      protocolVersion !== undefined &&
        (message as { method?: unknown }).method === 'initialize' &&
        isInitializeRequest(message)
        ? ({ ...message, params: { ...message.params, protocolVersion } } as JSONRPCMessage)
        : message,
      options,
    );
  const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version) => {
    negotiated = version;
    setProtocolVersion?.(version);
  };
  return () => negotiated ?? protocolVersion ?? LATEST_PROTOCOL_VERSION;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

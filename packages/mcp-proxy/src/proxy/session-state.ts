import type { UpstreamError } from '../errors/upstream-error';
import type { ResolvedProxyOptions } from '../options/resolve-proxy-options';
import type {
  Implementation,
  Notification,
  RequestHandlerExtra,
  Server,
  ServerCapabilities,
  Transport,
} from '../sdk/mcp-sdk';
import type { DownstreamGate } from '../transport/downstream-gate';
import type { RecallTarget } from '../truncate/truncate-content';
import type { ClientSetup } from './client-setup';
import type { UpstreamConnection } from './connect-upstream';
import type { ProxySessionEnd } from './proxy-session-end';
import type { ToolCatalog } from './tool-catalog';

/** A request as a handler sees it: method and raw params, nothing re-validated away. */
export type AnyRequest = { method: string; params?: Record<string, unknown> | undefined };

/** What a request handler gets besides the request (the SDK's, with `sendNotification` loosened). */
export type HandlerExtra = RequestHandlerExtra<never, never> & {
  sendNotification: (notification: Notification) => Promise<void>;
};

/** The client's `initialize` request, kept to start (and restart) the upstream with it. */
export interface ClientInitialize {
  id: string | number;
  params: {
    protocolVersion: string;
    capabilities?: Record<string, unknown>;
    clientInfo: Implementation;
  };
}

/** Whether a `url` upstream is being reached again, and why. */
export interface Reconnecting {
  attempt: number;
  reason: string;
}

/**
 * Everything one proxy session knows, shared by its steps (handshake, forwarding, the answers the
 * proxy changes, upstream health). Owned by `ProxySession`; each step reads and updates it.
 */
export interface SessionState {
  /** The client's side (through `gate` once the server is attached). */
  readonly downstream: Transport;
  /** Holds the client's messages until the mirrored server is attached. */
  readonly gate: DownstreamGate;
  readonly options: ResolvedProxyOptions;
  /** Where cut texts are kept for `spillway_recall`, for this session; `undefined` when paging is off. */
  readonly recall: RecallTarget | undefined;
  /** The upstream's tools as listed (output schemas and their validators). */
  readonly tools: ToolCatalog;
  /** What the client set up on the upstream, replayed after a reconnection. */
  readonly setup: ClientSetup;
  /** The tool of each task-augmented call, by task id (bounded). */
  readonly taskTools: Map<string, string>;
  /** Requests from the upstream being forwarded to the client, by the upstream's request id. */
  readonly upstreamRequests: Map<string | number, AbortController>;
  /** Gives up a connection to the upstream still being made when the session ends. */
  readonly connectAbort: AbortController;
  /** The client's `initialize`, once it has arrived. */
  initialize: ClientInitialize | undefined;
  upstream: UpstreamConnection | undefined;
  /** The server the client talks to, mirroring the upstream; set once the upstream is connected. */
  server: Server | undefined;
  /** The capabilities the client was given (the upstream's, mirrored). */
  capabilities: ServerCapabilities;
  /** Settles once the upstream connection attempt has (the session's end waits for it). */
  establishing: Promise<void> | undefined;
  /** Set when the session starts ending. */
  closing: boolean;
  /** Set when the upstream is gone for good. */
  upstreamGone: boolean;
  /** Why the upstream is gone, for the errors requests then get. */
  upstreamError: UpstreamError | undefined;
  /** Set while a lost `url` upstream is being reached again. */
  reconnecting: Reconnecting | undefined;
  /** The health check of a `url` upstream running now, if any. */
  healthCheck: Promise<'ok' | 'lost'> | undefined;
  /**
   * Starts (or reaches) the upstream with the client's identity, capabilities and protocol version
   * (`reachUpstream`, given to the steps that connect and reconnect).
   */
  reach(signal: AbortSignal): Promise<UpstreamConnection>;
  /** Ends the session: both sides closed, the session's texts released. */
  finish(end: ProxySessionEnd): Promise<void>;
}

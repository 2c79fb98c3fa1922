import { createRecallRef } from '@spillway/core';
import type { ResolvedProxyOptions } from '../options/resolve-proxy-options';
import type { RecallStore } from '../recall/recall-store';
import { isInitializeRequest, type JSONRPCMessage, type Transport } from '../sdk/mcp-sdk';
import { DownstreamGate } from '../transport/downstream-gate';
import { StdioUpstreamTransport } from '../transport/stdio-upstream-transport';
import { ClientSetup } from './client-setup';
import { handshake } from './handshake';
import type { ProxySessionEnd } from './proxy-session-end';
import { reachUpstream } from './reach-upstream';
import type { ClientInitialize, SessionState } from './session-state';
import { ToolCatalog } from './tool-catalog';

export type { ProxySessionEnd } from './proxy-session-end';

/** Options of {@link ProxySession}. */
export interface ProxySessionOptions {
  /** The client's side: a stdio or Streamable HTTP server transport, not yet started. */
  downstream: Transport;
  options: ResolvedProxyOptions;
  /** The store of full texts for `spillway_recall` (shared, each session sees its own); `undefined` when paging is off. */
  store: RecallStore | undefined;
}

/**
 * One client connection and the upstream connection made for it, in steps:
 * 1. `start()` reads from the client; what arrives waits in a gate until the upstream is there.
 * 2. The client's `initialize` starts the {@link handshake}: the upstream is started (`reachUpstream`)
 *    with the client's `clientInfo`, capabilities and protocol version, its requests and
 *    notifications relayed to the client (`relayUpstreamMessages`); the proxy's server then answers
 *    with the upstream's `serverInfo`, instructions, capabilities and negotiated protocol version.
 * 3. From then on every request and notification is forwarded both ways as raw JSON-RPC
 *    (`forwardRequest`, nothing re-validated away), except the answers the proxy changes
 *    (`routeClientRequests`): `tools/list` gains `spillway_recall` (`listTools`); `tools/call` and
 *    `tasks/result` results are held to the tool's budget and `spillway_recall` is answered from the
 *    session's kept texts (`callTool`); `resources/read` and `prompts/get` results are held to their
 *    budgets (`readResource`, `getPrompt`).
 * 4. When a `url` upstream's connection is lost (`checkUpstream`), every request in flight is
 *    answered with an error at once and the session reconnects with backoff (`reconnectUpstream`);
 *    the client then gets `list_changed` notifications. A stdio upstream that exits ends the session
 *    (`upstreamClosed`).
 * 5. The session ends ({@link ProxySession.ended}) when either side closes or on `close()`: both
 *    sides are closed and the session's kept texts released.
 */
export class ProxySession {
  /** Resolves once, when the session has ended (both sides closed). */
  readonly ended: Promise<ProxySessionEnd>;

  private readonly state: SessionState;
  private resolveEnded!: (end: ProxySessionEnd) => void;
  private finished = false;

  constructor({ downstream, options, store }: ProxySessionOptions) {
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
    const gate = new DownstreamGate(downstream, { onQueued: (message) => this.onEarlyMessage(message) });
    gate.onclose = () => void this.finish({ reason: 'downstream-closed' });
    gate.onerror = (error) => options.logger.debug(`downstream: ${error.message}`);
    const state: SessionState = {
      downstream,
      gate,
      options,
      recall: store === undefined ? undefined : { store, owner: createRecallRef() },
      tools: new ToolCatalog(),
      setup: new ClientSetup(),
      taskTools: new Map(),
      upstreamRequests: new Map(),
      connectAbort: new AbortController(),
      initialize: undefined,
      upstream: undefined,
      server: undefined,
      capabilities: {},
      establishing: undefined,
      closing: false,
      upstreamGone: false,
      upstreamError: undefined,
      reconnecting: undefined,
      healthCheck: undefined,
      reach: (signal) => reachUpstream(state, signal),
      finish: (end) => this.finish(end),
    };
    this.state = state;
  }

  /** Process id of a stdio upstream, while it runs. */
  get upstreamPid(): number | undefined {
    const transport = this.state.upstream?.transport;
    return transport instanceof StdioUpstreamTransport ? transport.pid : undefined;
  }

  /** The protocol version the upstream negotiated (and the client was answered with), once known. */
  get protocolVersion(): string | undefined {
    return this.state.upstream?.protocolVersion;
  }

  /** Whether the session is ending or has ended (it no longer serves requests). */
  get ending(): boolean {
    return this.finished;
  }

  /** Starts reading from the client. The upstream starts when the client's `initialize` arrives. */
  async start(): Promise<void> {
    await this.state.downstream.start();
  }

  /** Closes both sides (the upstream child is stopped: stdin closed, then SIGTERM, then SIGKILL). */
  async close(reason: 'closed' | 'idle' = 'closed'): Promise<void> {
    await this.finish({ reason });
  }

  private onEarlyMessage(message: JSONRPCMessage): void {
    if (this.state.initialize !== undefined || !isInitializeRequest(message)) {
      // Anything before `initialize` waits in the gate's queue and is replayed after it.
      return;
    }
    this.state.initialize = message as unknown as ClientInitialize;
    void handshake(this.state, this.state.initialize);
  }

  private async finish(end: ProxySessionEnd): Promise<void> {
    if (this.finished) return this.ended.then(() => {});
    this.finished = true;
    const state = this.state;
    state.closing = true;
    // An upstream still starting (or reconnecting) is stopped too, and the session ends only once it is.
    state.connectAbort.abort();
    await state.establishing;
    await state.upstream?.client.close().catch(() => {});
    // The client no longer closes a transport that closed on its own (a child that closed its stdout
    // but runs on): stop the child here.
    const transport = state.upstream?.transport;
    if (transport instanceof StdioUpstreamTransport) await transport.close().catch(() => {});
    if (state.server !== undefined) await state.server.close().catch(() => {});
    else await state.downstream.close().catch(() => {});
    if (state.recall !== undefined) state.recall.store.release(state.recall.owner);
    this.resolveEnded(end);
  }
}

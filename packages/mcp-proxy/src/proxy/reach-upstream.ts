import { connectUpstream, type UpstreamConnection } from './connect-upstream';
import { relayUpstreamMessages } from './relay-upstream-messages';
import type { ClientInitialize, SessionState } from './session-state';

/**
 * Starts (or reaches) the upstream with the client's identity, capabilities and protocol version
 * (from its `initialize`), the upstream's requests and notifications relayed to the client.
 */
export function reachUpstream(state: SessionState, signal: AbortSignal): Promise<UpstreamConnection> {
  const { params } = state.initialize as ClientInitialize;
  return connectUpstream({
    upstream: state.options.upstream,
    clientInfo: params.clientInfo,
    capabilities: params.capabilities ?? {},
    protocolVersion: params.protocolVersion,
    maxMessageBytes: state.options.maxMessageBytes,
    timeout: state.options.connectTimeout,
    prepare: (client) => relayUpstreamMessages(state, client),
    signal,
  });
}

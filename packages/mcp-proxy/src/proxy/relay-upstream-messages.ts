import { type Client, onCancelled, PingRequestSchema, type Result } from '../sdk/mcp-sdk';
import { forwardRequest } from './forward-request';
import type { AnyRequest, HandlerExtra, SessionState } from './session-state';
import { checkUpstream, upstreamClosed } from './upstream-health';

/**
 * Installs on an upstream `Client` (before it connects) what relays the upstream's side: its
 * requests (sampling, elicitation, roots, ping) and notifications go to the client, its
 * cancellations cancel what the client is asked, and its errors and closing are checked or end
 * the session.
 */
export function relayUpstreamMessages(state: SessionState, client: Client): void {
  const { logger } = state.options;
  client.fallbackRequestHandler = async (request, extra) =>
    forwardFromUpstream(state, request as AnyRequest, extra as unknown as HandlerExtra);
  client.setRequestHandler(PingRequestSchema, async (request, extra) =>
    state.server === undefined ? {} : forwardFromUpstream(state, request, extra as unknown as HandlerExtra),
  );
  onCancelled(client, (requestId, reason) => state.upstreamRequests.get(requestId)?.abort(reason));
  client.fallbackNotificationHandler = async (notification) => {
    if (notification.method === 'notifications/tools/list_changed') state.tools.forget();
    if (state.server === undefined) {
      logger.debug(`dropped ${notification.method} sent before the client was connected`);
      return;
    }
    await state.server.notification(notification as never).catch((error: unknown) => {
      logger.debug(`could not forward ${notification.method} to the client: ${String(error)}`);
    });
  };
  client.onerror = (error) => {
    const current = state.upstream?.client === client;
    (current ? logger.error : logger.debug)(`upstream: ${error.message}`);
    // Over HTTP, a dropped stream or a failed POST is how a lost server shows: check it is still there.
    if (current) void checkUpstream(state, client);
  };
  // A client whose connection attempt failed (e.g. Streamable HTTP before the SSE fallback), or one
  // replaced after a reconnection, is not the upstream: its closing ends nothing.
  client.onclose = () => {
    if (state.upstream?.client === client) upstreamClosed(state);
  };
}

/** Forwards a request of the upstream (sampling, elicitation, roots, ping) to the client. */
async function forwardFromUpstream(
  state: SessionState,
  request: AnyRequest,
  extra: HandlerExtra,
): Promise<Result> {
  const controller = new AbortController();
  state.upstreamRequests.set(extra.requestId, controller);
  try {
    const signal = AbortSignal.any([extra.signal, controller.signal]);
    return await forwardRequest(state, state.server, request, { ...extra, signal }, 'downstream');
  } finally {
    state.upstreamRequests.delete(extra.requestId);
  }
}

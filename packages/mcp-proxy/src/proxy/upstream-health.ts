import { UpstreamError } from '../errors/upstream-error';
import type { Client } from '../sdk/mcp-sdk';
import { StdioUpstreamTransport } from '../transport/stdio-upstream-transport';
import { describeUpstream } from './connect-upstream';
import { reconnectUpstream } from './reconnect-upstream';
import type { SessionState } from './session-state';

/** How long a health check of a `url` upstream (a ping) may take before the connection counts as lost. */
const HEALTH_CHECK_TIMEOUT = 10_000;

/**
 * Whether a `url` upstream still answers (a ping). When it does not, the connection counts as lost:
 * the requests in flight are answered with an error and the session reconnects.
 */
export function checkUpstream(state: SessionState, client: Client): Promise<'ok' | 'lost'> {
  if (!('url' in state.options.upstream) || state.closing) return Promise.resolve('ok');
  if (state.upstream?.client !== client)
    return Promise.resolve(state.reconnecting === undefined ? 'ok' : 'lost');
  // One check at a time: whoever asks while one runs gets its outcome.
  state.healthCheck ??= client
    .ping({ timeout: Math.min(HEALTH_CHECK_TIMEOUT, state.options.requestTimeout) })
    .then(
      () => 'ok' as const,
      (error: unknown) => {
        if (state.upstream?.client === client && !state.closing) {
          connectionLost(state, error instanceof Error ? error.message : String(error));
        }
        return 'lost' as const;
      },
    )
    .finally(() => {
      state.healthCheck = undefined;
    });
  return state.healthCheck;
}

/** A `url` upstream's connection is lost: fail what is in flight now, then reconnect with backoff. */
export function connectionLost(state: SessionState, reason: string): void {
  const lost = state.upstream;
  if (lost === undefined || state.reconnecting !== undefined || state.closing) return;
  const { logger, reconnectAttempts } = state.options;
  if (reconnectAttempts === 0) {
    upstreamClosed(state, reason);
    return;
  }
  state.reconnecting = { attempt: 1, reason };
  state.upstream = undefined;
  logger.error(
    `The connection to the upstream MCP server "${lost.description}" was lost (${reason}); reconnecting`,
  );
  // Closing the client answers every request in flight with an error at once (the SDK fails them).
  void lost.client.close().catch(() => {});
  void reconnectUpstream(state, lost.description);
}

/**
 * The upstream's connection closed (or, with `reason`, could not be kept): a `url` upstream whose
 * transport closed on its own is reached again; otherwise the upstream is gone and the session ends
 * (once the answers to the requests in flight have gone out).
 */
export function upstreamClosed(state: SessionState, reason?: string): void {
  if (state.closing || state.upstreamGone) return;
  const transport = state.upstream?.transport;
  const description = state.upstream?.description ?? describeUpstream(state.options.upstream);
  if (
    !(transport instanceof StdioUpstreamTransport) &&
    state.options.reconnectAttempts > 0 &&
    reason === undefined
  ) {
    // A url upstream whose transport closed on its own: reach it again.
    connectionLost(state, 'the connection closed');
    return;
  }
  state.upstreamGone = true;
  let how = reason === undefined ? 'closed the connection' : `could not be reached (${reason})`;
  let exitCode: number | undefined;
  let signal: string | undefined;
  if (transport instanceof StdioUpstreamTransport) {
    exitCode = transport.exitCode ?? undefined;
    signal = transport.exitSignal ?? undefined;
    how =
      signal !== undefined
        ? `was killed by ${signal}`
        : exitCode !== undefined
          ? `exited with code ${exitCode}`
          : 'closed its output';
  }
  state.upstreamError = new UpstreamError({
    upstream: description,
    message: `The upstream MCP server "${description}" ${how}`,
    exitCode,
    signal,
  });
  state.options.logger.error(state.upstreamError.message);
  // Pending requests are failed by the SDK right after this callback; let their answers go out first.
  setTimeout(() => void state.finish({ reason: 'upstream-closed', error: state.upstreamError }), 50);
}

import { ForwardedError } from '../errors/forwarded-error';
import {
  ErrorCode,
  ForwardedResultSchema,
  isMcpError,
  type RequestOptions,
  type Result,
  type ResultSchema,
} from '../sdk/mcp-sdk';
import { describeUpstream } from './connect-upstream';
import type { AnyRequest, HandlerExtra, SessionState } from './session-state';
import { checkUpstream } from './upstream-health';

/** Either side's SDK object as the proxy sends requests through it (the upstream `Client`, the `Server`). */
export type Requester = {
  request: (request: never, schema: typeof ResultSchema, options?: RequestOptions) => Promise<Result>;
};

/**
 * Sends `request` on to the other side and returns its result as received. The other side sees a
 * progress token of the proxy's; its progress notifications reset the timeout and go back to the
 * requester under the requester's own token. Cancelling the incoming request cancels the outgoing
 * one. A request for an upstream that is gone, or being reached again, gets an error saying so.
 */
export async function forwardRequest(
  state: SessionState,
  target: Requester | undefined,
  request: AnyRequest,
  extra: HandlerExtra,
  side: 'upstream' | 'downstream',
): Promise<Result> {
  if (target === undefined) {
    if (side === 'upstream' && (state.reconnecting !== undefined || state.upstreamGone)) {
      throw unavailable(state, request.method);
    }
    throw new ForwardedError({ code: ErrorCode.InternalError, message: 'The proxy is not connected yet' });
  }
  const progressToken = (request.params?._meta as { progressToken?: string | number } | undefined)
    ?.progressToken;
  const { requestTimeout, maxTotalTimeout } = state.options;
  // Progress goes out in order, and before the result (the requester drops its handler on the result).
  let progressSent: Promise<void> = Promise.resolve();
  let sentProgress = false;
  try {
    const result = await target.request(
      { method: request.method, params: request.params } as never,
      ForwardedResultSchema,
      {
        signal: extra.signal,
        timeout: requestTimeout,
        resetTimeoutOnProgress: true,
        ...(Number.isFinite(maxTotalTimeout) ? { maxTotalTimeout } : {}),
        onprogress: (progress) => {
          if (progressToken === undefined) return;
          sentProgress = true;
          progressSent = progressSent
            .then(() =>
              extra.sendNotification({
                method: 'notifications/progress',
                params: { ...progress, progressToken },
              }),
            )
            .catch(() => {});
        },
      },
    );
    if (sentProgress) {
      await progressSent;
      // SDK v1 clients dispatch notifications a microtask late but responses at once, so progress
      // read in the same chunk as the response is lost (typescript-sdk#2580): write them apart.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return result;
  } catch (error) {
    if (side === 'upstream' && (state.upstreamGone || state.reconnecting !== undefined)) {
      throw unavailable(state, request.method);
    }
    // Not a JSON-RPC error from the server (a network failure, an HTTP status): is it still there?
    if (
      side === 'upstream' &&
      'url' in state.options.upstream &&
      !isMcpError(error) &&
      !extra.signal.aborted
    ) {
      const client = state.upstream?.client;
      if (client !== undefined && (await checkUpstream(state, client)) === 'lost') {
        throw unavailable(state, request.method);
      }
    }
    throw ForwardedError.from(error);
  }
}

/** Forwards a request of the client to the upstream. */
export function forwardUpstream(
  state: SessionState,
  request: AnyRequest,
  extra: HandlerExtra,
): Promise<Result> {
  return forwardRequest(state, state.upstream?.client, request, extra, 'upstream');
}

/** The error a request gets when the upstream is gone or being reached again. */
function unavailable(state: SessionState, method: string): ForwardedError {
  // Not McpError: it would prefix "MCP error -32000: " to the message the client prefixes again.
  const message =
    state.reconnecting !== undefined && !state.upstreamGone
      ? `The connection to the upstream MCP server "${describeUpstream(state.options.upstream)}" was lost (${state.reconnecting.reason}); reconnecting (attempt ${state.reconnecting.attempt} of ${state.options.reconnectAttempts}); ${method} got no answer`
      : `${state.upstreamError?.message ?? 'The upstream MCP server went away'}; ${method} got no answer`;
  return new ForwardedError({ code: ErrorCode.ConnectionClosed, message });
}

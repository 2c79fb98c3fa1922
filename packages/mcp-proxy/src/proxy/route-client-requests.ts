import { PingRequestSchema, type Server } from '../sdk/mcp-sdk';
import { callTool, taskResult } from './call-tool';
import { forwardUpstream } from './forward-request';
import { getPrompt } from './get-prompt';
import { listTools } from './list-tools';
import { readResource } from './read-resource';
import type { AnyRequest, HandlerExtra, SessionState } from './session-state';

/**
 * Installs on the mirrored `Server` (before the client's messages reach it) what serves the client:
 * the answers the proxy changes (`tools/list`, `tools/call`, `tasks/result`, `resources/read`,
 * `prompts/get`) each by its own step, every other request and notification forwarded as is.
 */
export function routeClientRequests(state: SessionState, server: Server): void {
  const { logger } = state.options;
  // The SDK answers these locally when the capabilities are set; the proxy forwards them instead.
  server.removeRequestHandler('logging/setLevel');
  server.setRequestHandler(PingRequestSchema, async (request, extra) =>
    forwardUpstream(state, request, extra as unknown as HandlerExtra),
  );
  server.fallbackRequestHandler = async (request, extra) => {
    const forwarded = request as AnyRequest;
    const handlerExtra = extra as unknown as HandlerExtra;
    switch (forwarded.method) {
      case 'tools/list':
        return listTools(state, forwarded, handlerExtra);
      case 'tools/call':
        return callTool(state, forwarded, handlerExtra);
      case 'tasks/result':
        return taskResult(state, forwarded, handlerExtra);
      case 'resources/read':
        return readResource(state, forwarded, handlerExtra);
      case 'prompts/get':
        return getPrompt(state, forwarded, handlerExtra);
      default:
        state.setup.remember(forwarded);
        return forwardUpstream(state, forwarded, handlerExtra);
    }
  };
  server.fallbackNotificationHandler = async (notification) => {
    const client = state.upstream?.client;
    if (client === undefined) {
      logger.debug(`dropped ${notification.method}: the upstream is not connected`);
      return;
    }
    await client.notification(notification as never).catch((error: unknown) => {
      logger.debug(`could not forward ${notification.method} upstream: ${String(error)}`);
    });
  };
  server.onerror = (error) => logger.debug(`downstream: ${error.message}`);
  // SDK v1 clients ignore a cancellation of request id 0 (they test `!requestId`); a ping right
  // after initialization takes id 0, so every request the upstream sends can be cancelled.
  server.oninitialized = () => void server.ping().catch(() => {});
}

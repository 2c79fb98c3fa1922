/**
 * The one module that imports `@modelcontextprotocol/sdk`. Everything else in this package imports
 * the SDK's classes, schemas and types from here, so that moving to the SDK's v2 line (split into
 * `@modelcontextprotocol/client` / `@modelcontextprotocol/server`) touches this file only.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CancelledNotificationSchema,
  InitializeRequestSchema,
  McpError,
  type Notification as SdkNotification,
} from '@modelcontextprotocol/sdk/types.js';

export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export type { RequestHandlerExtra, RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
export type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
export type {
  CallToolResult,
  ClientCapabilities,
  Implementation,
  JSONRPCMessage,
  JSONRPCRequest,
  MessageExtraInfo,
  Notification,
  Request,
  RequestId,
  Result,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
export {
  ErrorCode,
  isInitializeRequest,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  PingRequestSchema,
  ResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
export { Client, McpError, Server };

/**
 * Whether `error` is a JSON-RPC error the other side answered with (or the SDK's own timeout or
 * connection-closed error), as opposed to a transport failure (a refused connection, an HTTP status).
 */
export function isMcpError(error: unknown): boolean {
  return error instanceof McpError;
}

/**
 * Makes `server` answer `initialize` with `protocolVersion()` instead of the SDK's choice (the
 * client's version when the SDK knows it, else its newest): the proxy answers with the version the
 * upstream negotiated, so that client and upstream speak the same one. The SDK's own handling (it
 * records the client's capabilities and info) still runs.
 */
export function answerInitializeWith(server: Server, protocolVersion: () => string | undefined): void {
  const internal = server as unknown as {
    _oninitialize: (request: unknown) => Promise<Record<string, unknown>>;
  };
  const sdkInitialize = internal._oninitialize.bind(server);
  server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await sdkInitialize(request);
    const version = protocolVersion();
    return (version === undefined ? result : { ...result, protocolVersion: version }) as never;
  });
}

/**
 * Installs `handler` for `notifications/cancelled` on a `Client` or `Server`, keeping the SDK's own
 * handling (which stops the answer to the cancelled request). SDK v1 ignores a cancellation whose
 * `requestId` is `0` (it tests `!requestId`), and 0 is the id of the first request each side sends;
 * `handler` sees every cancellation, so the proxy can pass that one on too.
 */
export function onCancelled(
  protocol: Client | Server,
  handler: (requestId: string | number, reason: string | undefined) => void,
): void {
  const internal = protocol as unknown as { _oncancel?: (notification: SdkNotification) => void };
  const sdkHandling =
    typeof internal._oncancel === 'function' ? internal._oncancel.bind(protocol) : undefined;
  protocol.setNotificationHandler(CancelledNotificationSchema, (notification) => {
    const { requestId, reason } = notification.params;
    if (requestId !== undefined) handler(requestId, reason);
    sdkHandling?.(notification);
  });
}

/**
 * The one module that imports `@modelcontextprotocol/sdk`. Everything else in this package imports
 * the SDK's classes, schemas and types from here, so that moving to the SDK's v2 line (split into
 * `@modelcontextprotocol/client` / `@modelcontextprotocol/server`) touches this file only.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CancelledNotificationSchema,
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
  McpError,
  PingRequestSchema,
  ResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
export { Client, Server };

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

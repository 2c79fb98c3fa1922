/**
 * The one module that imports `@modelcontextprotocol/sdk`. Everything else in this package imports
 * the SDK's classes, schemas and types from here, so that moving to the SDK's v2 line (split into
 * `@modelcontextprotocol/client` / `@modelcontextprotocol/server`) touches this file only.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Result } from '@modelcontextprotocol/sdk/types.js';
import {
  CancelledNotificationSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  McpError,
  ResultSchema,
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
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
export { Client, McpError, ResultSchema, Server };

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

/**
 * Makes a connected `Client` or `Server` tell the messages it receives apart by their shape (a
 * `method` and an `id`: a request; a `method` alone: a notification; a `result` or an `error`: a
 * response) instead of by the SDK's zod type guards, which parse every message up to four times to
 * keep only `.success` (with the failed attempts' errors, about half of what the proxy allocates on a
 * small call). The messages reach the SDK's own handlers unchanged. Messages received before the call
 * went through the SDK's guards; when the SDK's internals are not as expected, nothing changes.
 */
export function dispatchByShape(protocol: Client | Server): void {
  const internal = protocol as unknown as {
    transport?: Transport;
    _onresponse?: (message: JSONRPCMessage) => void;
    _onrequest?: (message: JSONRPCMessage, extra: unknown) => void;
    _onnotification?: (message: JSONRPCMessage) => void;
    _onerror?: (error: Error) => void;
  };
  const { transport, _onresponse, _onrequest, _onnotification, _onerror } = internal;
  if (
    transport === undefined ||
    typeof _onresponse !== 'function' ||
    typeof _onrequest !== 'function' ||
    typeof _onnotification !== 'function' ||
    typeof _onerror !== 'function'
  ) {
    return;
  }
  transport.onmessage = (message, extra) => {
    const shape = message as {
      jsonrpc?: unknown;
      method?: unknown;
      id?: unknown;
      result?: unknown;
      error?: unknown;
    };
    const id = typeof shape.id === 'string' || typeof shape.id === 'number';
    if (shape.jsonrpc === '2.0' && shape.method === undefined) {
      if (id && shape.result !== null && typeof shape.result === 'object')
        return _onresponse.call(protocol, message);
      if (shape.error !== null && typeof shape.error === 'object') return _onresponse.call(protocol, message);
    } else if (shape.jsonrpc === '2.0' && typeof shape.method === 'string') {
      if (id) return _onrequest.call(protocol, message, extra);
      if (!('id' in shape)) return _onnotification.call(protocol, message);
    }
    _onerror.call(protocol, new Error(`Unknown message type: ${JSON.stringify(message)}`));
  };
}

/**
 * The schema the proxy gives the SDK for a forwarded request's result: `ResultSchema` (an object,
 * with a valid `_meta` if any), checked without its parse when there is no `_meta` (the parse then
 * only copies the object, key by key, on every call). Accepts and rejects exactly what `ResultSchema`
 * does; the SDK takes any schema with a zod-3-style `safeParse`.
 */
export const ForwardedResultSchema = {
  safeParse(data: unknown): ReturnType<typeof ResultSchema.safeParse> {
    if (data !== null && typeof data === 'object' && !Array.isArray(data) && !('_meta' in data)) {
      return { success: true, data: data as Result };
    }
    return ResultSchema.safeParse(data);
  },
} as unknown as typeof ResultSchema;

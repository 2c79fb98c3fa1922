import type { JSONRPCMessage } from '../sdk/mcp-sdk';

/**
 * A cheap check that `value` is a JSON-RPC 2.0 request, notification or response (the SDK's zod
 * schema costs as much as the rest of a small call's forwarding; the SDK validates what it uses).
 */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (value === null || typeof value !== 'object' || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    return false;
  }
  const message = value as { method?: unknown; id?: unknown; result?: unknown; error?: unknown };
  if (message.method !== undefined) return typeof message.method === 'string';
  const idValid = typeof message.id === 'string' || typeof message.id === 'number' || message.id === null;
  return (
    idValid &&
    ((message.result !== null && typeof message.result === 'object') || message.error !== undefined)
  );
}

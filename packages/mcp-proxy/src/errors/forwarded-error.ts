/**
 * A JSON-RPC error passed on from one side of the proxy to the other with its code, message and data
 * as received (the SDK's `McpError` would prefix the message with "MCP error {code}: " once more on
 * every hop).
 */
export class ForwardedError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor({ code, message, data }: { code: number; message: string; data?: unknown }) {
    super(message);
    this.name = 'ForwardedError';
    this.code = code;
    this.data = data;
  }

  /** The error to answer with, for an error a forwarded request ended with. */
  static from(error: unknown): Error {
    if (error instanceof ForwardedError) return error;
    if (error instanceof Error && typeof (error as { code?: unknown }).code === 'number') {
      const code = (error as unknown as { code: number }).code;
      const prefix = `MCP error ${code}: `;
      const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
      return new ForwardedError({ code, message, data: (error as { data?: unknown }).data });
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

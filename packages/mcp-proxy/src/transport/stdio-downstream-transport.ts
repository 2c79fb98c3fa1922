import type { JSONRPCMessage, Transport } from '../sdk/mcp-sdk';
import { isJsonRpcMessage } from './is-json-rpc-message';
import { LineSplitter } from './line-splitter';

/** Options of {@link StdioDownstreamTransport}. */
export interface StdioDownstreamTransportOptions {
  /**
   * Where the client's messages come from.
   * @default process.stdin
   */
  stdin?: NodeJS.ReadableStream;
  /**
   * Where the answers go.
   * @default process.stdout
   */
  stdout?: NodeJS.WritableStream;
  /** Longest message accepted from the client, in bytes; a longer one is skipped with an error. */
  maxMessageBytes: number;
}

/**
 * The client's side over stdin/stdout, like the SDK's `StdioServerTransport` but with the proxy's
 * linear-time line reader and a cheap JSON-RPC check instead of the SDK's schema parse of every
 * message (the `Server` checks what it uses): the proxy's own share of a small call's latency.
 */
export class StdioDownstreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly stdin: NodeJS.ReadableStream;
  private readonly stdout: NodeJS.WritableStream;
  private readonly splitter: LineSplitter;
  private started = false;

  constructor({
    stdin = process.stdin,
    stdout = process.stdout,
    maxMessageBytes,
  }: StdioDownstreamTransportOptions) {
    this.stdin = stdin;
    this.stdout = stdout;
    this.splitter = new LineSplitter({
      maxLineBytes: maxMessageBytes,
      onLine: (line) => this.receive(line),
      onOversized: (bytes) =>
        this.onerror?.(
          new Error(
            `Client message larger than maxMessageBytes (${maxMessageBytes} bytes, got ${bytes}+); skipped`,
          ),
        ),
    });
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('StdioDownstreamTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    // Pause stdin only when nothing else reads it.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.splitter.clear();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private receive(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      this.onerror?.(
        new Error(`Client wrote a line that is not JSON (skipped): ${line.slice(0, 200)}`, { cause: error }),
      );
      return;
    }
    if (!isJsonRpcMessage(message)) {
      this.onerror?.(
        new Error(`Client wrote a line that is not a JSON-RPC message (skipped): ${line.slice(0, 200)}`),
      );
      return;
    }
    this.onmessage?.(message);
  }
}

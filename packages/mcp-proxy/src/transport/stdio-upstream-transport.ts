import type { ChildProcess } from 'node:child_process';
import type { JSONRPCMessage, Transport } from '../sdk/mcp-sdk';
import { collectGarbage } from './collect-garbage';
import { isJsonRpcMessage } from './is-json-rpc-message';
import { LargeLineParser } from './large-line-parser';
import { type LineSink, LineSplitter } from './line-splitter';
import { spawnUpstream } from './spawn-upstream';

/** Messages from this many characters on are handed on after a garbage collection (see `receive`). */
const LARGE_MESSAGE_CHARS = 8 * 1024 * 1024;

/** How long a child that closed its stdout has to exit before the connection is ended without it. */
const STDOUT_END_GRACE = 500;

/** Options of {@link StdioUpstreamTransport}. */
export interface StdioUpstreamTransportOptions {
  command: string;
  /** @default [] */
  args?: readonly string[];
  /**
   * The child's full environment.
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /** @default the current working directory */
  cwd?: string | undefined;
  /** Longest message accepted from the child, in bytes. */
  maxMessageBytes: number;
  /**
   * Where the child's stderr goes: the proxy's stderr (`'inherit'`), or a pipe to read.
   * @default 'inherit'
   */
  stderr?: 'inherit' | 'pipe';
}

/**
 * An MCP client transport over a child process's stdin/stdout, like the SDK's
 * `StdioClientTransport`, but with a linear-time line reader and a configurable message cap, so a
 * 50 MB result arrives in a fraction of a second instead of ~13 s, and with the exit code and signal
 * of the child kept for error messages. The child inherits the proxy's environment.
 */
export class StdioUpstreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Exit code of the child once it has exited. */
  exitCode: number | null = null;
  /** Signal that ended the child, once it has exited. */
  exitSignal: NodeJS.Signals | null = null;

  private child: ChildProcess | undefined;
  private readonly pending: JSONRPCMessage[] = [];
  private waiting = false;
  private closed = false;
  private readonly options: StdioUpstreamTransportOptions;
  private readonly splitter: LineSplitter;

  constructor(options: StdioUpstreamTransportOptions) {
    this.options = options;
    this.splitter = new LineSplitter({
      maxLineBytes: options.maxMessageBytes,
      onLargeLine: collectGarbage,
      onLine: (line) => this.receive(line),
      onLongLine: () => this.longLine(),
      onOversized: (bytes) =>
        this.onerror?.(
          new Error(
            `Upstream message larger than maxMessageBytes (${options.maxMessageBytes} bytes, got ${bytes}+); skipped`,
          ),
        ),
    });
  }

  /** Process id of the child, while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The child's stderr when `stderr: 'pipe'` was asked for. */
  get stderr(): NodeJS.ReadableStream | null {
    return this.child?.stderr ?? null;
  }

  async start(): Promise<void> {
    if (this.child !== undefined) throw new Error('StdioUpstreamTransport already started');
    const { command, args = [], env = process.env, cwd, stderr = 'inherit' } = this.options;
    const child = spawnUpstream({ command, args, env, cwd, stderr });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    child.on('error', (error) => this.onerror?.(error));
    child.once('exit', (code, signal) => {
      this.exitCode = code;
      this.exitSignal = signal;
    });
    child.once('close', (code, signal) => {
      this.exitCode ??= code;
      this.exitSignal ??= signal;
      this.finish();
    });
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('data', (chunk: Buffer) => this.splitter.push(chunk));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    // A child that closes its stdout can never answer again, even if it keeps running: unless it
    // exits right away (the usual order), the connection ends now and `close()` stops the child, so
    // no request waits for its timeout.
    child.stdout?.once('end', () => {
      setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) this.finish();
      }, STDOUT_END_GRACE).unref();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin == null || this.closed || stdin.destroyed) throw new Error('Upstream process is not running');
    const line = `${JSON.stringify(message)}\n`;
    if (!stdin.write(line)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off('drain', done);
          stdin.off('close', done);
          resolve();
        };
        stdin.once('drain', done);
        stdin.once('close', done);
      });
    }
  }

  /**
   * Stops the child: closes its stdin, then SIGTERM after 2 s, then SIGKILL after 2 more seconds.
   * Resolves once the child has exited.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) {
      this.finish();
      return;
    }

    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const wait = (milliseconds: number) =>
      Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, milliseconds).unref())]);
    try {
      child.stdin?.end();
    } catch {
      // already gone
    }
    await wait(2000);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await wait(2000);
    }
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    this.finish();
  }

  private receive(line: string): void {
    this.accept(
      () => JSON.parse(line),
      () => (line.length > 200 ? `${line.slice(0, 200)}…` : line),
      line.length,
    );
  }

  /**
   * A line long enough to stream: parsed as it arrives, its long texts read into large texts (see
   * `LargeLineParser`), so the line is never held whole.
   */
  private longLine(): LineSink {
    const parser = new LargeLineParser({ onLargeJoin: collectGarbage });
    let failure: unknown;
    let chars = 0;
    return {
      write: (piece) => {
        chars += piece.length;
        if (failure !== undefined) return;
        try {
          parser.write(piece);
        } catch (error) {
          failure = error;
        }
      },
      end: () =>
        this.accept(
          () => {
            if (failure !== undefined) throw failure;
            return parser.end();
          },
          () => parser.preview,
          chars,
        ),
      abort: () => {},
    };
  }

  /** Hands on the message `parse` gives, or reports the line as not a JSON-RPC message. */
  private accept(parse: () => unknown, preview: () => string, chars: number): void {
    let message: JSONRPCMessage;
    try {
      message = parse() as JSONRPCMessage;
      if (!isJsonRpcMessage(message)) throw new Error('not a JSON-RPC 2.0 message');
    } catch (error) {
      this.onerror?.(
        new Error(`Upstream wrote a line that is not a JSON-RPC message (skipped): ${preview()}`, {
          cause: error,
        }),
      );
      return;
    }
    if (chars >= LARGE_MESSAGE_CHARS) {
      // A very large message: handed on after a garbage collection, once its line is unreferenced, so
      // the line is gone before the message's handling allocates anything large.
      this.pending.push(message);
      if (!this.waiting) {
        this.waiting = true;
        setImmediate(() => {
          collectGarbage();
          this.flush();
        });
      }
      return;
    }
    this.deliver(message);
  }

  /**
   * Hands messages to the SDK in order; after a notification, the next message waits for a
   * macrotask. The SDK v1 `Protocol` dispatches notifications a microtask late but responses at once,
   * so a progress notification read in the same chunk as its response would otherwise find its
   * handler gone (typescript-sdk#2580).
   */
  private deliver(message: JSONRPCMessage): void {
    this.pending.push(message);
    if (!this.waiting) this.flush();
  }

  private readonly flush = (): void => {
    this.waiting = false;
    for (let message = this.pending.shift(); message !== undefined; message = this.pending.shift()) {
      this.onmessage?.(message);
      if (!('id' in message)) {
        this.waiting = true;
        setImmediate(this.flush);
        return;
      }
    }
  };

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.splitter.clear();
    this.onclose?.();
  }
}

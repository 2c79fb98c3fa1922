import { materializeLargeTexts } from '../large-text/materialize-large-texts';
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '../sdk/mcp-sdk';

/**
 * A transport that stands between a started downstream transport and the proxy's `Server`, so the
 * proxy can read the client's `initialize` first (to start the upstream with the client's
 * capabilities and mirror the upstream's back) before the `Server` exists. Messages that arrive
 * before the `Server` is attached are queued and replayed in order. What goes to the client carries
 * no `LargeText` (a text read from the upstream in pieces): each is sent as its string.
 */
export class DownstreamGate implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  private readonly inner: Transport;
  private queue: Array<[JSONRPCMessage, MessageExtraInfo | undefined]> | undefined = [];

  constructor(inner: Transport, { onQueued }: { onQueued: (message: JSONRPCMessage) => void }) {
    this.inner = inner;
    inner.onmessage = (message, extra) => {
      if (this.queue !== undefined) {
        this.queue.push([message, extra]);
        onQueued(message);
        return;
      }
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The inner transport is started by the session; a `Server` connecting here starts nothing. */
  async start(): Promise<void> {}

  /** Delivers the queued messages to the attached `Server` and lets later ones through directly. */
  release(): void {
    const queue = this.queue ?? [];
    this.queue = undefined;
    for (const [message, extra] of queue) this.onmessage?.(message, extra);
  }

  /** Sends to the client; a large text an answer still carries goes out as its string. */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(materializeLargeTexts(message), options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

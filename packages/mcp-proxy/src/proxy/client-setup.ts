import type { Client } from '../sdk/mcp-sdk';
import { ResultSchema } from '../sdk/mcp-sdk';

/**
 * What the client set up on the upstream (its log level, its resource subscriptions), kept so that
 * it can be set up again on a new connection after a `url` upstream was reached again.
 */
export class ClientSetup {
  private loggingLevel: unknown;
  private readonly subscriptions = new Set<string>();

  /** Notes what a request the client sends upstream sets up, if anything. */
  remember(request: { method: string; params?: Record<string, unknown> | undefined }): void {
    const uri = request.params?.uri;
    if (request.method === 'logging/setLevel') this.loggingLevel = request.params?.level;
    else if (request.method === 'resources/subscribe' && typeof uri === 'string') this.subscriptions.add(uri);
    else if (request.method === 'resources/unsubscribe' && typeof uri === 'string')
      this.subscriptions.delete(uri);
  }

  /** Sets the client's log level and subscriptions up again on `client`; failures are only logged. */
  async replay(
    client: Client,
    { timeout, log }: { timeout: number; log: (message: string) => void },
  ): Promise<void> {
    const replay = async (method: string, params: Record<string, unknown>) => {
      await client
        .request({ method, params } as never, ResultSchema, { timeout })
        .catch((error: unknown) => log(`could not restore ${method} upstream: ${String(error)}`));
    };
    if (this.loggingLevel !== undefined) await replay('logging/setLevel', { level: this.loggingLevel });
    for (const uri of this.subscriptions) await replay('resources/subscribe', { uri });
  }
}

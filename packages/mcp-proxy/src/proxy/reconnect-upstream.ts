import { UpstreamError } from '../errors/upstream-error';
import type { Client } from '../sdk/mcp-sdk';
import type { SessionState } from './session-state';

/**
 * Reaches a lost `url` upstream again, with exponential backoff (`reconnectInitialDelay` doubling up
 * to `reconnectMaxDelay`, `reconnectAttempts` times), then sets the client's state up on it again.
 * When every attempt fails the upstream is gone and the session ends.
 */
export async function reconnectUpstream(state: SessionState, description: string): Promise<void> {
  const { logger, reconnectAttempts, reconnectInitialDelay, reconnectMaxDelay } = state.options;
  let lastError: unknown;
  for (let attempt = 1; attempt <= reconnectAttempts; attempt++) {
    if (state.closing) return;
    state.reconnecting = { attempt, reason: state.reconnecting?.reason ?? 'connection lost' };
    const delay = Math.min(reconnectMaxDelay, reconnectInitialDelay * 2 ** (attempt - 1));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      state.connectAbort.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
    if (state.closing) return;
    try {
      const connection = await state.reach(state.connectAbort.signal);
      if (state.closing) {
        await connection.client.close().catch(() => {});
        return;
      }
      state.upstream = connection;
      state.reconnecting = undefined;
      logger.error(`reconnected to ${description} (attempt ${attempt})`);
      await restoreUpstreamState(state, connection.client);
      return;
    } catch (error) {
      lastError = error;
      logger.debug(`reconnection attempt ${attempt} to ${description} failed: ${String(error)}`);
    }
  }
  state.reconnecting = undefined;
  state.upstreamGone = true;
  state.upstreamError = new UpstreamError({
    upstream: description,
    message: `The upstream MCP server "${description}" could not be reached again after ${reconnectAttempts} attempts`,
    cause: lastError,
  });
  logger.error(state.upstreamError.message);
  await state.finish({ reason: 'upstream-closed', error: state.upstreamError });
}

/** After a reconnection: the client's log level and subscriptions again, and list_changed for lists that may differ. */
async function restoreUpstreamState(state: SessionState, client: Client): Promise<void> {
  const { logger, requestTimeout } = state.options;
  await state.setup.replay(client, { timeout: requestTimeout, log: (message) => logger.debug(message) });
  state.tools.forget();
  const capabilities = state.capabilities;
  for (const [capability, method] of [
    ['tools', 'notifications/tools/list_changed'],
    ['resources', 'notifications/resources/list_changed'],
    ['prompts', 'notifications/prompts/list_changed'],
  ] as const) {
    if (capabilities[capability] === undefined) continue;
    await state.server?.notification({ method }).catch(() => {});
  }
}

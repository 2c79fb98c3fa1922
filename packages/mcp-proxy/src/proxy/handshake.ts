import { UpstreamError } from '../errors/upstream-error';
import {
  answerInitializeWith,
  dispatchByShape,
  ErrorCode,
  Server,
  type ServerCapabilities,
} from '../sdk/mcp-sdk';
import { VERSION } from '../version';
import { describeUpstream } from './connect-upstream';
import { routeClientRequests } from './route-client-requests';
import type { ClientInitialize, SessionState } from './session-state';

/**
 * The client's `initialize` has arrived: starts (or reaches) the upstream with the client's identity,
 * capabilities and protocol version, then attaches a `Server` mirroring the upstream (its
 * `serverInfo`, instructions, capabilities and negotiated protocol version) and lets the client's
 * queued messages through. When the upstream cannot be started, the client's `initialize` is
 * answered with the error and the session ends.
 */
export async function handshake(state: SessionState, initialize: ClientInitialize): Promise<void> {
  const { logger, upstream } = state.options;
  const establishing = state.reach(state.connectAbort.signal);
  state.establishing = establishing.then(
    () => {},
    () => {},
  );
  try {
    state.upstream = await establishing;
  } catch (error) {
    // The session ended while connecting: the attempt was given up and its child stopped.
    if (state.closing) return;
    const upstreamError = UpstreamError.isInstance(error)
      ? error
      : new UpstreamError({ upstream: describeUpstream(upstream), message: String(error), cause: error });
    logger.error(upstreamError.message);
    await state.downstream
      .send({
        jsonrpc: '2.0',
        id: initialize.id,
        error: { code: ErrorCode.InternalError, message: upstreamError.message },
      })
      .catch(() => {});
    await state.finish({ reason: 'upstream-failed', error: upstreamError });
    return;
  }
  if (state.closing) {
    await state.upstream.client.close().catch(() => {});
    return;
  }
  const { client } = state.upstream;
  logger.debug(`connected to ${state.upstream.description} (protocol ${state.upstream.protocolVersion})`);
  state.capabilities = mirrorCapabilities(client.getServerCapabilities() ?? {});
  const server = new Server(client.getServerVersion() ?? { name: 'spillway-mcp', version: VERSION }, {
    capabilities: state.capabilities,
    ...(client.getInstructions() === undefined ? {} : { instructions: client.getInstructions() }),
  });
  // The client gets the version the upstream negotiated, so both ends speak the same one.
  const negotiated = state.upstream.protocolVersion;
  answerInitializeWith(server, () => negotiated);
  routeClientRequests(state, server);
  state.server = server;
  await server.connect(state.gate);
  dispatchByShape(server);
  state.gate.release();
}

/** The upstream's capabilities, plus `tools.listChanged` (the proxy may change the tool list). */
function mirrorCapabilities(capabilities: ServerCapabilities): ServerCapabilities {
  if (capabilities.tools === undefined) return capabilities;
  return { ...capabilities, tools: { ...capabilities.tools, listChanged: true } };
}

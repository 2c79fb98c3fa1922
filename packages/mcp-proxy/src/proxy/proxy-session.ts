import { ForwardedError } from '../errors/forwarded-error';
import { UpstreamError } from '../errors/upstream-error';
import type { ResolvedProxyOptions } from '../options/resolve-proxy-options';
import { readResultPage, readResultToolDefinition } from '../paging/read-result-tool';
import type { ResultStore } from '../paging/result-store';
import {
  AjvJsonSchemaValidator,
  type CallToolResult,
  type Client,
  ErrorCode,
  type Implementation,
  isInitializeRequest,
  type JSONRPCMessage,
  type Notification,
  onCancelled,
  PingRequestSchema,
  type RequestHandlerExtra,
  type RequestOptions,
  type Result,
  ResultSchema,
  Server,
  type ServerCapabilities,
  type Tool,
  type Transport,
} from '../sdk/mcp-sdk';
import { DownstreamGate } from '../transport/downstream-gate';
import { StdioUpstreamTransport } from '../transport/stdio-upstream-transport';
import { truncateCallToolResult } from '../truncate/truncate-call-tool-result';
import { VERSION } from '../version';
import { connectUpstream, describeUpstream, type UpstreamConnection } from './connect-upstream';

/** Why a session ended. */
export interface ProxySessionEnd {
  /**
   * `'downstream-closed'`: the client went away; `'upstream-closed'`: the upstream server exited or
   * dropped the connection; `'upstream-failed'`: it could not be started; `'closed'`: `close()`.
   */
  readonly reason: 'downstream-closed' | 'upstream-closed' | 'upstream-failed' | 'closed';
  /** Set for the two upstream reasons. */
  readonly error?: UpstreamError;
}

/** Options of {@link ProxySession}. */
export interface ProxySessionOptions {
  /** The client's side: a stdio or Streamable HTTP server transport, not yet started. */
  downstream: Transport;
  options: ResolvedProxyOptions;
  /** Shared store of full results for paging; `undefined` when paging is off. */
  store: ResultStore | undefined;
}

type AnyRequest = { method: string; params?: Record<string, unknown> | undefined };
type Extra = RequestHandlerExtra<never, never> & {
  sendNotification: (notification: Notification) => Promise<void>;
};
type Requester = {
  request: (request: never, schema: typeof ResultSchema, options?: RequestOptions) => Promise<Result>;
};

/**
 * One client connection and the upstream connection made for it. The upstream is started when the
 * client's `initialize` arrives, with the client's `clientInfo` and capabilities; the proxy's server
 * then answers with the upstream's `serverInfo`, instructions and capabilities. From then on every
 * request and notification is forwarded both ways as raw JSON-RPC (nothing re-validated away),
 * except `tools/call` results, which are truncated, and `tools/list`, which gains the paging tool.
 */
export class ProxySession {
  /** Resolves once, when the session has ended (both sides closed). */
  readonly ended: Promise<ProxySessionEnd>;

  private readonly downstream: Transport;
  private readonly gate: DownstreamGate;
  private readonly options: ResolvedProxyOptions;
  private readonly store: ResultStore | undefined;
  private resolveEnded!: (end: ProxySessionEnd) => void;
  private upstream: UpstreamConnection | undefined;
  private server: Server | undefined;
  private connecting = false;
  /** Gives up a connection to the upstream still being made when the session ends. */
  private readonly connectAbort = new AbortController();
  /** Settles once the upstream connection attempt has (the session's end waits for it). */
  private establishing: Promise<void> | undefined;
  private closing = false;
  private upstreamGone = false;
  private upstreamError: UpstreamError | undefined;
  private finished = false;
  private readonly outputSchemas = new Map<string, Tool['outputSchema']>();
  private readonly validators = new Map<string, (value: unknown) => boolean>();
  private readonly droppedOutputSchemas = new Set<string>();
  private toolsKnown = false;
  private readonly validatorFactory = new AjvJsonSchemaValidator();
  /** The tool of each task-augmented call, by task id (bounded). */
  private readonly taskTools = new Map<string, string>();
  /** Requests from the upstream being forwarded to the client, by the upstream's request id. */
  private readonly upstreamRequests = new Map<string | number, AbortController>();

  constructor({ downstream, options, store }: ProxySessionOptions) {
    this.downstream = downstream;
    this.options = options;
    this.store = store;
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
    this.gate = new DownstreamGate(downstream, { onQueued: (message) => this.onEarlyMessage(message) });
    this.gate.onclose = () => void this.finish({ reason: 'downstream-closed' });
    this.gate.onerror = (error) => this.options.logger.debug(`downstream: ${error.message}`);
  }

  /** Process id of a stdio upstream, while it runs. */
  get upstreamPid(): number | undefined {
    const transport = this.upstream?.transport;
    return transport instanceof StdioUpstreamTransport ? transport.pid : undefined;
  }

  /** Starts reading from the client. The upstream starts when the client's `initialize` arrives. */
  async start(): Promise<void> {
    await this.downstream.start();
  }

  /** Closes both sides (the upstream child is stopped: stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    await this.finish({ reason: 'closed' });
  }

  private onEarlyMessage(message: JSONRPCMessage): void {
    if (this.connecting || !isInitializeRequest(message)) {
      // Anything before `initialize` waits in the gate's queue and is replayed after it.
      return;
    }
    this.connecting = true;
    void this.connect(message as unknown as { id: string | number; params: InitializeParams });
  }

  private async connect(initialize: { id: string | number; params: InitializeParams }): Promise<void> {
    const { logger, upstream } = this.options;
    const establishing = connectUpstream({
      upstream,
      clientInfo: initialize.params.clientInfo,
      capabilities: initialize.params.capabilities ?? {},
      maxMessageBytes: this.options.maxMessageBytes,
      timeout: this.options.requestTimeout,
      prepare: (client) => this.prepareClient(client),
      signal: this.connectAbort.signal,
    });
    this.establishing = establishing.then(
      () => {},
      () => {},
    );
    try {
      this.upstream = await establishing;
    } catch (error) {
      // The session ended while connecting: the attempt was given up and its child stopped.
      if (this.closing) return;
      const upstreamError = UpstreamError.isInstance(error)
        ? error
        : new UpstreamError({ upstream: describeUpstream(upstream), message: String(error), cause: error });
      logger.error(upstreamError.message);
      await this.downstream
        .send({
          jsonrpc: '2.0',
          id: initialize.id,
          error: { code: ErrorCode.InternalError, message: upstreamError.message },
        })
        .catch(() => {});
      await this.finish({ reason: 'upstream-failed', error: upstreamError });
      return;
    }
    if (this.closing) {
      await this.upstream.client.close().catch(() => {});
      return;
    }
    const { client } = this.upstream;
    logger.debug(`connected to ${this.upstream.description}`);
    const server = new Server(client.getServerVersion() ?? { name: 'spillway-mcp', version: VERSION }, {
      capabilities: this.mirrorCapabilities(client.getServerCapabilities() ?? {}),
      ...(client.getInstructions() === undefined ? {} : { instructions: client.getInstructions() }),
    });
    this.prepareServer(server, client);
    this.server = server;
    await server.connect(this.gate);
    this.gate.release();
  }

  /** The upstream's capabilities, plus `tools.listChanged` (the proxy may change the tool list). */
  private mirrorCapabilities(capabilities: ServerCapabilities): ServerCapabilities {
    if (capabilities.tools === undefined) return capabilities;
    return { ...capabilities, tools: { ...capabilities.tools, listChanged: true } };
  }

  private prepareClient(client: Client): void {
    const { logger } = this.options;
    client.fallbackRequestHandler = async (request, extra) =>
      this.forwardFromUpstream(request as AnyRequest, extra as unknown as Extra);
    client.setRequestHandler(PingRequestSchema, async (request, extra) =>
      this.server === undefined ? {} : this.forwardFromUpstream(request, extra as unknown as Extra),
    );
    onCancelled(client, (requestId, reason) => this.upstreamRequests.get(requestId)?.abort(reason));
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method === 'notifications/tools/list_changed') {
        this.toolsKnown = false;
        this.outputSchemas.clear();
        this.validators.clear();
      }
      if (this.server === undefined) {
        logger.debug(`dropped ${notification.method} sent before the client was connected`);
        return;
      }
      await this.server.notification(notification as never).catch((error: unknown) => {
        logger.debug(`could not forward ${notification.method} to the client: ${String(error)}`);
      });
    };
    client.onerror = (error) =>
      (this.upstream?.client === client ? logger.error : logger.debug)(`upstream: ${error.message}`);
    // A client whose connection attempt failed (e.g. Streamable HTTP before the SSE fallback) is not
    // the upstream: its closing ends nothing.
    client.onclose = () => {
      if (this.upstream?.client === client) this.onUpstreamClosed();
    };
  }

  private prepareServer(server: Server, client: Client): void {
    const { logger } = this.options;
    // The SDK answers these locally when the capabilities are set; the proxy forwards them instead.
    server.removeRequestHandler('logging/setLevel');
    server.setRequestHandler(PingRequestSchema, async (request, extra) =>
      this.forward(client, request, extra as unknown as Extra, 'upstream'),
    );
    server.fallbackRequestHandler = async (request, extra) => {
      const forwarded = request as AnyRequest;
      const handlerExtra = extra as unknown as Extra;
      switch (forwarded.method) {
        case 'tools/list':
          return this.listTools(client, forwarded, handlerExtra);
        case 'tools/call':
          return this.callTool(client, forwarded, handlerExtra);
        case 'tasks/result':
          return this.taskResult(client, forwarded, handlerExtra);
        default:
          return this.forward(client, forwarded, handlerExtra, 'upstream');
      }
    };
    server.fallbackNotificationHandler = async (notification) => {
      await client.notification(notification as never).catch((error: unknown) => {
        logger.debug(`could not forward ${notification.method} upstream: ${String(error)}`);
      });
    };
    server.onerror = (error) => logger.debug(`downstream: ${error.message}`);
    // SDK v1 clients ignore a cancellation of request id 0 (they test `!requestId`); a ping right
    // after initialization takes id 0, so every request the upstream sends can be cancelled.
    server.oninitialized = () => void server.ping().catch(() => {});
  }

  /** Forwards a request of the upstream (sampling, elicitation, roots, ping) to the client. */
  private async forwardFromUpstream(request: AnyRequest, extra: Extra): Promise<Result> {
    const controller = new AbortController();
    this.upstreamRequests.set(extra.requestId, controller);
    try {
      const signal = AbortSignal.any([extra.signal, controller.signal]);
      return await this.forward(this.server, request, { ...extra, signal }, 'downstream');
    } finally {
      this.upstreamRequests.delete(extra.requestId);
    }
  }

  /**
   * Sends `request` on to the other side and returns its result as received. The other side sees a
   * progress token of the proxy's; its progress notifications reset the timeout and go back to the
   * requester under the requester's own token. Cancelling the incoming request cancels the outgoing
   * one.
   */
  private async forward(
    target: Requester | undefined,
    request: AnyRequest,
    extra: Extra,
    side: 'upstream' | 'downstream',
  ) {
    if (target === undefined) {
      throw new ForwardedError({ code: ErrorCode.InternalError, message: 'The proxy is not connected yet' });
    }
    const progressToken = (request.params?._meta as { progressToken?: string | number } | undefined)
      ?.progressToken;
    const { requestTimeout, maxTotalTimeout } = this.options;
    // Progress goes out in order, and before the result (the requester drops its handler on the result).
    let progressSent: Promise<void> = Promise.resolve();
    let sentProgress = false;
    try {
      const result = await target.request(
        { method: request.method, params: request.params } as never,
        ResultSchema,
        {
          signal: extra.signal,
          timeout: requestTimeout,
          resetTimeoutOnProgress: true,
          ...(Number.isFinite(maxTotalTimeout) ? { maxTotalTimeout } : {}),
          onprogress: (progress) => {
            if (progressToken === undefined) return;
            sentProgress = true;
            progressSent = progressSent
              .then(() =>
                extra.sendNotification({
                  method: 'notifications/progress',
                  params: { ...progress, progressToken },
                }),
              )
              .catch(() => {});
          },
        },
      );
      if (sentProgress) {
        await progressSent;
        // SDK v1 clients dispatch notifications a microtask late but responses at once, so progress
        // read in the same chunk as the response is lost (typescript-sdk#2580): write them apart.
        await new Promise((resolve) => setImmediate(resolve));
      }
      return result;
    } catch (error) {
      if (side === 'upstream' && this.upstreamGone) {
        // Not McpError: it would prefix "MCP error -32000: " to the message the client prefixes again.
        throw new ForwardedError({
          code: ErrorCode.ConnectionClosed,
          message: `${this.upstreamError?.message ?? 'The upstream MCP server went away'}; ${request.method} got no answer`,
        });
      }
      throw ForwardedError.from(error);
    }
  }

  private async listTools(client: Client, request: AnyRequest, extra: Extra): Promise<Result> {
    const result = await this.forward(client, request, extra, 'upstream');
    const tools = (result as { tools?: unknown }).tools;
    if (!Array.isArray(tools)) return result;
    const nextCursor = (result as { nextCursor?: unknown }).nextCursor;
    const listed = (tools as Tool[]).map((tool) => this.recordTool(tool));
    if (request.params?.cursor === undefined && nextCursor === undefined) this.toolsKnown = true;
    const { paging, readToolName } = this.options;
    if (paging && nextCursor === undefined && !listed.some((tool) => tool.name === readToolName)) {
      listed.push(readResultToolDefinition(readToolName));
    }
    return { ...result, tools: listed };
  }

  /** Remembers a tool's `outputSchema`; strips it when the proxy had to drop that tool's structured content. */
  private recordTool(tool: Tool): Tool {
    if (tool === null || typeof tool !== 'object' || typeof tool.name !== 'string') return tool;
    if (tool.outputSchema === undefined) this.outputSchemas.delete(tool.name);
    else if (this.outputSchemas.get(tool.name) !== tool.outputSchema) {
      this.outputSchemas.set(tool.name, tool.outputSchema);
      this.validators.delete(tool.name);
    }
    if (!this.droppedOutputSchemas.has(tool.name) || tool.outputSchema === undefined) return tool;
    const { outputSchema: _dropped, ...rest } = tool;
    return rest as Tool;
  }

  private async callTool(client: Client, request: AnyRequest, extra: Extra): Promise<Result> {
    const { paging, readToolName, budget } = this.options;
    const name = request.params?.name;
    if (paging && name === readToolName && this.store !== undefined) {
      return readResultPage({
        store: this.store,
        input: request.params?.arguments,
        maxTokens: budget.maxResultTokens,
      });
    }
    const result = await this.forward(client, request, extra, 'upstream');
    if (typeof name !== 'string') return result;
    const taskId = (result as { task?: { taskId?: unknown } }).task?.taskId;
    if (typeof taskId === 'string') {
      // A task-augmented call: the result comes later from tasks/result; remember whose it is.
      this.taskTools.set(taskId, name);
      if (this.taskTools.size > MAX_REMEMBERED_TASKS)
        this.taskTools.delete(this.taskTools.keys().next().value as string);
      return result;
    }
    return this.truncateResult(client, name, result, extra);
  }

  /** `tasks/result`: the result of a task-augmented `tools/call`, truncated like a direct one. */
  private async taskResult(client: Client, request: AnyRequest, extra: Extra): Promise<Result> {
    const result = await this.forward(client, request, extra, 'upstream');
    const taskId = request.params?.taskId;
    const name = typeof taskId === 'string' ? this.taskTools.get(taskId) : undefined;
    return name === undefined ? result : this.truncateResult(client, name, result, extra);
  }

  private async truncateResult(client: Client, name: string, result: Result, extra: Extra): Promise<Result> {
    const { readToolName, budget, tools, logger } = this.options;
    const callResult = result as CallToolResult;
    if (!Array.isArray(callResult.content) && callResult.structuredContent === undefined) return result;
    const validate =
      callResult.structuredContent === undefined ? undefined : await this.validatorFor(client, name, extra);
    const truncated = truncateCallToolResult(callResult, {
      budget: tools.get(name) ?? budget,
      store: this.store,
      readToolName,
      validateStructuredContent: validate,
    });
    if (truncated.changes.length > 0) logger.debug(`tools/call ${name}: ${truncated.changes.join('; ')}`);
    if (truncated.structuredContentDropped && !this.droppedOutputSchemas.has(name)) {
      this.droppedOutputSchemas.add(name);
      if (this.outputSchemas.has(name)) {
        void this.server?.notification({ method: 'notifications/tools/list_changed' }).catch(() => {});
      }
    }
    return truncated.result;
  }

  /** A validator for the tool's `outputSchema`, listing the tools upstream first if not known yet. */
  private async validatorFor(client: Client, name: string, extra: Extra) {
    if (!this.toolsKnown) {
      let cursor: unknown;
      for (let page = 0; page < 100; page++) {
        const result = await client.request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } } as never,
          ResultSchema,
          { signal: extra.signal, timeout: this.options.requestTimeout },
        );
        for (const tool of ((result as { tools?: Tool[] }).tools ?? []) as Tool[]) this.recordTool(tool);
        cursor = (result as { nextCursor?: unknown }).nextCursor;
        if (cursor === undefined) break;
      }
      this.toolsKnown = true;
    }
    const schema = this.outputSchemas.get(name);
    if (schema === undefined) return undefined;
    let validate = this.validators.get(name);
    if (validate === undefined) {
      try {
        const validator = this.validatorFactory.getValidator(schema as never);
        validate = (value: unknown) => validator(value).valid;
      } catch {
        validate = () => false;
      }
      this.validators.set(name, validate);
    }
    return validate;
  }

  private onUpstreamClosed(): void {
    if (this.closing) return;
    this.upstreamGone = true;
    const transport = this.upstream?.transport;
    const description = this.upstream?.description ?? describeUpstream(this.options.upstream);
    let how = 'closed the connection';
    let exitCode: number | undefined;
    let signal: string | undefined;
    if (transport instanceof StdioUpstreamTransport) {
      exitCode = transport.exitCode ?? undefined;
      signal = transport.exitSignal ?? undefined;
      how = signal === undefined ? `exited with code ${exitCode ?? 'unknown'}` : `was killed by ${signal}`;
    }
    this.upstreamError = new UpstreamError({
      upstream: description,
      message: `The upstream MCP server "${description}" ${how}`,
      exitCode,
      signal,
    });
    this.options.logger.error(this.upstreamError.message);
    // Pending requests are failed by the SDK right after this callback; let their answers go out first.
    setTimeout(() => void this.finish({ reason: 'upstream-closed', error: this.upstreamError }), 50);
  }

  private async finish(end: ProxySessionEnd): Promise<void> {
    if (this.finished) return this.ended.then(() => {});
    this.finished = true;
    this.closing = true;
    // An upstream still starting is stopped too, and the session ends only once it is.
    this.connectAbort.abort();
    await this.establishing;
    await this.upstream?.client.close().catch(() => {});
    if (this.server !== undefined) await this.server.close().catch(() => {});
    else await this.downstream.close().catch(() => {});
    this.resolveEnded(end);
  }
}

const MAX_REMEMBERED_TASKS = 1000;

interface InitializeParams {
  protocolVersion: string;
  capabilities?: Record<string, unknown>;
  clientInfo: Implementation;
}

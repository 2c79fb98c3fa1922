import { createRecallRef, RECALL_TOOL_NAME } from '@spillway/core';
import { ForwardedError } from '../errors/forwarded-error';
import { UpstreamError } from '../errors/upstream-error';
import type { ResolvedProxyOptions } from '../options/resolve-proxy-options';
import { answerRecall } from '../recall/answer-recall';
import type { RecallStore } from '../recall/recall-store';
import { recallToolDefinition } from '../recall/recall-tool-definition';
import {
  AjvJsonSchemaValidator,
  answerInitializeWith,
  type CallToolResult,
  type Client,
  ErrorCode,
  type Implementation,
  isInitializeRequest,
  isMcpError,
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
import type { RecallTarget } from '../truncate/truncate-content';
import { truncateGetPromptResult } from '../truncate/truncate-get-prompt-result';
import { truncateReadResourceResult } from '../truncate/truncate-read-resource-result';
import { VERSION } from '../version';
import { connectUpstream, describeUpstream, type UpstreamConnection } from './connect-upstream';

/** Why a session ended. */
export interface ProxySessionEnd {
  /**
   * `'downstream-closed'`: the client went away; `'upstream-closed'`: the upstream server exited or
   * dropped the connection (for a `url` upstream: and could not be reached again);
   * `'upstream-failed'`: it could not be started; `'idle'`: an HTTP session idle past
   * `sessionIdleTimeout`; `'closed'`: `close()`.
   */
  readonly reason: 'downstream-closed' | 'upstream-closed' | 'upstream-failed' | 'idle' | 'closed';
  /** Set for the two upstream reasons. */
  readonly error?: UpstreamError;
}

/** Options of {@link ProxySession}. */
export interface ProxySessionOptions {
  /** The client's side: a stdio or Streamable HTTP server transport, not yet started. */
  downstream: Transport;
  options: ResolvedProxyOptions;
  /** The store of full texts for `spillway_recall` (shared, each session sees its own); `undefined` when paging is off. */
  store: RecallStore | undefined;
}

type AnyRequest = { method: string; params?: Record<string, unknown> | undefined };
type Extra = RequestHandlerExtra<never, never> & {
  sendNotification: (notification: Notification) => Promise<void>;
};
type Requester = {
  request: (request: never, schema: typeof ResultSchema, options?: RequestOptions) => Promise<Result>;
};

/** How long a health check of a `url` upstream (a ping) may take before the connection counts as lost. */
const HEALTH_CHECK_TIMEOUT = 10_000;

/**
 * One client connection and the upstream connection made for it. The upstream is started when the
 * client's `initialize` arrives, with the client's `clientInfo`, capabilities and protocol version;
 * the proxy's server then answers with the upstream's `serverInfo`, instructions, capabilities and
 * negotiated protocol version. From then on every request and notification is forwarded both ways as
 * raw JSON-RPC (nothing re-validated away), except `tools/call`, `resources/read` and `prompts/get`
 * results, which are kept within budget, and `tools/list`, which gains `spillway_recall`.
 *
 * When a `url` upstream's connection is lost, every request in flight is answered with an error at
 * once and the session reconnects with backoff; the client then gets `list_changed` notifications.
 * A stdio upstream that exits ends the session.
 */
export class ProxySession {
  /** Resolves once, when the session has ended (both sides closed). */
  readonly ended: Promise<ProxySessionEnd>;

  private readonly downstream: Transport;
  private readonly gate: DownstreamGate;
  private readonly options: ResolvedProxyOptions;
  private readonly recall: RecallTarget | undefined;
  private resolveEnded!: (end: ProxySessionEnd) => void;
  private upstream: UpstreamConnection | undefined;
  private server: Server | undefined;
  /** The capabilities the client was given (the upstream's, mirrored). */
  private capabilities: ServerCapabilities = {};
  private initialize: { id: string | number; params: InitializeParams } | undefined;
  /** Gives up a connection to the upstream still being made when the session ends. */
  private readonly connectAbort = new AbortController();
  /** Settles once the upstream connection attempt has (the session's end waits for it). */
  private establishing: Promise<void> | undefined;
  private closing = false;
  private upstreamGone = false;
  private upstreamError: UpstreamError | undefined;
  /** Set while a lost `url` upstream is being reached again. */
  private reconnecting: { attempt: number; reason: string } | undefined;
  private healthCheck: Promise<'ok' | 'lost'> | undefined;
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
  /** What the client set up on the upstream, replayed after a reconnection. */
  private loggingLevel: unknown;
  private readonly subscriptions = new Set<string>();

  constructor({ downstream, options, store }: ProxySessionOptions) {
    this.downstream = downstream;
    this.options = options;
    this.recall = store === undefined ? undefined : { store, owner: createRecallRef() };
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

  /** The protocol version the upstream negotiated (and the client was answered with), once known. */
  get protocolVersion(): string | undefined {
    return this.upstream?.protocolVersion;
  }

  /** Whether the session is ending or has ended (it no longer serves requests). */
  get ending(): boolean {
    return this.finished;
  }

  /** Starts reading from the client. The upstream starts when the client's `initialize` arrives. */
  async start(): Promise<void> {
    await this.downstream.start();
  }

  /** Closes both sides (the upstream child is stopped: stdin closed, then SIGTERM, then SIGKILL). */
  async close(reason: 'closed' | 'idle' = 'closed'): Promise<void> {
    await this.finish({ reason });
  }

  private onEarlyMessage(message: JSONRPCMessage): void {
    if (this.initialize !== undefined || !isInitializeRequest(message)) {
      // Anything before `initialize` waits in the gate's queue and is replayed after it.
      return;
    }
    this.initialize = message as unknown as { id: string | number; params: InitializeParams };
    void this.connect(this.initialize);
  }

  /** Starts (or reaches) the upstream with the client's identity, capabilities and protocol version. */
  private connectOnce(signal: AbortSignal): Promise<UpstreamConnection> {
    const { params } = this.initialize as { params: InitializeParams };
    return connectUpstream({
      upstream: this.options.upstream,
      clientInfo: params.clientInfo,
      capabilities: params.capabilities ?? {},
      protocolVersion: params.protocolVersion,
      maxMessageBytes: this.options.maxMessageBytes,
      timeout: this.options.connectTimeout,
      prepare: (client) => this.prepareClient(client),
      signal,
    });
  }

  private async connect(initialize: { id: string | number; params: InitializeParams }): Promise<void> {
    const { logger, upstream } = this.options;
    const establishing = this.connectOnce(this.connectAbort.signal);
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
    logger.debug(`connected to ${this.upstream.description} (protocol ${this.upstream.protocolVersion})`);
    this.capabilities = this.mirrorCapabilities(client.getServerCapabilities() ?? {});
    const server = new Server(client.getServerVersion() ?? { name: 'spillway-mcp', version: VERSION }, {
      capabilities: this.capabilities,
      ...(client.getInstructions() === undefined ? {} : { instructions: client.getInstructions() }),
    });
    // The client gets the version the upstream negotiated, so both ends speak the same one.
    const negotiated = this.upstream.protocolVersion;
    answerInitializeWith(server, () => negotiated);
    this.prepareServer(server);
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
      if (notification.method === 'notifications/tools/list_changed') this.forgetTools();
      if (this.server === undefined) {
        logger.debug(`dropped ${notification.method} sent before the client was connected`);
        return;
      }
      await this.server.notification(notification as never).catch((error: unknown) => {
        logger.debug(`could not forward ${notification.method} to the client: ${String(error)}`);
      });
    };
    client.onerror = (error) => {
      const current = this.upstream?.client === client;
      (current ? logger.error : logger.debug)(`upstream: ${error.message}`);
      // Over HTTP, a dropped stream or a failed POST is how a lost server shows: check it is still there.
      if (current) void this.checkUpstream(client);
    };
    // A client whose connection attempt failed (e.g. Streamable HTTP before the SSE fallback), or one
    // replaced after a reconnection, is not the upstream: its closing ends nothing.
    client.onclose = () => {
      if (this.upstream?.client === client) this.onUpstreamClosed();
    };
  }

  private prepareServer(server: Server): void {
    const { logger } = this.options;
    // The SDK answers these locally when the capabilities are set; the proxy forwards them instead.
    server.removeRequestHandler('logging/setLevel');
    server.setRequestHandler(PingRequestSchema, async (request, extra) =>
      this.forward(this.upstream?.client, request, extra as unknown as Extra, 'upstream'),
    );
    server.fallbackRequestHandler = async (request, extra) => {
      const forwarded = request as AnyRequest;
      const handlerExtra = extra as unknown as Extra;
      switch (forwarded.method) {
        case 'tools/list':
          return this.listTools(forwarded, handlerExtra);
        case 'tools/call':
          return this.callTool(forwarded, handlerExtra);
        case 'tasks/result':
          return this.taskResult(forwarded, handlerExtra);
        case 'resources/read':
          return this.readResource(forwarded, handlerExtra);
        case 'prompts/get':
          return this.getPrompt(forwarded, handlerExtra);
        default:
          this.remember(forwarded);
          return this.forward(this.upstream?.client, forwarded, handlerExtra, 'upstream');
      }
    };
    server.fallbackNotificationHandler = async (notification) => {
      const client = this.upstream?.client;
      if (client === undefined) {
        logger.debug(`dropped ${notification.method}: the upstream is not connected`);
        return;
      }
      await client.notification(notification as never).catch((error: unknown) => {
        logger.debug(`could not forward ${notification.method} upstream: ${String(error)}`);
      });
    };
    server.onerror = (error) => logger.debug(`downstream: ${error.message}`);
    // SDK v1 clients ignore a cancellation of request id 0 (they test `!requestId`); a ping right
    // after initialization takes id 0, so every request the upstream sends can be cancelled.
    server.oninitialized = () => void server.ping().catch(() => {});
  }

  /** Keeps what the client set up upstream (log level, subscriptions), to replay it after a reconnection. */
  private remember(request: AnyRequest): void {
    const uri = request.params?.uri;
    if (request.method === 'logging/setLevel') this.loggingLevel = request.params?.level;
    else if (request.method === 'resources/subscribe' && typeof uri === 'string') this.subscriptions.add(uri);
    else if (request.method === 'resources/unsubscribe' && typeof uri === 'string')
      this.subscriptions.delete(uri);
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
      if (side === 'upstream' && (this.reconnecting !== undefined || this.upstreamGone)) {
        throw this.unavailable(request.method);
      }
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
      if (side === 'upstream' && (this.upstreamGone || this.reconnecting !== undefined)) {
        throw this.unavailable(request.method);
      }
      // Not a JSON-RPC error from the server (a network failure, an HTTP status): is it still there?
      if (
        side === 'upstream' &&
        'url' in this.options.upstream &&
        !isMcpError(error) &&
        !extra.signal.aborted
      ) {
        const client = this.upstream?.client;
        if (client !== undefined && (await this.checkUpstream(client)) === 'lost') {
          throw this.unavailable(request.method);
        }
      }
      throw ForwardedError.from(error);
    }
  }

  /** The error a request gets when the upstream is gone or being reached again. */
  private unavailable(method: string): ForwardedError {
    // Not McpError: it would prefix "MCP error -32000: " to the message the client prefixes again.
    const message =
      this.reconnecting !== undefined && !this.upstreamGone
        ? `The connection to the upstream MCP server "${describeUpstream(this.options.upstream)}" was lost (${this.reconnecting.reason}); reconnecting (attempt ${this.reconnecting.attempt} of ${this.options.reconnectAttempts}); ${method} got no answer`
        : `${this.upstreamError?.message ?? 'The upstream MCP server went away'}; ${method} got no answer`;
    return new ForwardedError({ code: ErrorCode.ConnectionClosed, message });
  }

  private async listTools(request: AnyRequest, extra: Extra): Promise<Result> {
    const result = await this.forward(this.upstream?.client, request, extra, 'upstream');
    const tools = (result as { tools?: unknown }).tools;
    if (!Array.isArray(tools)) return result;
    const nextCursor = (result as { nextCursor?: unknown }).nextCursor;
    const listed = (tools as Tool[]).map((tool) => this.recordTool(tool));
    if (request.params?.cursor === undefined && nextCursor === undefined) this.toolsKnown = true;
    if (
      this.recall !== undefined &&
      nextCursor === undefined &&
      !listed.some((tool) => tool.name === RECALL_TOOL_NAME)
    ) {
      listed.push(recallToolDefinition());
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

  private forgetTools(): void {
    this.toolsKnown = false;
    this.outputSchemas.clear();
    this.validators.clear();
  }

  private async callTool(request: AnyRequest, extra: Extra): Promise<Result> {
    const name = request.params?.name;
    if (name === RECALL_TOOL_NAME && this.recall !== undefined) {
      return answerRecall({
        ...this.recall,
        input: request.params?.arguments,
        maxTokens: this.options.budget.maxResultTokens,
      });
    }
    const result = await this.forward(this.upstream?.client, request, extra, 'upstream');
    if (typeof name !== 'string') return result;
    const taskId = (result as { task?: { taskId?: unknown } }).task?.taskId;
    if (typeof taskId === 'string') {
      // A task-augmented call: the result comes later from tasks/result; remember whose it is.
      this.taskTools.set(taskId, name);
      if (this.taskTools.size > MAX_REMEMBERED_TASKS)
        this.taskTools.delete(this.taskTools.keys().next().value as string);
      return result;
    }
    return this.truncateResult(name, result, extra);
  }

  /** `tasks/result`: the result of a task-augmented `tools/call`, truncated like a direct one. */
  private async taskResult(request: AnyRequest, extra: Extra): Promise<Result> {
    const result = await this.forward(this.upstream?.client, request, extra, 'upstream');
    const taskId = request.params?.taskId;
    const name = typeof taskId === 'string' ? this.taskTools.get(taskId) : undefined;
    return name === undefined ? result : this.truncateResult(name, result, extra);
  }

  /** `resources/read`: the contents held to the resource budgets. */
  private async readResource(request: AnyRequest, extra: Extra): Promise<Result> {
    const result = await this.forward(this.upstream?.client, request, extra, 'upstream');
    const { result: output, changes } = truncateReadResourceResult(result, {
      budget: this.options.resourceBudget,
      recall: this.recall,
    });
    if (changes.length > 0) {
      this.options.logger.debug(`resources/read ${String(request.params?.uri)}: ${changes.join('; ')}`);
    }
    return output;
  }

  /** `prompts/get`: the messages held to the prompt budgets. */
  private async getPrompt(request: AnyRequest, extra: Extra): Promise<Result> {
    const result = await this.forward(this.upstream?.client, request, extra, 'upstream');
    const { result: output, changes } = truncateGetPromptResult(result, {
      budget: this.options.promptBudget,
      recall: this.recall,
    });
    if (changes.length > 0) {
      this.options.logger.debug(`prompts/get ${String(request.params?.name)}: ${changes.join('; ')}`);
    }
    return output;
  }

  private async truncateResult(name: string, result: Result, extra: Extra): Promise<Result> {
    const { budget, tools, logger } = this.options;
    const callResult = result as CallToolResult;
    if (!Array.isArray(callResult.content) && callResult.structuredContent === undefined) return result;
    const validate =
      callResult.structuredContent === undefined ? undefined : await this.validatorFor(name, extra);
    const truncated = truncateCallToolResult(callResult, {
      budget: tools.get(name) ?? budget,
      recall: this.recall,
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
  private async validatorFor(name: string, extra: Extra) {
    const client = this.upstream?.client;
    if (!this.toolsKnown && client !== undefined) {
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

  /**
   * Whether a `url` upstream still answers (a ping). When it does not, the connection counts as lost:
   * the requests in flight are answered with an error and the session reconnects.
   */
  private checkUpstream(client: Client): Promise<'ok' | 'lost'> {
    if (!('url' in this.options.upstream) || this.closing) return Promise.resolve('ok');
    if (this.upstream?.client !== client)
      return Promise.resolve(this.reconnecting === undefined ? 'ok' : 'lost');
    // One check at a time: whoever asks while one runs gets its outcome.
    this.healthCheck ??= client
      .ping({ timeout: Math.min(HEALTH_CHECK_TIMEOUT, this.options.requestTimeout) })
      .then(
        () => 'ok' as const,
        (error: unknown) => {
          if (this.upstream?.client === client && !this.closing) {
            this.connectionLost(error instanceof Error ? error.message : String(error));
          }
          return 'lost' as const;
        },
      )
      .finally(() => {
        this.healthCheck = undefined;
      });
    return this.healthCheck;
  }

  /** A `url` upstream's connection is lost: fail what is in flight now, then reconnect with backoff. */
  private connectionLost(reason: string): void {
    const lost = this.upstream;
    if (lost === undefined || this.reconnecting !== undefined || this.closing) return;
    const { logger, reconnectAttempts } = this.options;
    if (reconnectAttempts === 0) {
      this.onUpstreamClosed(reason);
      return;
    }
    this.reconnecting = { attempt: 1, reason };
    this.upstream = undefined;
    logger.error(
      `The connection to the upstream MCP server "${lost.description}" was lost (${reason}); reconnecting`,
    );
    // Closing the client answers every request in flight with an error at once (the SDK fails them).
    void lost.client.close().catch(() => {});
    void this.reconnect(lost.description);
  }

  private async reconnect(description: string): Promise<void> {
    const { logger, reconnectAttempts, reconnectInitialDelay, reconnectMaxDelay } = this.options;
    let lastError: unknown;
    for (let attempt = 1; attempt <= reconnectAttempts; attempt++) {
      if (this.closing) return;
      this.reconnecting = { attempt, reason: this.reconnecting?.reason ?? 'connection lost' };
      const delay = Math.min(reconnectMaxDelay, reconnectInitialDelay * 2 ** (attempt - 1));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.connectAbort.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
      if (this.closing) return;
      try {
        const connection = await this.connectOnce(this.connectAbort.signal);
        if (this.closing) {
          await connection.client.close().catch(() => {});
          return;
        }
        this.upstream = connection;
        this.reconnecting = undefined;
        logger.error(`reconnected to ${description} (attempt ${attempt})`);
        await this.restoreUpstreamState(connection.client);
        return;
      } catch (error) {
        lastError = error;
        logger.debug(`reconnection attempt ${attempt} to ${description} failed: ${String(error)}`);
      }
    }
    this.reconnecting = undefined;
    this.upstreamGone = true;
    this.upstreamError = new UpstreamError({
      upstream: description,
      message: `The upstream MCP server "${description}" could not be reached again after ${reconnectAttempts} attempts`,
      cause: lastError,
    });
    logger.error(this.upstreamError.message);
    await this.finish({ reason: 'upstream-closed', error: this.upstreamError });
  }

  /** After a reconnection: the client's log level and subscriptions again, and list_changed for lists that may differ. */
  private async restoreUpstreamState(client: Client): Promise<void> {
    const { logger } = this.options;
    const replay = async (method: string, params: Record<string, unknown>) => {
      await client
        .request({ method, params } as never, ResultSchema, { timeout: this.options.requestTimeout })
        .catch((error: unknown) => logger.debug(`could not restore ${method} upstream: ${String(error)}`));
    };
    if (this.loggingLevel !== undefined) await replay('logging/setLevel', { level: this.loggingLevel });
    for (const uri of this.subscriptions) await replay('resources/subscribe', { uri });
    this.forgetTools();
    const capabilities = this.capabilities;
    for (const [capability, method] of [
      ['tools', 'notifications/tools/list_changed'],
      ['resources', 'notifications/resources/list_changed'],
      ['prompts', 'notifications/prompts/list_changed'],
    ] as const) {
      if (capabilities[capability] === undefined) continue;
      await this.server?.notification({ method }).catch(() => {});
    }
  }

  private onUpstreamClosed(reason?: string): void {
    if (this.closing || this.upstreamGone) return;
    const transport = this.upstream?.transport;
    const description = this.upstream?.description ?? describeUpstream(this.options.upstream);
    if (
      !(transport instanceof StdioUpstreamTransport) &&
      this.options.reconnectAttempts > 0 &&
      reason === undefined
    ) {
      // A url upstream whose transport closed on its own: reach it again.
      this.connectionLost('the connection closed');
      return;
    }
    this.upstreamGone = true;
    let how = reason === undefined ? 'closed the connection' : `could not be reached (${reason})`;
    let exitCode: number | undefined;
    let signal: string | undefined;
    if (transport instanceof StdioUpstreamTransport) {
      exitCode = transport.exitCode ?? undefined;
      signal = transport.exitSignal ?? undefined;
      how =
        signal !== undefined
          ? `was killed by ${signal}`
          : exitCode !== undefined
            ? `exited with code ${exitCode}`
            : 'closed its output';
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
    // An upstream still starting (or reconnecting) is stopped too, and the session ends only once it is.
    this.connectAbort.abort();
    await this.establishing;
    await this.upstream?.client.close().catch(() => {});
    // The client no longer closes a transport that closed on its own (a child that closed its stdout
    // but runs on): stop the child here.
    const transport = this.upstream?.transport;
    if (transport instanceof StdioUpstreamTransport) await transport.close().catch(() => {});
    if (this.server !== undefined) await this.server.close().catch(() => {});
    else await this.downstream.close().catch(() => {});
    if (this.recall !== undefined) this.recall.store.release(this.recall.owner);
    this.resolveEnded(end);
  }
}

const MAX_REMEMBERED_TASKS = 1000;

interface InitializeParams {
  protocolVersion: string;
  capabilities?: Record<string, unknown>;
  clientInfo: Implementation;
}

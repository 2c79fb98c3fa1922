import { AIMessage, type BaseMessage, isBaseMessage, type SystemMessage } from '@langchain/core/messages';
import {
  type CompactionEvent,
  type CompactionState,
  type Compactor,
  callWithOverflowRecovery,
  isContextOverflowError,
  type Message,
  type PrepareResult,
} from '@spillway/core';
import { keepAlive } from '../background/keep-alive';
import { bestState } from '../convert/state-matches';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { hasRecallTool } from '../recall/has-recall-tool';
import { COMPACTION_STATE_KEY } from './compaction-state-schema';
import { type RuntimeLike, threadConversationId } from './thread-conversation-id';
import { toModelRequest } from './to-model-request';
import { type ToolLike, toolDefinitionTokens } from './tool-definition-tokens';

/** The parts of `createAgent`'s model request this middleware reads and rewrites. */
export interface ModelRequestLike {
  messages: BaseMessage[];
  systemMessage?: SystemMessage | undefined;
  tools?: readonly unknown[];
  state: Record<string, unknown>;
  runtime?: unknown;
}

/** Options of {@link callModelWithCompaction}. */
export interface CallModelWithCompactionOptions<Request extends ModelRequestLike, Response> {
  request: Request;
  handler: (request: Request) => Response | Promise<Response>;
  compactor: Compactor;
  /** The model's context window (undefined: unknown; only overflow errors compact). */
  contextWindow: number | undefined;
  /** The model id: calibration key. */
  modelId: string | undefined;
  /** The provider (image counting, tool-result media), from the chat model. */
  provider: string | undefined;
  /** Retries after an overflow error. */
  maxOverflowRetries: number;
  /**
   * Called with each overflow error; returns the window to use from now on when the error states
   * the model's limit.
   */
  learnWindow?: (error: unknown) => number | undefined;
  /**
   * `strategy: 'provider'`: the model this call goes to with the provider's context management set
   * from the engine's thresholds, or `undefined` to compact locally.
   */
  delegate?: (messages: readonly Message[]) => unknown;
  /** Given the promise of the background work started after the call (the `waitUntil` option). */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** Where a `compaction-failed` event goes when `waitUntil` throws. */
  onEvent?: (event: CompactionEvent) => void;
}

/**
 * One model call of the agent, compacted: the request's messages (and system prompt) go through
 * the engine with the summary in force (the agent state's or a newer one in the store), the model
 * gets the compacted copy, its usage calibrates the estimator and may start a background summary
 * (handed to `waitUntil`), and an overflow error is compacted harder and retried up to `maxOverflowRetries` times.
 *
 * @throws {ContextOverflowError} before any model call when even the smallest prompt cannot fit;
 * when the model still refuses a prompt that cannot be made smaller (or the retries run out), with
 * the provider's error as `cause`. Other errors pass through untouched.
 */
export async function callModelWithCompaction<Request extends ModelRequestLike, Response>({
  request,
  handler,
  compactor,
  contextWindow,
  modelId,
  provider,
  maxOverflowRetries,
  learnWindow,
  delegate,
  waitUntil,
  onEvent = () => {},
}: CallModelWithCompactionOptions<Request, Response>): Promise<Response> {
  const { store } = compactor;
  const systemMessage = request.systemMessage;
  const hasSystem = systemMessage !== undefined && systemMessage.text !== '';
  const conversation = toNeutralMessages(request.messages);
  const neutral = hasSystem ? toNeutralMessages([systemMessage, ...request.messages]) : conversation;
  const conversationId = threadConversationId(
    (request.runtime as RuntimeLike | undefined)?.configurable?.thread_id,
    conversation,
  );

  // The agent state is the durable copy; the store may hold a newer one (a background summary).
  // A store that is down or holds something unreadable never fails the call (prepare reports it).
  const stored = await store.get(conversationId).catch(() => undefined);
  const chosen = bestState(conversation, [
    stored,
    request.state[COMPACTION_STATE_KEY] as CompactionState | undefined,
  ]);
  if (chosen !== undefined && chosen !== stored) await store.set(conversationId, chosen).catch(() => {});

  const overheadTokens = toolDefinitionTokens(request.tools as readonly ToolLike[], compactor.estimator);
  // The run's abort signal (`agent.invoke(…, { signal })`): it aborts a summary made for this call.
  const signal = (request.runtime as { signal?: unknown } | undefined)?.signal;
  const abortSignal = signal instanceof AbortSignal ? signal : undefined;
  const delegateModel = delegate?.(neutral);
  const prepareOptions = {
    conversationId,
    ...(delegateModel === undefined ? {} : { delegated: true }),
    overheadTokens,
    ...(modelId === undefined ? {} : { model: modelId }),
    ...(provider === undefined ? {} : { provider }),
    ...(contextWindow === undefined ? {} : { contextWindow }),
    // The read-back line goes in only when the model has the read-back tool.
    recallTool: hasRecallTool(request.tools),
  };

  const callModel = async (prepared: PrepareResult) => {
    const { system, messages } = toModelRequest(prepared.messages, hasSystem ? systemMessage : undefined);
    try {
      return await handler({
        ...request,
        ...(delegateModel === undefined ? {} : { model: delegateModel }),
        messages,
        // Only the system message changes: LangChain compares `systemPrompt` with the system
        // message this middleware received, on every call of the handler (retries included).
        ...(system === undefined ? {} : { systemMessage: system }),
      });
    } catch (error) {
      // A stated limit is remembered for the next calls of this model (the engine learns it too).
      if (isContextOverflowError(error)) learnWindow?.(error);
      throw error;
    }
  };
  // The shared recovery of every adapter: compact harder on "too long", never send the same
  // prompt twice, then ContextOverflowError with the provider's error as cause.
  const { result: response, prepared } = await callWithOverflowRecovery({
    compactor,
    messages: neutral,
    prepareOptions,
    prepared: await compactor.prepare(neutral, {
      ...prepareOptions,
      ...(abortSignal ? { abortSignal } : {}),
    }),
    send: callModel,
    maxRetries: maxOverflowRetries,
    ...(abortSignal ? { abortSignal } : {}),
  });
  const usage = AIMessage.isInstance(response) ? response.usage_metadata : undefined;
  // An inner middleware may answer with a `Command` instead of a message.
  const answer = isBaseMessage(response) ? toNeutralMessages([...request.messages, response]).slice(-1) : [];
  const work = compactor.afterResponse([...neutral, ...answer], {
    ...prepareOptions,
    ...(usage?.input_tokens === undefined
      ? {}
      : { inputTokens: usage.input_tokens, estimatedTokens: prepared.estimatedTokens }),
    ...(usage?.output_tokens === undefined ? {} : { responseTokens: usage.output_tokens }),
  });
  keepAlive(work, { waitUntil, conversationId, onEvent });
  return response;
}

import { callWithOverflowRecovery } from '@spillway/core';
import type { MiddlewareRuntime } from '../middleware/middleware-runtime';
import { buildPrompt } from '../prompt/build-prompt';
import type { CallContext } from './call-context';
import type { CallParamsLike } from './call-params-like';
import { reportContextUsage } from './report-context-usage';

/**
 * Makes the call; when the provider answers "context too long" (thrown, or as the first event of
 * a stream), compacts harder and calls again with the new prompt, through the core's shared
 * recovery (never the same prompt twice, at most `maxOverflowRetries` retries).
 */
export function callWithRecovery<Params extends CallParamsLike, Result>(
  runtime: MiddlewareRuntime,
  context: CallContext,
  params: Params,
  first: () => PromiseLike<Result>,
  call: (params: Params) => PromiseLike<Result>,
) {
  const { compactor, emit, maxOverflowRetries } = runtime;
  return callWithOverflowRecovery({
    compactor,
    messages: context.messages,
    prepareOptions: context.prepareOptions,
    prepared: context.prepared,
    maxRetries: maxOverflowRetries,
    ...(params.abortSignal === undefined ? {} : { abortSignal: params.abortSignal }),
    send: (prepared, attempt) =>
      attempt === 0 ? first() : call({ ...params, prompt: buildPrompt(prepared.messages, context) }),
    onRetry: (prepared, attempt) => reportContextUsage(runtime, context, prepared, attempt),
    onCompactionError: (error) =>
      emit({
        type: 'compaction-failed',
        conversationId: context.conversationId,
        reason: 'overflow',
        error,
        fallback: 'none',
      }),
  });
}

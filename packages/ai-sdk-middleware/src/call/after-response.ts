import type { PrepareResult } from '@spillway/core';
import type { MiddlewareRuntime } from '../middleware/middleware-runtime';
import type { CallContext } from './call-context';
import { readUsage } from './read-usage';

/**
 * After a completed response (for a stream, inside its `flush`): calibrates from the usage and
 * starts background compaction when the conversation is over the background threshold, handing
 * the work to `waitUntil`. Never throws: the response is complete, compaction must not turn it
 * into a failure (an error becomes a `compaction-failed` event).
 */
export function afterResponse(
  { compactor, emit, waitUntil }: Pick<MiddlewareRuntime, 'compactor' | 'emit' | 'waitUntil'>,
  context: CallContext,
  prepared: PrepareResult,
  usage: unknown,
  turnFinished: boolean,
): void {
  try {
    const { inputTokens, outputTokens } = readUsage(usage);
    const work = compactor.afterResponse(context.messages, {
      ...context.prepareOptions,
      inputTokens,
      estimatedTokens: prepared.estimatedTokens,
      responseTokens: outputTokens ?? 0,
      turnFinished,
    });
    waitUntil?.(work);
  } catch (error) {
    emit({
      type: 'compaction-failed',
      conversationId: context.conversationId,
      reason: 'background',
      error,
      fallback: 'none',
    });
  }
}

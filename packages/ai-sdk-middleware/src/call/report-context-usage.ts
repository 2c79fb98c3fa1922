import type { PrepareResult } from '@spillway/core';
import type { MiddlewareRuntime } from '../middleware/middleware-runtime';
import type { CallContext } from './call-context';

/**
 * Tells `onContextUsage` how full the context is for a call about to go down: the conversation as
 * the application holds it and as sent, and what was done (the storage-time cap, which runs while
 * converting the prompt, is reported like the engine's steps). Never throws.
 */
export function reportContextUsage(
  { compactor, onContextUsage }: Pick<MiddlewareRuntime, 'compactor' | 'onContextUsage'>,
  context: CallContext,
  prepared: PrepareResult,
  overflowAttempt: number,
): void {
  if (onContextUsage === undefined) return;
  try {
    const { estimator } = compactor;
    const uncapped = estimator.countMessages(context.uncapped) + context.overheadTokens;
    const capSaved =
      context.uncapped === context.messages
        ? 0
        : estimator.calibrated(
            estimator.countMessages(context.uncapped) - estimator.countMessages(context.messages),
            context.modelId,
          );
    const capped = capSaved > 0 && !prepared.actions.includes('cap-tool-results');
    onContextUsage({
      conversationId: context.conversationId,
      contextWindow: context.contextWindow,
      tokensBefore: estimator.calibrated(uncapped, context.modelId),
      tokensAfter: prepared.tokensAfter,
      actions: capped ? ['cap-tool-results', ...prepared.actions] : prepared.actions,
      savings: capped ? { 'cap-tool-results': Math.round(capSaved), ...prepared.savings } : prepared.savings,
      overflowAttempt,
    });
  } catch {
    // A listener must never break a request.
  }
}

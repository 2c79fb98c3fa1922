import { fromNeutralMessages, repairPrompt, type SdkMessage } from '@spillway/ai-sdk-prompt';
import type { Message } from '@spillway/core';
import type { CallContext } from '../call/call-context';

/**
 * The SDK prompt for compacted neutral messages: unchanged messages as the caller's own objects,
 * the rest re-encoded for the call's prompt version, then repaired against the original prompt.
 */
export function buildPrompt(
  messages: readonly Message[],
  context: Pick<CallContext, 'version' | 'current' | 'original'>,
): SdkMessage[] {
  return repairPrompt(
    fromNeutralMessages(messages, { version: context.version, current: context.current() }),
    context.original,
  );
}

import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { keepAlive } from '../background/keep-alive';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { historyConversationId } from './history-conversation-id';
import type { HistoryRuntime } from './history-runtime';
import { inputReserve } from './input-reserve';

/**
 * After an AI message was stored: calibrates from its `usage_metadata` against what the model was
 * sent (the last view, `view`, plus this turn's input) and starts a background summary when the
 * conversation is over the background threshold. Does not wait for the summary: its promise goes
 * to `waitUntil`, when given.
 */
export async function summarizeAfterResponse(
  runtime: HistoryRuntime,
  { stored, view }: { stored: readonly BaseMessage[]; view: { viewTokens: number } | undefined },
): Promise<void> {
  const last = stored[stored.length - 1];
  if (last === undefined || !AIMessage.isInstance(last)) return;
  const { compactor, contextWindow } = runtime;
  const all = toNeutralMessages(await runtime.history.getMessages());
  const usage = last.usage_metadata;
  // What the model was sent, as far as this history knows: the view and this turn's input (the
  // template's text is not known, so calibration errs towards counting high, the safe side).
  const inputMessages = stored.filter((message) => !AIMessage.isInstance(message));
  const estimatedTokens =
    view === undefined
      ? undefined
      : view.viewTokens + compactor.estimator.countMessages(toNeutralMessages(inputMessages));
  const conversationId = historyConversationId(runtime.conversationId, all);
  const work = compactor.afterResponse(all, {
    conversationId,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    overheadTokens: runtime.templateTokens + inputReserve(runtime, all),
    // The next view is made from the stored history before the prompt adds its input: the turn
    // just answered is still that view's last turn, kept whole. A summary covering it (what a
    // finished turn allows) could not be applied to it.
    turnFinished: false,
    ...(usage?.input_tokens === undefined || estimatedTokens === undefined
      ? {}
      : { inputTokens: usage.input_tokens, estimatedTokens }),
  });
  keepAlive(work, { waitUntil: runtime.waitUntil, conversationId, onEvent: runtime.handleEvent });
}

import type { BaseMessage } from '@langchain/core/messages';
import { type Message, restoreArchivedOriginals } from '@spillway/core';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { toPromptMessages } from '../convert/to-prompt-messages';
import { dropToFit } from './drop-to-fit';
import { historyConversationId } from './history-conversation-id';
import type { HistoryRuntime } from './history-runtime';
import { viewSpanRef } from './view-span-ref';

/** A compacted view, and its raw estimate (no overhead), for calibration. */
export interface CompactedView {
  messages: BaseMessage[];
  viewTokens: number;
}

/**
 * The view a prompt is built from, with `overhead` raw tokens next to it (the template and the
 * input): the engine's request (summary in place of the covered prefix, large tool results
 * shortened, each cut naming the original: archived originals stand in for their stored copies), then, when even that is over the compact threshold next to the overhead, the oldest
 * messages dropped from the view (`dropToFit`: its note names them, `[ref=s.…]`, and an
 * `emergency-truncation` event is sent), then shaped
 * for every chat integration (`toPromptMessages`).
 */
export async function compactedView(
  runtime: HistoryRuntime,
  messages: readonly Message[],
  overhead: number,
  signal: AbortSignal | undefined,
): Promise<CompactedView> {
  if (messages.length === 0) return { messages: [], viewTokens: 0 };
  const { compactor, contextWindow, modelName } = runtime;
  const conversationId = historyConversationId(runtime.conversationId, messages);
  // A cut made now names the original (one hop), not the stored cut copy.
  const originals = await restoreArchivedOriginals({ messages, archive: runtime.archive, conversationId });
  const prepared = await compactor.prepare(messages, {
    conversationId,
    ...(originals === messages ? {} : { originals }),
    overheadTokens: overhead,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(modelName === undefined ? {} : { model: modelName }),
    ...(signal === undefined ? {} : { abortSignal: signal }),
  });
  let compacted = prepared.messages;
  const { estimator } = compactor;
  if (contextWindow !== undefined) {
    // The engine keeps the newest group of what it is given; next to a large input, even that may
    // have to leave the view.
    const countTokens = (list: readonly Message[]) =>
      estimator.calibrated(estimator.countMessages(list) + overhead, modelName);
    const tokensBefore = countTokens(compacted);
    const fitted = dropToFit(compacted, {
      budgetTokens: contextWindow * runtime.compactRatio,
      countTokens,
      spanRef: viewSpanRef({ stored: messages, originals, secret: runtime.recallSecret }),
    });
    if (fitted.droppedCount > 0) {
      compacted = fitted.messages;
      runtime.handleEvent({
        type: 'emergency-truncation',
        conversationId,
        droppedCount: fitted.droppedCount,
        tokensBefore,
        tokensAfter: countTokens(compacted),
      });
    }
  }
  const view = toPromptMessages(compacted);
  return { messages: view, viewTokens: estimator.countMessages(toNeutralMessages(view)) };
}

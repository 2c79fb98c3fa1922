import type { BaseMessage } from '@langchain/core/messages';
import {
  capToolResults,
  createRecallMarks,
  createRecallScope,
  restoreArchivedOriginals,
  toolResultTexts,
} from '@spillway/core';
import { fromNeutralMessages } from '../convert/from-neutral-messages';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { historyConversationId } from './history-conversation-id';
import type { HistoryRuntime } from './history-runtime';

/**
 * The messages as stored: tool results capped. With references on, each cut names its original
 * (`[ref=…]`), and the original is archived first (it exists nowhere else), under the
 * conversation's key as it will read once stored (derived keys come from the stored, capped
 * messages, so reading finds them whatever the conversation opens with).
 */
export async function capForStorage(
  runtime: HistoryRuntime,
  messages: readonly BaseMessage[],
): Promise<BaseMessage[]> {
  const neutral = toNeutralMessages(messages);
  const caps = { maxChars: runtime.toolResultMaxChars, limits: runtime.toolResultLimits };
  const plain = capToolResults(neutral, caps);
  if (plain.records.length === 0) return [...messages];
  const { archive, recallSecret } = runtime;
  if (archive === undefined || recallSecret === undefined) return fromNeutralMessages(plain.messages);
  const stored = toNeutralMessages(await runtime.history.getMessages());
  const storedId = historyConversationId(runtime.conversationId, stored);
  // References are made over the conversation as it was before any cap, as the view and the
  // read-back tool see it (archived originals in place of their copies).
  const before = await restoreArchivedOriginals({ messages: stored, archive, conversationId: storedId });
  const scope = createRecallScope({ messages: [...before, ...neutral], secret: recallSecret });
  // At storage time the result is its own original.
  const marks = createRecallMarks({ scope, originals: [] });
  const capped = fromNeutralMessages(capToolResults(neutral, { ...caps, marks }).messages);
  const conversationId = historyConversationId(runtime.conversationId, [
    ...stored,
    ...toNeutralMessages(capped),
  ]);
  runtime.archivedFor.add(conversationId);
  for (const record of plain.records) {
    const part = neutral[record.messageIndex]?.content;
    if (!Array.isArray(part)) continue;
    for (const item of part) {
      if (item?.type !== 'tool-result' || item.toolCallId !== record.toolCallId) continue;
      const texts = toolResultTexts(item);
      for (let index = 0; index < texts.length; index++) {
        const ref = marks.toolResult(item, index);
        if (ref !== undefined && texts[index]!.length > 0) {
          await archive.put(conversationId, { ref, text: texts[index]! });
        }
      }
    }
  }
  return capped;
}

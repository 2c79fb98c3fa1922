import type { Message, MessagePart, TextPart, ToolResultContentPart } from '../message/message';
import { RECALL_ANNOUNCEMENT } from '../recall/recall-announcement';
import { COLLAPSED_HEADER } from '../structure/collapse-exchanges';
import { FOLDED_TOOLS_HEADER } from '../structure/fold-tool-steps';

/**
 * The request with the read-back line after its first cut, when neither a summary nor a note carries
 * it already: appended to the first tool result, placeholder, folded turn or condensed exchanges
 * that shows a reference (a history with every turn folded has no tool result left). The same cut
 * gets the same line on every call.
 */
export function announceAfterFirstCut(messages: Message[]): Message[] {
  for (const message of messages) {
    if (typeof message.content === 'string' && message.content.endsWith(RECALL_ANNOUNCEMENT)) return messages;
  }
  for (let index = 0; index < messages.length; index++) {
    const announced = withAnnouncement(messages[index]!);
    if (announced === undefined) continue;
    const output = messages.slice();
    output[index] = announced;
    return output;
  }
  return messages;
}

const SHOWS_REF = /\[ref=[tis]\.[A-Za-z0-9.-]+(?: offset=\d+)?\]/;

function showsRef(text: string): boolean {
  return text.includes('[ref=') && SHOWS_REF.test(text);
}

/** A text the engine wrote in place of what it cut: a placeholder, a folded turn, condensed exchanges. */
function isEngineText(text: string): boolean {
  return (
    /^\[(?:image|file)\b/.test(text) ||
    text.startsWith(FOLDED_TOOLS_HEADER) ||
    text.startsWith(COLLAPSED_HEADER)
  );
}

/** The message with the read-back line after its first reference, or `undefined` when it shows none. */
function withAnnouncement(message: Message): Message | undefined {
  if (!Array.isArray(message.content)) return undefined;
  const line = `\n\n${RECALL_ANNOUNCEMENT}`;
  for (let index = 0; index < message.content.length; index++) {
    const part: MessagePart = message.content[index]!;
    let replaced: MessagePart | undefined;
    if (part.type === 'text' && isEngineText(part.text) && showsRef(part.text)) {
      replaced = { ...part, text: part.text + line };
    } else if (part.type === 'tool-result') {
      if (typeof part.content === 'string') {
        if (showsRef(part.content)) replaced = { ...part, content: part.content + line };
      } else if (Array.isArray(part.content)) {
        const at = part.content.findIndex(
          (item: ToolResultContentPart) => item?.type === 'text' && showsRef(item.text),
        );
        if (at !== -1) {
          const items = part.content.slice();
          const item = items[at] as TextPart;
          items[at] = { ...item, text: item.text + line };
          replaced = { ...part, content: items };
        }
      }
    }
    if (replaced === undefined) continue;
    const content = message.content.slice();
    content[index] = replaced;
    return { ...message, content };
  }
  return undefined;
}

import { type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { CONTINUATION_TEXT, type Message } from '@spillway/core';
import { fromNeutralMessages } from './from-neutral-messages';
import { SOURCE_MESSAGE, type SourcedMessage } from './to-neutral-messages';

/** Whether the engine made `message` (the summary, a drop note, a continuation turn). */
export function isEngineMessage(message: Message): boolean {
  return (message as SourcedMessage)[SOURCE_MESSAGE] === undefined;
}

/**
 * LangChain messages for a prompt, from the engine's compacted list, shaped so every major chat
 * integration accepts them: the user messages the engine put at the head (a summary placed as a
 * user turn, an emergency note, a continuation turn) fold into the first user message of the
 * conversation, so no two user turns follow each other (Bedrock's Converse API requires roles to
 * alternate; Anthropic and Google want the conversation to open with the user). When the
 * conversation's first kept message is not the user's, they become one user message before it.
 * When no conversation message is left, they are dropped: a lone user turn before the next input
 * would break the alternation. Engine system messages (placement `system`) and the conversation's
 * own messages are left as they are; untouched messages are the caller's objects.
 */
export function toPromptMessages(compacted: readonly Message[]): BaseMessage[] {
  const converted = fromNeutralMessages(compacted);
  const engineTexts: string[] = [];
  const output: BaseMessage[] = [];
  let folding = true;
  for (let index = 0; index < compacted.length; index++) {
    const neutral = compacted[index]!;
    const message = converted[index]!;
    if (!folding) {
      output.push(message);
      continue;
    }
    if (isEngineMessage(neutral) && neutral.role === 'user') {
      engineTexts.push(message.text);
      continue;
    }
    if (neutral.role === 'system') {
      output.push(message);
      continue;
    }
    // The first conversation message: the engine's user text goes into it, or just before it.
    folding = false;
    if (engineTexts.length === 0) output.push(message);
    else if (neutral.role === 'user' && HumanMessage.isInstance(message)) {
      output.push(prefixed(message, engineTexts));
    } else {
      output.push(new HumanMessage(engineTexts.join('\n\n')), message);
    }
  }
  return output;
}

/** A copy of `message` (same id, name, metadata) whose content starts with the engine's text. */
function prefixed(message: HumanMessage, engineTexts: readonly string[]): HumanMessage {
  const head = `${engineTexts.join('\n\n')}\n\n${CONTINUATION_TEXT}`;
  const content: HumanMessage['content'] =
    typeof message.content === 'string'
      ? `${head}\n\n${message.content}`
      : [{ type: 'text', text: head }, ...message.content];
  return new HumanMessage({
    content,
    ...(message.id === undefined ? {} : { id: message.id }),
    ...(message.name === undefined ? {} : { name: message.name }),
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  });
}

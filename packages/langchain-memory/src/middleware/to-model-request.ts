import { type BaseMessage, SystemMessage } from '@langchain/core/messages';
import type { Message } from '@spillway/core';
import { toPromptMessages } from '../convert/to-prompt-messages';

/** The parts of a `createAgent` model request this middleware rewrites. */
export interface ModelRequestMessages {
  /** The new system message; undefined when it is the original one, unchanged. */
  system: SystemMessage | undefined;
  messages: BaseMessage[];
}

/**
 * The request's system message and messages from the engine's compacted list. Leading system
 * messages (the summary, the original system prompt) merge into one system message, summary first,
 * so the model gets exactly one system message, first (what Anthropic, Google and Bedrock accept);
 * user turns the engine added (a summary placed as a user turn, an emergency note) fold into the
 * first user message, so roles still alternate. `system` is undefined when it is the original
 * system message unchanged.
 */
export function toModelRequest(
  compacted: readonly Message[],
  original: SystemMessage | undefined,
): ModelRequestMessages {
  const converted = toPromptMessages(compacted);
  let leading = 0;
  while (leading < converted.length && SystemMessage.isInstance(converted[leading]!)) leading++;
  // Without an original system prompt, the agent's messages never start with a system message of
  // their own, so every leading one is the engine's.
  const head = converted.slice(0, leading) as SystemMessage[];
  const messages = converted.slice(leading);
  if (head.length === 0) return { system: undefined, messages };
  if (head.length === 1 && head[0] === original) return { system: undefined, messages };
  const blocks: Record<string, unknown>[] = [];
  const texts: string[] = [];
  let plain = true;
  for (const message of head) {
    if (typeof message.content === 'string') {
      blocks.push({ type: 'text', text: message.content });
      texts.push(message.content);
    } else {
      plain = false;
      blocks.push(...(message.content as Record<string, unknown>[]));
    }
  }
  const base = original ?? head[head.length - 1]!;
  return {
    system: new SystemMessage({
      content: plain ? texts.join('\n\n') : (blocks as SystemMessage['content']),
      ...(base.id === undefined ? {} : { id: base.id }),
      additional_kwargs: base.additional_kwargs,
      response_metadata: base.response_metadata,
    }),
    messages,
  };
}

import {
  AIMessage,
  type BaseMessage,
  ChatMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import type { Message, MessagePart, MessageRole, ToolResultContentPart } from '@spillway/core';
import { contentBlockToPart } from './content-block-to-part';

/** The LangChain message a neutral message was made from (kept on copies the engine makes). */
export const SOURCE_MESSAGE = Symbol.for('spillway.langchain.source-message');

/** A neutral message that remembers its LangChain original. */
export type SourcedMessage = Message & { readonly [SOURCE_MESSAGE]?: BaseMessage };

const pristine = new WeakSet<object>();
const memo = new WeakMap<BaseMessage, Message>();

/** Whether `message` is exactly what {@link toNeutralMessages} made (the engine did not change it). */
export function isPristine(message: Message): boolean {
  return pristine.has(message);
}

/**
 * Converts LangChain messages to the neutral model. Tool calls keep their ids; calls without an id
 * get a positional one (counted without system messages), and a `ToolMessage` without a `tool_call_id` is paired with the oldest
 * unanswered id-less call before it, so the engine never separates them. `ToolMessage` content may
 * be a string or content blocks; `status: 'error'` marks the result as an error. Conversion is
 * deterministic (the compaction state's hash depends on it) and memoised per message object.
 */
export function toNeutralMessages(messages: readonly BaseMessage[]): Message[] {
  const toolNames = new Map<string, string>();
  let pendingAnonymous: { id: string; name: string }[] = [];
  // Positions count conversation messages only, so ids do not move when a system prompt is added.
  let position = -1;
  return messages.map((message) => {
    if (!SystemMessage.isInstance(message)) position++;
    const index = position;
    if (AIMessage.isInstance(message)) {
      const calls = message.tool_calls ?? [];
      const anonymous = calls.some((call) => !call.id);
      if (anonymous) pendingAnonymous = [];
      calls.forEach((call, callIndex) => {
        const id = call.id || `spillway-call-${index}-${callIndex}`;
        toolNames.set(id, call.name);
        if (!call.id) pendingAnonymous.push({ id, name: call.name });
      });
      if (anonymous) return convertAssistant(message, index);
    }
    if (ToolMessage.isInstance(message) && !message.tool_call_id) {
      const matchIndex = pendingAnonymous.findIndex((call) => !message.name || call.name === message.name);
      const match = matchIndex >= 0 ? pendingAnonymous.splice(matchIndex, 1)[0] : undefined;
      return convertTool(message, match?.id ?? `spillway-result-${index}`, match?.name);
    }
    const cached = memo.get(message);
    if (cached !== undefined) return cached;
    let converted: Message;
    if (AIMessage.isInstance(message)) converted = convertAssistant(message, index);
    else if (ToolMessage.isInstance(message)) {
      converted = convertTool(message, message.tool_call_id, toolNames.get(message.tool_call_id));
    } else converted = sourced({ role: roleOf(message), content: convertContent(message.content) }, message);
    memo.set(message, converted);
    return converted;
  });
}

function convertAssistant(message: AIMessage, index: number): Message {
  const content = convertContent(message.content);
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return sourced({ role: 'assistant', content }, message);
  const parts: MessagePart[] =
    typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : [...content];
  calls.forEach((call, callIndex) => {
    parts.push({
      type: 'tool-call',
      toolCallId: call.id || `spillway-call-${index}-${callIndex}`,
      toolName: call.name,
      input: call.args,
    });
  });
  return sourced({ role: 'assistant', content: parts }, message);
}

function convertTool(message: ToolMessage, toolCallId: string, callName: string | undefined): Message {
  const raw = message.content;
  const content: string | ToolResultContentPart[] =
    typeof raw === 'string' ? raw : (raw as readonly unknown[]).map((block) => contentBlockToPart(block));
  return sourced(
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: message.name ?? callName ?? 'tool',
          content,
          ...(message.status === 'error' ? { isError: true } : {}),
        },
      ],
    },
    message,
  );
}

function convertContent(content: BaseMessage['content']): string | MessagePart[] {
  if (typeof content === 'string') return content;
  return (content as readonly unknown[]).map((block) => contentBlockToPart(block));
}

function roleOf(message: BaseMessage): MessageRole {
  if (SystemMessage.isInstance(message)) return 'system';
  if (ChatMessage.isInstance(message)) {
    const role = message.role;
    if (role === 'system' || role === 'developer') return 'system';
    if (role === 'assistant' || role === 'ai') return 'assistant';
    return 'user';
  }
  const type = message.type as string;
  if (type === 'system' || type === 'developer') return 'system';
  if (type === 'ai') return 'assistant';
  return 'user';
}

function sourced(message: Message, source: BaseMessage): Message {
  const result: SourcedMessage = { ...message, [SOURCE_MESSAGE]: source };
  pristine.add(result);
  return result;
}

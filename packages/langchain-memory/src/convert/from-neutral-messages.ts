import {
  AIMessage,
  type BaseMessage,
  ChatMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import type { Message, MessagePart, ToolResultPart } from '@spillway/core';
import { partToContentBlock } from './part-to-content-block';
import { isPristine, SOURCE_MESSAGE, type SourcedMessage } from './to-neutral-messages';

/**
 * Converts neutral messages back to LangChain messages. A message the engine did not change is the
 * caller's original object; a changed one is a copy of its original (same class, id, name, tool
 * call id, status, artifact, metadata) with only the content re-encoded; a message the engine made
 * (the summary, a truncation note) becomes a `SystemMessage` or `HumanMessage`.
 */
export function fromNeutralMessages(messages: readonly Message[]): BaseMessage[] {
  return messages.map(fromNeutralMessage);
}

/** {@link fromNeutralMessages} for one message. */
export function fromNeutralMessage(message: Message): BaseMessage {
  const source = (message as SourcedMessage)[SOURCE_MESSAGE];
  if (source !== undefined && isPristine(message)) return source;
  if (source !== undefined) return rebuild(source, message);
  return create(message);
}

type Content = string | Record<string, unknown>[];

function encodeContent(content: Message['content']): Content {
  if (typeof content === 'string') return content;
  return content
    .filter((part) => part.type !== 'tool-call' && part.type !== 'tool-result')
    .map((part) => partToContentBlock(part));
}

function toolResultOf(message: Message): ToolResultPart | undefined {
  if (typeof message.content === 'string') return undefined;
  return message.content.find((part: MessagePart): part is ToolResultPart => part.type === 'tool-result');
}

function encodeToolResult(message: Message): Content {
  const result = toolResultOf(message);
  if (result === undefined) return encodeContent(message.content);
  return typeof result.content === 'string'
    ? result.content
    : result.content.map((part) => partToContentBlock(part));
}

function common(source: BaseMessage) {
  return {
    id: source.id,
    name: source.name,
    additional_kwargs: source.additional_kwargs,
    response_metadata: source.response_metadata,
  };
}

function rebuild(source: BaseMessage, message: Message): BaseMessage {
  if (ToolMessage.isInstance(source)) {
    return new ToolMessage({
      ...common(source),
      content: encodeToolResult(message) as ToolMessage['content'],
      tool_call_id: source.tool_call_id,
      artifact: source.artifact,
      status: source.status,
      metadata: source.metadata,
    });
  }
  const content = encodeContent(message.content) as BaseMessage['content'];
  if (AIMessage.isInstance(source)) {
    return new AIMessage({
      ...common(source),
      content,
      tool_calls: source.tool_calls,
      invalid_tool_calls: source.invalid_tool_calls,
      usage_metadata: source.usage_metadata,
    });
  }
  if (HumanMessage.isInstance(source)) return new HumanMessage({ ...common(source), content });
  if (SystemMessage.isInstance(source)) return new SystemMessage({ ...common(source), content });
  if (ChatMessage.isInstance(source))
    return new ChatMessage({ ...common(source), content, role: source.role });
  // An unknown message class: a copy of the same class with the new content.
  const copy = Object.assign(Object.create(Object.getPrototypeOf(source)), source) as BaseMessage;
  copy.content = content;
  return copy;
}

function create(message: Message): BaseMessage {
  const content = encodeContent(message.content) as BaseMessage['content'];
  switch (message.role) {
    case 'system':
      return new SystemMessage({ content });
    case 'assistant':
      return new AIMessage({ content });
    case 'tool': {
      const result = toolResultOf(message);
      return new ToolMessage({
        content: encodeToolResult(message) as ToolMessage['content'],
        tool_call_id: result?.toolCallId ?? '',
        ...(result?.toolName === undefined ? {} : { name: result.toolName }),
        ...(result?.isError ? { status: 'error' as const } : {}),
      });
    }
    default:
      return new HumanMessage({ content });
  }
}

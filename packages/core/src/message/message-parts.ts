import type {
  Message,
  MessagePart,
  TextPart,
  ToolCallPart,
  ToolResultContentPart,
  ToolResultPart,
} from './message';

/** The parts of a message, reading string content as one text part. */
export function messageParts(message: Message): readonly MessagePart[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** The parts of a tool result, reading string content as one text part. */
export function toolResultParts(result: ToolResultPart): readonly ToolResultContentPart[] {
  return typeof result.content === 'string' ? [{ type: 'text', text: result.content }] : result.content;
}

/** The tool calls a message makes, in order. */
export function toolCallsOf(message: Message): ToolCallPart[] {
  if (typeof message.content === 'string') return [];
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/** The tool results a message carries, in order. */
export function toolResultsOf(message: Message): ToolResultPart[] {
  if (typeof message.content === 'string') return [];
  return message.content.filter((part): part is ToolResultPart => part.type === 'tool-result');
}

/** All plain text of a message (text parts only), joined by newlines. */
export function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** All plain text of a tool result (text parts only), joined by newlines. */
export function toolResultText(result: ToolResultPart): string {
  if (typeof result.content === 'string') return result.content;
  return result.content
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

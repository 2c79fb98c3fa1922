import type { Message, MessagePart, ToolResultContentPart, ToolResultPart } from '../message/message';
import { messageParts, toolResultParts } from '../message/message-parts';
import { imagePlaceholder } from '../truncate/image-placeholder';
import { truncateText } from '../truncate/truncate-text';

/** Options of {@link renderTranscript}. */
export interface RenderTranscriptOptions {
  /**
   * Longest a tool result may be in the transcript, in characters (head and tail kept).
   * @default 2000
   */
  maxToolResultChars?: number;
  /**
   * Longest a tool call's arguments may be, in characters.
   * @default 500
   */
  maxToolInputChars?: number;
  /**
   * Longest any one message may be, in characters (head and tail kept).
   * @default 8000
   */
  maxMessageChars?: number;
}

const ROLE_LABELS = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool' } as const;

/**
 * Renders messages as a plain-text transcript for a summarizer: role labels, tool calls as
 * `name(arguments)`, tool results shortened (results matter, mechanics do not), images and files as
 * placeholders, reasoning left out. One block per message, separated by blank lines.
 */
export function renderTranscript(
  messages: readonly Message[],
  options: RenderTranscriptOptions = {},
): string {
  return messages
    .map((message) => renderMessage(message, options))
    .filter((block) => block !== '')
    .join('\n\n');
}

/** One message of {@link renderTranscript}; empty when the message has nothing to show. */
export function renderMessage(
  message: Message,
  {
    maxToolResultChars = 2000,
    maxToolInputChars = 500,
    maxMessageChars = 8000,
  }: RenderTranscriptOptions = {},
): string {
  const label = ROLE_LABELS[message.role];
  const lines: string[] = [];
  const texts: string[] = [];
  const flushText = () => {
    if (texts.length > 0) lines.push(`${label}: ${texts.join('\n')}`);
    texts.length = 0;
  };
  for (const part of messageParts(message)) {
    const inline = renderInline(part);
    if (inline !== undefined) {
      if (inline !== '') texts.push(inline);
      continue;
    }
    flushText();
    if (part.type === 'tool-call') {
      lines.push(
        `${label} called ${part.toolName}(${truncateText(json(part.input), { maxChars: maxToolInputChars })})`,
      );
    } else if (part.type === 'tool-result') {
      lines.push(renderToolResult(part, maxToolResultChars));
    }
  }
  flushText();
  return truncateText(lines.join('\n'), { maxChars: maxMessageChars });
}

/** Text for parts that read as part of the message's prose; undefined for tool calls/results. */
function renderInline(part: MessagePart): string | undefined {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'reasoning':
      return '';
    case 'image':
      return imagePlaceholder(part);
    case 'file':
      return filePlaceholder(part);
    case 'opaque':
      return part.text ?? '';
    default:
      return undefined;
  }
}

function renderToolResult(result: ToolResultPart, maxChars: number): string {
  const body = toolResultParts(result)
    .map((part: ToolResultContentPart) => renderInline(part) ?? '')
    .filter((text) => text !== '')
    .join('\n');
  const heading = result.isError ? `Tool error (${result.toolName})` : `Tool result (${result.toolName})`;
  return `${heading}: ${truncateText(body, { maxChars })}`;
}

function filePlaceholder(part: { filename?: string; mediaType?: string }): string {
  const description = [part.filename, part.mediaType].filter(Boolean).join(', ');
  return description === '' ? '[file]' : `[file: ${description}]`;
}

function json(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

import type { Result } from '../sdk/mcp-sdk';
import { type ContentBlock, type TruncateContentOptions, truncateContent } from './truncate-content';

/** Options of {@link truncateGetPromptResult}. */
export type TruncateGetPromptResultOptions = Omit<
  TruncateContentOptions,
  'structuredContent' | 'subject' | 'validateStructuredContent'
>;

interface PromptMessage {
  role: string;
  content: ContentBlock;
  [key: string]: unknown;
}

/**
 * Keeps one `prompts/get` result within the prompt budgets, with the rules of tool results: the
 * messages' contents share the token budget (text, embedded text resources), images, audio and blobs
 * beyond the media budget become text placeholders; a message keeps its role (and other fields).
 * Messages folded into a note disappear (the note takes the first one's place and role). Returns the
 * same object when everything fits; never mutates its input.
 */
export function truncateGetPromptResult(
  result: Result,
  options: TruncateGetPromptResultOptions,
): { result: Result; changes: readonly string[] } {
  const messages = (result as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return { result, changes: [] };
  const source = messages.map((message) =>
    isPromptMessage(message) ? message.content : ({ type: 'unknown' } as unknown as ContentBlock),
  );
  const { blocks, changes } = truncateContent(source, { ...options, subject: 'prompt' });
  if (blocks === source) return { result, changes };
  const output: unknown[] = [];
  blocks.forEach((block, index) => {
    const message = messages[index] as PromptMessage;
    if (block === undefined) return;
    output.push(block === source[index] ? message : { ...message, content: block });
  });
  return { result: { ...result, messages: output }, changes };
}

function isPromptMessage(value: unknown): value is PromptMessage {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { content?: unknown }).content === 'object' &&
    (value as { content?: unknown }).content !== null
  );
}

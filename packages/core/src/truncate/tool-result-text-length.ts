import type { ToolResultPart } from '../message/message';

/**
 * The number of text characters in a tool result: its string content, or the sum of its text parts
 * (without joining them, so a 10 MB result is not copied). Internal to the truncate stage.
 */
export function toolResultTextLength(result: ToolResultPart): number {
  if (typeof result.content === 'string') return result.content.length;
  if (!Array.isArray(result.content)) return 0;
  let length = 0;
  for (const part of result.content) {
    if (part?.type === 'text' && typeof part.text === 'string') length += part.text.length;
  }
  return length;
}

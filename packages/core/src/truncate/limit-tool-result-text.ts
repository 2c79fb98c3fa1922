import type { TextPart, ToolResultContentPart, ToolResultPart } from '../message/message';
import { shareBudget } from './share-budget';

/**
 * Shortens the text of a tool result to at most `maxChars` characters with `truncate` (given each
 * text, its budget, and its index among the result's text parts, which is how references name it). String
 * content is truncated directly; text parts in a part list share the budget (short parts stay whole,
 * long ones give up the most), and all other parts are kept as they are (same objects).
 *
 * Returns `result` itself when nothing changed, else a copy with the new content and every other
 * field (`isError` included, present or absent) unchanged. Internal to the truncate stage.
 */
export function limitToolResultText(
  result: ToolResultPart,
  maxChars: number,
  truncate: (text: string, maxChars: number, textIndex: number) => string,
): ToolResultPart {
  const { content } = result;
  if (typeof content === 'string') {
    if (content.length <= maxChars) return result;
    const shortened = truncate(content, maxChars, 0);
    return shortened === content ? result : { ...result, content: shortened };
  }
  if (!Array.isArray(content)) return result;

  const textIndexes: number[] = [];
  const lengths: number[] = [];
  content.forEach((part, index) => {
    if (isTextPart(part)) {
      textIndexes.push(index);
      lengths.push(part.text.length);
    }
  });
  const caps = shareBudget(lengths, maxChars);
  let parts: ToolResultContentPart[] | undefined;
  textIndexes.forEach((partIndex, rank) => {
    const part = content[partIndex] as TextPart;
    if (caps[rank]! >= part.text.length) return;
    const shortened = truncate(part.text, caps[rank]!, rank);
    if (shortened === part.text) return;
    parts ??= content.slice();
    parts[partIndex] = { ...part, text: shortened };
  });
  return parts === undefined ? result : { ...result, content: parts };
}

function isTextPart(part: ToolResultContentPart | undefined): part is TextPart {
  return part?.type === 'text' && typeof part.text === 'string';
}

import type { ToolResultPart } from '../message/message';

/** Text characters + inline data length + opaque text: what replacing the content saves. */
export function toolResultChars(result: ToolResultPart): number {
  if (typeof result.content === 'string') return result.content.length;
  if (!Array.isArray(result.content)) return 0;
  let chars = 0;
  for (const part of result.content) {
    if (part?.type === 'text') chars += typeof part.text === 'string' ? part.text.length : 0;
    else if (part?.type === 'image' || part?.type === 'file') {
      if (typeof part.data === 'string') chars += part.data.length;
      else if (part.data != null) chars += part.data.byteLength;
      else if (typeof part.url === 'string') chars += part.url.length;
    } else if (part?.type === 'opaque' && typeof part.text === 'string') chars += part.text.length;
  }
  return chars;
}

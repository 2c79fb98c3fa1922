import type { MessagePart, ToolResultContentPart } from '@spillway/core';
import { originalBlockOf } from './content-block-to-part';

/**
 * Converts a neutral part back to a LangChain content block: the original block when the engine
 * kept the part, a standard v1 block for what the engine made (text notes, placeholders).
 */
export function partToContentBlock(part: MessagePart | ToolResultContentPart): Record<string, unknown> {
  const original = originalBlockOf(part);
  if (original !== undefined && original !== null && typeof original === 'object') {
    return original as Record<string, unknown>;
  }
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return { type: 'reasoning', reasoning: part.text };
    case 'image': {
      const block: Record<string, unknown> = { type: 'image' };
      if (part.data !== undefined) block.data = part.data;
      if (part.url !== undefined) block.url = part.url;
      if (part.mediaType !== undefined) block.mimeType = part.mediaType;
      return block;
    }
    case 'file': {
      const block: Record<string, unknown> = { type: 'file' };
      if (part.data !== undefined) block.data = part.data;
      if (part.url !== undefined) block.url = part.url;
      if (part.mediaType !== undefined) block.mimeType = part.mediaType;
      return block;
    }
    case 'opaque':
      return part.value !== null && typeof part.value === 'object'
        ? (part.value as Record<string, unknown>)
        : { type: 'text', text: part.text ?? String(part.value) };
    case 'tool-call':
      return { type: 'tool_call', id: part.toolCallId, name: part.toolName, args: part.input };
    case 'tool-result':
      return { type: 'text', text: typeof part.content === 'string' ? part.content : '' };
  }
}

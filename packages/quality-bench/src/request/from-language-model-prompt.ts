import type { RequestImagePart, RequestMessage, RequestPart, RequestTextPart } from './bench-request';

/**
 * Converts the prompt an AI SDK provider receives (`LanguageModelV4Prompt`, or V3) into a
 * {@link BenchRequest}. Anything that is neither text, an image, a tool call nor a tool result
 * (custom parts, approval responses, non-image files) is kept as its JSON text, so it still counts.
 */
export function fromLanguageModelPrompt(prompt: readonly unknown[]): RequestMessage[] {
  return prompt.map((message) => {
    const { role, content } = message as { role: RequestMessage['role']; content: unknown };
    if (typeof content === 'string') return { role, parts: [{ type: 'text', text: content }] };
    const parts: RequestPart[] = [];
    for (const part of (content ?? []) as Record<string, unknown>[]) parts.push(...convertPart(part));
    return { role, parts };
  });
}

function convertPart(part: Record<string, unknown>): RequestPart[] {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return [{ type: 'text', text: String(part.text ?? '') }];
    case 'file':
    case 'image':
      return [fileOrImage(part)];
    case 'tool-call':
      return [
        {
          type: 'tool-call',
          toolCallId: String(part.toolCallId),
          toolName: String(part.toolName),
          input: typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? null),
        },
      ];
    case 'tool-result':
      return [
        {
          type: 'tool-result',
          toolCallId: String(part.toolCallId),
          toolName: String(part.toolName),
          content: outputContent(part.output),
        },
      ];
    default:
      return [{ type: 'text', text: JSON.stringify(part) }];
  }
}

function outputContent(output: unknown): (RequestTextPart | RequestImagePart)[] {
  const value = output as { type?: string; value?: unknown; reason?: string } | undefined;
  switch (value?.type) {
    case 'text':
    case 'error-text':
      return [{ type: 'text', text: String(value.value ?? '') }];
    case 'json':
    case 'error-json':
      return [{ type: 'text', text: JSON.stringify(value.value ?? null) }];
    case 'execution-denied':
      return [{ type: 'text', text: `execution denied${value.reason ? `: ${value.reason}` : ''}` }];
    case 'content':
      return ((value.value ?? []) as Record<string, unknown>[]).map((item) => {
        if (item.type === 'text') return { type: 'text', text: String(item.text ?? '') };
        if (
          item.type === 'file' ||
          item.type === 'image-data' ||
          item.type === 'media' ||
          item.type === 'file-data'
        )
          return fileOrImage(item);
        return { type: 'text', text: JSON.stringify(item) };
      });
    default:
      return [{ type: 'text', text: JSON.stringify(output ?? null) }];
  }
}

function fileOrImage(part: Record<string, unknown>): RequestTextPart | RequestImagePart {
  const mediaType = String(part.mediaType ?? part.mimeType ?? '');
  const data = dataOf(part.data ?? part.image);
  if (mediaType.startsWith('image') || part.type === 'image') return { type: 'image', data, mediaType };
  return { type: 'text', text: `[file ${mediaType}, ${data.length} chars]` };
}

function dataOf(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof URL) return data.href;
  if (data instanceof Uint8Array) return Buffer.from(data).toString('base64');
  if (typeof data === 'object' && data !== null) {
    const tagged = data as { type?: string; data?: unknown; url?: unknown; text?: unknown };
    if (tagged.type === 'data') return dataOf(tagged.data);
    if (tagged.type === 'url') return dataOf(tagged.url);
    if (tagged.type === 'text') return String(tagged.text ?? '');
  }
  return JSON.stringify(data ?? null);
}

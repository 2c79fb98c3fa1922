import type { BaseMessage } from '@langchain/core/messages';
import type { RequestImagePart, RequestMessage, RequestPart, RequestTextPart } from './bench-request';

const ROLES: Record<string, RequestMessage['role']> = {
  system: 'system',
  developer: 'system',
  human: 'user',
  ai: 'assistant',
  tool: 'tool',
};

/** Converts the LangChain messages a chat model receives into a {@link BenchRequest}. */
export function fromLangChainMessages(messages: readonly BaseMessage[]): RequestMessage[] {
  return messages.map((message) => {
    const role = ROLES[message.getType()] ?? 'user';
    const content = contentParts(message.content);
    if (role === 'tool') {
      const tool = message as BaseMessage & { tool_call_id?: string; name?: string };
      return {
        role,
        parts: [
          {
            type: 'tool-result',
            toolCallId: String(tool.tool_call_id ?? ''),
            toolName: String(tool.name ?? ''),
            content,
          },
        ],
      };
    }
    const parts: RequestPart[] = [...content];
    const calls = (message as BaseMessage & { tool_calls?: { id?: string; name: string; args: unknown }[] })
      .tool_calls;
    for (const call of calls ?? []) {
      parts.push({
        type: 'tool-call',
        toolCallId: String(call.id ?? ''),
        toolName: call.name,
        input: JSON.stringify(call.args ?? null),
      });
    }
    return { role, parts };
  });
}

function contentParts(content: unknown): (RequestTextPart | RequestImagePart)[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.map((block: Record<string, unknown>) => {
    if (typeof block === 'string') return { type: 'text', text: block };
    if (block.type === 'text') return { type: 'text', text: String(block.text ?? '') };
    if (block.type === 'image_url') {
      const url =
        typeof block.image_url === 'string' ? block.image_url : (block.image_url as { url: string }).url;
      return imageFromUrl(url);
    }
    if (block.type === 'image') {
      const data = String(block.data ?? block.url ?? '');
      const mediaType = String(block.mime_type ?? block.mimeType ?? 'image/png');
      return data.startsWith('data:') ? imageFromUrl(data) : { type: 'image', data, mediaType };
    }
    return { type: 'text', text: JSON.stringify(block) };
  });
}

function imageFromUrl(url: string): RequestImagePart {
  const match = /^data:([^;,]+);base64,/.exec(url);
  if (match) return { type: 'image', data: url.slice(match[0].length), mediaType: match[1]! };
  return { type: 'image', data: url, mediaType: 'image/*' };
}

import type {
  Message,
  MessagePart,
  MessageRole,
  ToolResultContentPart,
  ToolResultPart,
} from '@spillway/core';
import { fileSource } from './file-source';
import { link } from './origin';
import type { SdkMessage, SdkPart, SdkToolResultOutput } from './sdk-prompt';

const ROLES = new Set<string>(['system', 'user', 'assistant', 'tool']);

/**
 * Converts one message of an AI SDK language-model prompt (V2, V3 or V4 shape) into the neutral
 * model. Every neutral object is linked to the SDK object it came from (see `origin.ts`), so what
 * the engine leaves alone goes back as the original, and what it changes keeps its provider
 * options. What the engine does not understand (custom and reasoning-file parts, provider-executed
 * tools, approval responses, provider file references) becomes an opaque part carrying the
 * original.
 */
export function toNeutralMessage(message: SdkMessage): Message {
  if (message.role === 'system') {
    const content = typeof message.content === 'string' ? message.content : textOf(message.content);
    return link({ role: 'system', content }, message);
  }
  const role: MessageRole = ROLES.has(message.role) ? (message.role as MessageRole) : 'user';
  if (typeof message.content === 'string') return link({ role, content: message.content }, message);
  if (!Array.isArray(message.content)) return link({ role, content: [opaque(message.content)] }, message);
  const parts = message.content.map((part) => toNeutralPart(part, role));
  return link({ role, content: parts }, message);
}

function toNeutralPart(part: SdkPart, role: MessageRole): MessagePart {
  if (typeof part !== 'object' || part === null) return opaque(part);
  switch (part.type) {
    case 'text':
      if (typeof part.text !== 'string') return opaque(part);
      // An Anthropic compaction block (`@ai-sdk/anthropic` reads it from the part's provider
      // options): the provider's own summary, kept verbatim.
      if (isAnthropicCompaction(part)) return providerCompaction(part, part.text);
      return link({ type: 'text', text: part.text }, part);
    case 'reasoning':
      return typeof part.text === 'string'
        ? link({ type: 'reasoning', text: part.text }, part)
        : opaque(part);
    case 'file':
      return toNeutralFile(part, part.data, part.mediaType, part.filename) ?? opaque(part);
    case 'tool-call':
      if (part.providerExecuted === true || role !== 'assistant') return opaque(part);
      return link(
        {
          type: 'tool-call',
          toolCallId: String(part.toolCallId),
          toolName: String(part.toolName),
          input: part.input,
        },
        part,
      );
    case 'tool-result':
      // Results of provider-executed tools sit in assistant messages; they are the provider's business.
      return role === 'tool' ? toNeutralToolResult(part) : opaque(part);
    case 'custom':
      // An OpenAI Responses compaction item, with its encrypted state.
      return part.kind === 'openai.compaction' ? providerCompaction(part) : opaque(part);
    default:
      return opaque(part);
  }
}

function isAnthropicCompaction(part: SdkPart): boolean {
  const options = part.providerOptions as { anthropic?: { type?: unknown } } | undefined;
  return options?.anthropic?.type === 'compaction';
}

function providerCompaction(part: SdkPart, text?: string): MessagePart {
  const base = { type: 'opaque' as const, value: part, providerManaged: 'compaction' as const };
  return link(text === undefined ? base : { ...base, text }, part);
}

function toNeutralToolResult(part: SdkPart): ToolResultPart {
  const output = part.output as SdkToolResultOutput | undefined;
  const base = {
    type: 'tool-result' as const,
    toolCallId: String(part.toolCallId),
    toolName: String(part.toolName),
  };
  if (typeof output !== 'object' || output === null)
    return link({ ...base, content: [opaque(output)] }, part);
  switch (output.type) {
    case 'text':
      return link({ ...base, content: String(output.value ?? '') }, part);
    case 'error-text':
      return link({ ...base, content: String(output.value ?? ''), isError: true }, part);
    case 'json':
      return link({ ...base, content: jsonText(output.value) }, part);
    case 'error-json':
      return link({ ...base, content: jsonText(output.value), isError: true }, part);
    case 'execution-denied':
      return link(
        { ...base, content: `[execution denied${output.reason ? `: ${output.reason}` : ''}]`, isError: true },
        part,
      );
    case 'content':
      if (Array.isArray(output.value)) {
        return link({ ...base, content: output.value.map((item) => toNeutralContentItem(item)) }, part);
      }
      return link({ ...base, content: [opaque(output)] }, part);
    default:
      return link({ ...base, content: [opaque(output)] }, part);
  }
}

function toNeutralContentItem(item: SdkPart): ToolResultContentPart {
  if (typeof item !== 'object' || item === null) return opaque(item);
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? link({ type: 'text', text: item.text }, item) : opaque(item);
    // V2 item (and V3, which still reads it): base64 data with its media type.
    case 'media':
      return toNeutralFile(item, item.data, item.mediaType, undefined) ?? opaque(item);
    // V3 items.
    case 'image-data':
      return toNeutralFile(item, item.data, item.mediaType, undefined, 'image') ?? opaque(item);
    case 'image-url':
      return toNeutralFile(item, item.url, item.mediaType, undefined, 'image') ?? opaque(item);
    case 'file-data':
      return toNeutralFile(item, item.data, item.mediaType, item.filename) ?? opaque(item);
    case 'file-url':
      return toNeutralFile(item, item.url, item.mediaType, undefined) ?? opaque(item);
    // V4 item (tagged data).
    case 'file':
      return toNeutralFile(item, item.data, item.mediaType, item.filename) ?? opaque(item);
    default:
      return opaque(item);
  }
}

function toNeutralFile(
  original: SdkPart,
  data: unknown,
  mediaType: unknown,
  filename: unknown,
  kind?: 'image',
): ToolResultContentPart | undefined {
  const source = fileSource(data);
  if (source === undefined) {
    // A V4 text file counts by its text; references count by size.
    const tagged = data as { type?: unknown; text?: unknown } | undefined;
    if (tagged?.type === 'text' && typeof tagged.text === 'string') return opaque(original, tagged.text);
    return undefined;
  }
  const type = typeof mediaType === 'string' ? mediaType : undefined;
  // V4 allows the top-level type alone (`image`: what ai 7 writes for images, e.g. from `image-url`
  // tool output or an image part without a media type) and reads `image/*` the same way. Both mean
  // an image of unknown subtype, which the neutral model leaves untyped.
  const isImage = kind === 'image' || /^image(\/|$)/i.test(type ?? '');
  const subtypeKnown = type !== undefined && /\/[^*]/.test(type);
  const neutral = {
    type: isImage ? ('image' as const) : ('file' as const),
    ...source,
    ...(type !== undefined && (subtypeKnown || !isImage) ? { mediaType: type } : {}),
    ...(typeof filename === 'string' ? { filename } : {}),
  };
  return link(neutral, original);
}

function opaque(value: unknown, text?: string): MessagePart & { type: 'opaque' } {
  const part =
    text === undefined ? { type: 'opaque' as const, value } : { type: 'opaque' as const, value, text };
  return typeof value === 'object' && value !== null ? link(part, value) : part;
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return String(value);
  }
}

function textOf(parts: readonly SdkPart[]): string {
  return parts
    .map((part) => (typeof part?.text === 'string' ? part.text : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

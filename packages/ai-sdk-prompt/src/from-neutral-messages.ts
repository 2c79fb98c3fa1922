import type {
  FilePart,
  ImagePart,
  Message,
  MessagePart,
  ToolResultContentPart,
  ToolResultPart,
} from '@spillway/core';
import { originals, templateOf } from './origin';
import type { PromptVersion, SdkMessage, SdkPart, SdkToolResultOutput } from './sdk-prompt';

/** Options of {@link fromNeutralMessages}. */
export interface FromNeutralMessagesOptions {
  /** The shape new parts are built in. */
  version: PromptVersion;
  /**
   * The SDK message each unchanged neutral message stands for in this call (the caller's own
   * objects, so an unchanged message goes down as the very same object).
   */
  current?: ReadonlyMap<Message, SdkMessage>;
}

/**
 * Converts the engine's output back into an AI SDK language-model prompt. Unchanged messages and
 * parts are the original objects; changed ones are rebuilt from their original (provider options,
 * ids and unknown fields kept) with only the edited content re-encoded; new ones (the summary, the
 * "older messages were truncated" note) are built in the given version's shape.
 */
export function fromNeutralMessages(
  messages: readonly Message[],
  { version, current }: FromNeutralMessagesOptions,
): SdkMessage[] {
  return messages.map((message) => {
    const unchanged = current?.get(message) ?? originals.get(message);
    if (unchanged !== undefined) return unchanged as SdkMessage;
    return rebuildMessage(message, version);
  });
}

function rebuildMessage(message: Message, version: PromptVersion): SdkMessage {
  const template = templateOf(message);
  if (message.role === 'system') {
    const content = typeof message.content === 'string' ? message.content : plainText(message.content);
    return { ...template, role: 'system', content };
  }
  const parts =
    typeof message.content === 'string'
      ? [{ type: 'text', text: message.content }]
      : message.content.map((part) => toSdkPart(part, version));
  return { ...template, role: message.role, content: parts };
}

function toSdkPart(part: MessagePart, version: PromptVersion): SdkPart {
  const original = originals.get(part);
  if (original !== undefined && part.type !== 'opaque') return original as SdkPart;
  const template = templateOf(part);
  switch (part.type) {
    case 'opaque':
      return part.value as SdkPart;
    case 'text':
    case 'reasoning':
      return { ...(template?.type === part.type ? template : {}), type: part.type, text: part.text };
    case 'tool-call':
      return {
        ...(template?.type === 'tool-call' ? template : {}),
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input,
      };
    case 'tool-result':
      return {
        ...(template?.type === 'tool-result' ? template : {}),
        type: 'tool-result',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: toSdkOutput(part, template?.output as SdkToolResultOutput | undefined, version),
      };
    case 'image':
    case 'file':
      return toSdkFilePart(part, version);
  }
}

function toSdkOutput(
  part: ToolResultPart,
  originalOutput: SdkToolResultOutput | undefined,
  version: PromptVersion,
): SdkToolResultOutput {
  const providerOptions =
    originalOutput?.providerOptions === undefined ? {} : { providerOptions: originalOutput.providerOptions };
  if (typeof part.content === 'string') {
    const isError = part.isError === true || (originalOutput?.type.startsWith('error') ?? false);
    return { type: isError ? 'error-text' : 'text', value: part.content, ...providerOptions };
  }
  return {
    type: 'content',
    value: part.content.map((item) => toSdkContentItem(item, version)),
    ...providerOptions,
  };
}

function toSdkContentItem(item: ToolResultContentPart, version: PromptVersion): SdkPart {
  const original = originals.get(item);
  if (original !== undefined && item.type !== 'opaque') return original as SdkPart;
  const template = templateOf(item);
  switch (item.type) {
    case 'opaque':
      return item.value as SdkPart;
    case 'text':
      return { ...(template?.type === 'text' ? template : {}), type: 'text', text: item.text };
    case 'image':
    case 'file': {
      const mediaType = item.mediaType ?? (item.type === 'image' ? 'image/png' : 'application/octet-stream');
      const filename = item.filename === undefined ? {} : { filename: item.filename };
      if (version === 'v4') {
        return { type: 'file', data: taggedData(item), mediaType, ...filename };
      }
      if (version === 'v2') {
        // V2 tool output holds inline media only; a URL goes as the text it is.
        return item.data !== undefined
          ? { type: 'media', data: base64(item.data), mediaType }
          : { type: 'text', text: item.url ?? '' };
      }
      if (item.data !== undefined) {
        return {
          type: item.type === 'image' ? 'image-data' : 'file-data',
          data: base64(item.data),
          mediaType,
          ...filename,
        };
      }
      return item.type === 'image'
        ? { type: 'image-url', url: item.url ?? '' }
        : { type: 'file-url', url: item.url ?? '', mediaType };
    }
  }
}

function toSdkFilePart(part: ImagePart | FilePart, version: PromptVersion): SdkPart {
  const mediaType = part.mediaType ?? (part.type === 'image' ? 'image/png' : 'application/octet-stream');
  const filename = part.filename === undefined ? {} : { filename: part.filename };
  if (version === 'v4') return { type: 'file', data: taggedData(part), mediaType, ...filename };
  return { type: 'file', data: part.data ?? new URL(part.url ?? ''), mediaType, ...filename };
}

function taggedData(part: ImagePart | FilePart): unknown {
  return part.data !== undefined
    ? { type: 'data', data: part.data }
    : { type: 'url', url: new URL(part.url ?? '') };
}

function plainText(parts: readonly MessagePart[]): string {
  return parts
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

function base64(data: string | Uint8Array): string {
  if (typeof data === 'string') return data;
  let binary = '';
  const chunk = 0x8000;
  for (let index = 0; index < data.length; index += chunk) {
    binary += String.fromCharCode(...data.subarray(index, index + chunk));
  }
  return btoa(binary);
}

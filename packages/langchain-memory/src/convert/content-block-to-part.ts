import type { ImagePart, OpaquePart, TextPart } from '@spillway/core';

/** A LangChain content block as it travels in `message.content` (any provider's shape). */
export type ContentBlockLike = Record<string, unknown> & { type?: unknown };

/** What a content block becomes in the neutral model. */
export type ConvertedPart = TextPart | ImagePart | OpaquePart;

const originalBlocks = new WeakMap<object, unknown>();

/**
 * The LangChain block a neutral part was made from, when the part is the very object
 * {@link contentBlockToPart} returned (the engine keeps parts it did not change).
 */
export function originalBlockOf(part: object): unknown {
  return originalBlocks.get(part);
}

/**
 * Converts one LangChain content block to a neutral part. Understood: text blocks, and the four
 * image forms — the v1 standard `image` block (`data` / `url` / `fileId`, `mimeType`), the deprecated
 * data block (`source_type`, `mime_type`), OpenAI's `image_url` (a string or `{ url, detail }`) and
 * Anthropic's `image` with a `source` (`base64` or `url`). Anthropic's `compaction` block becomes a
 * provider-managed opaque part (the engine keeps it, and what precedes it, verbatim and in place).
 * Anything else becomes an opaque part that the engine carries through untouched.
 */
export function contentBlockToPart(block: unknown): ConvertedPart {
  const part = convert(block);
  if (block !== null && typeof block === 'object') originalBlocks.set(part, block);
  return part;
}

function convert(block: unknown): ConvertedPart {
  if (typeof block === 'string') return { type: 'text', text: block };
  if (block === null || typeof block !== 'object') return { type: 'opaque', value: block };
  const record = block as ContentBlockLike;
  switch (record.type) {
    case 'text':
      if (typeof record.text === 'string') return { type: 'text', text: record.text };
      break;
    case 'image_url':
      return openAIImage(record) ?? opaque(record);
    case 'image':
      return (
        (isRecord(record.source) ? anthropicImage(record.source) : undefined) ??
        ('source_type' in record ? legacyImage(record) : standardImage(record)) ??
        opaque(record)
      );
    // Anthropic's server-side compaction (`@langchain/anthropic` keeps the API's block as it is).
    case 'compaction':
      return providerCompaction(record, record.content);
    // The same block as a LangChain v1 standard block.
    case 'non_standard':
      if (isRecord(record.value) && record.value.type === 'compaction')
        return providerCompaction(record, record.value.content);
      break;
  }
  return opaque(record);
}

function openAIImage(block: ContentBlockLike): ImagePart | undefined {
  const value = block.image_url;
  const url = typeof value === 'string' ? value : isRecord(value) ? value.url : undefined;
  if (typeof url !== 'string') return undefined;
  const detail = isRecord(value) ? value.detail : undefined;
  return image({ url, mediaType: mediaTypeOfDataUrl(url), detail });
}

function anthropicImage(source: Record<string, unknown>): ImagePart | undefined {
  if (source.type === 'base64' && typeof source.data === 'string') {
    return image({ data: source.data, mediaType: stringOrUndefined(source.media_type) });
  }
  if (source.type === 'url' && typeof source.url === 'string') return image({ url: source.url });
  return undefined;
}

function legacyImage(block: ContentBlockLike): ImagePart | undefined {
  const mediaType = stringOrUndefined(block.mime_type);
  if (block.source_type === 'base64' && typeof block.data === 'string')
    return image({ data: block.data, mediaType });
  if (block.source_type === 'url' && typeof block.url === 'string')
    return image({ url: block.url, mediaType });
  if (block.source_type === 'id') return image({ mediaType });
  return undefined;
}

function standardImage(block: ContentBlockLike): ImagePart | undefined {
  const mediaType = stringOrUndefined(block.mimeType) ?? stringOrUndefined(block.mime_type);
  if (typeof block.data === 'string' || block.data instanceof Uint8Array)
    return image({ data: block.data, mediaType });
  if (typeof block.url === 'string')
    return image({ url: block.url, mediaType: mediaType ?? mediaTypeOfDataUrl(block.url) });
  if (typeof block.fileId === 'string') return image({ mediaType });
  return undefined;
}

function image(fields: {
  data?: string | Uint8Array;
  url?: string;
  mediaType?: string | undefined;
  detail?: unknown;
}): ImagePart {
  const part: { -readonly [K in keyof ImagePart]: ImagePart[K] } = { type: 'image' };
  if (fields.data !== undefined) part.data = fields.data;
  if (fields.url !== undefined) part.url = fields.url;
  if (fields.mediaType !== undefined) part.mediaType = fields.mediaType;
  if (fields.detail === 'low' || fields.detail === 'high' || fields.detail === 'auto')
    part.detail = fields.detail;
  return part;
}

function opaque(block: ContentBlockLike): OpaquePart {
  const text =
    typeof block.text === 'string'
      ? block.text
      : typeof block.reasoning === 'string'
        ? block.reasoning
        : typeof block.thinking === 'string'
          ? block.thinking
          : undefined;
  return text === undefined ? { type: 'opaque', value: block } : { type: 'opaque', value: block, text };
}

/** A provider's compaction block: kept verbatim and in place, counted by its summary text. */
function providerCompaction(block: ContentBlockLike, content: unknown): OpaquePart {
  return typeof content === 'string'
    ? { type: 'opaque', value: block, text: content, providerManaged: 'compaction' }
    : { type: 'opaque', value: block, providerManaged: 'compaction' };
}

function mediaTypeOfDataUrl(url: string): string | undefined {
  const match = /^data:([^;,]+)[;,]/.exec(url);
  return match?.[1];
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

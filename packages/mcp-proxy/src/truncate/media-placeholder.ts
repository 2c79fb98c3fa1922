import { imagePlaceholder } from '@spillway/core';

/** A piece of inline media a tool result carried. */
export interface MediaDescription {
  /** `image`, `audio`, or `resource` for an embedded resource's blob. */
  readonly kind: 'image' | 'audio' | 'resource';
  /** The base64 data (never modified). */
  readonly data: string;
  readonly mediaType?: string | undefined;
  /** The resource URI, for blobs. */
  readonly uri?: string | undefined;
}

/**
 * The text that replaces media beyond the byte budget: `[image: image/png, 1024x768, 2.3 MB]`
 * (dimensions read from the image header by `@spillway/core`'s `imagePlaceholder`),
 * `[audio: audio/wav, 1.2 MB]`, `[resource: file:///a.pdf, application/pdf, 4.0 MB]`, followed by why
 * it is not shown. Never throws.
 */
export function mediaPlaceholder(
  media: MediaDescription,
  { maxMediaBytes }: { maxMediaBytes: number },
): string {
  const reason = ` (not shown: over the ${formatBytes(maxMediaBytes)} media budget of one result)`;
  if (media.kind === 'image') {
    return imagePlaceholder({ type: 'image', data: media.data, mediaType: media.mediaType }) + reason;
  }
  const details = [media.uri, media.mediaType, formatBytes(base64ByteLength(media.data))].filter(
    (detail): detail is string => typeof detail === 'string' && detail.length > 0,
  );
  return `[${media.kind}: ${details.join(', ').replace(/[\]\r\n]/g, ' ')}]${reason}`;
}

/** Decoded bytes of base64 text: length × 3/4 minus the padding. */
export function base64ByteLength(data: string): number {
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'unlimited';
  if (bytes < 1024) return `${bytes} B`;
  const kilobytes = Math.round(bytes / 1024);
  if (kilobytes < 1024) return `${kilobytes} KB`;
  const megabytes = bytes / (1024 * 1024);
  return megabytes < 10 ? `${megabytes.toFixed(1)} MB` : `${Math.round(megabytes)} MB`;
}

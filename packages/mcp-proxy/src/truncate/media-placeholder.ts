import { base64ByteLength, formatByteSize, imagePlaceholder } from '@spillway/core';

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
  { maxMediaBytes, subject = 'result' }: { maxMediaBytes: number; subject?: string },
): string {
  const reason = ` (not shown: over the ${formatByteSize(maxMediaBytes)} media budget of one ${subject})`;
  if (media.kind === 'image') {
    return imagePlaceholder({ type: 'image', data: media.data, mediaType: media.mediaType }) + reason;
  }
  const details = [media.uri, media.mediaType, formatByteSize(base64ByteLength(media.data))].filter(
    (detail): detail is string => typeof detail === 'string' && detail.length > 0,
  );
  return `[${media.kind}: ${details.join(', ').replace(/[\]\r\n]/g, ' ')}]${reason}`;
}

/** Decoded bytes of base64 text: length × 3/4 minus the padding. */

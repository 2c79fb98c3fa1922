import { parseDataUrl } from '../estimate/decode-base64';
import { imageDimensions } from '../estimate/image-dimensions';
import type { FilePart, ImagePart } from '../message/message';
import { refAnnotation } from '../recall/recall-ref';
import { base64ByteLength, formatByteSize } from './byte-size';

/** Filenames longer than this are shortened in the placeholder. */
const MAX_NAME_CHARS = 120;

/**
 * The one-line text that stands in for an image (or file) removed from an older message:
 * `[image: {filename or media type}, {width}x{height}, {size}]`, leaving out what is unknown, e.g.
 * `[image: shot.png, 1280x800, 312 KB]`, `[image: image/png, 48 KB]`, or `[image]` when nothing is
 * known. The media type is shown only when there is no filename. Parts that are not images (a
 * `file` part whose media type is not `image/*`) read `[file: …]`.
 *
 * - Dimensions: `width`/`height` when given, else read from the image header with `image-size`
 *   through the estimator's memoised `imageDimensions` (only a prefix of base64 data is decoded,
 *   and an image already counted by the estimator is not read again).
 * - Size: from the inline data (base64 length × 3/4 minus padding, or the byte length), also for
 *   `data:` URLs; a remote URL contributes its file name when its path has one.
 *
 * Never throws: unreadable data just leaves the dimensions out.
 */
export function imagePlaceholder(image: ImagePart | FilePart): string {
  try {
    return describe(image);
  } catch {
    return image?.type === 'file' ? '[file]' : '[image]';
  }
}

/**
 * The placeholder of an image (or file), followed by the reference to read it back when there is
 * one: `[image: shot.png, 1280x800, 312 KB] [ref=i.Ab12Cd34Ef56]`.
 */
export function imagePlaceholderWithRef(image: ImagePart | FilePart, ref: string | undefined): string {
  const placeholder = imagePlaceholder(image);
  return ref === undefined ? placeholder : `${placeholder} ${refAnnotation(ref)}`;
}

function describe(image: ImagePart | FilePart): string {
  let mediaType = nonEmptyString(image.mediaType);
  let filename = nonEmptyString(image.filename);
  let url = nonEmptyString(image.url);
  let data: string | Uint8Array | undefined = image.data;
  // Some producers put a URL where inline data belongs.
  if (typeof data === 'string' && /^https?:/i.test(data.slice(0, 8))) {
    url ??= data;
    data = undefined;
  }
  const dataUrl =
    typeof data === 'string' && data.startsWith('data:')
      ? parseDataUrl(data)
      : data === undefined && url?.startsWith('data:')
        ? parseDataUrl(url)
        : undefined;
  if (dataUrl !== undefined) {
    mediaType ??= nonEmptyString(dataUrl.mediaType);
    data = dataUrl.base64 ?? dataUrl.bytes;
  } else if (data === undefined && url !== undefined) {
    filename ??= filenameOfUrl(url);
  }

  const isImage = image.type === 'image' || mediaType?.toLowerCase().startsWith('image/') === true;
  const dimensions = isImage ? imageDimensions(image as ImagePart) : undefined;

  const details: string[] = [];
  const name = filename ?? mediaType;
  if (name !== undefined) details.push(clean(name));
  if (dimensions !== undefined) details.push(`${dimensions.width}x${dimensions.height}`);
  const bytes = byteLength(data);
  if (bytes > 0) details.push(formatByteSize(bytes));

  const label = isImage ? 'image' : 'file';
  return details.length === 0 ? `[${label}]` : `[${label}: ${details.join(', ')}]`;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The last path segment of a URL when it looks like a file name (has an extension). */
function filenameOfUrl(url: string): string | undefined {
  try {
    const segment = new URL(url).pathname.split('/').pop();
    if (segment === undefined || !/\.[A-Za-z0-9]{1,8}$/.test(segment)) return undefined;
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Bytes of inline data: the byte length, or base64 length × 3/4 minus padding. */
function byteLength(data: string | Uint8Array | undefined): number {
  if (data === undefined) return 0;
  if (typeof data !== 'string') return typeof data.byteLength === 'number' ? data.byteLength : 0;
  return base64ByteLength(data);
}

/** One line, no closing bracket, bounded length: the placeholder must stay one well-formed token. */
function clean(name: string): string {
  const line = name.replace(/[\u0000-\u001f\u007f\]]+/g, ' ').trim();
  if (line.length <= MAX_NAME_CHARS) return line;
  let end = MAX_NAME_CHARS - 1;
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${line.slice(0, end)}…`;
}

import { imageSize } from 'image-size';
import type { ImagePart } from '../message/message';
import { decodeBase64Prefix, parseDataUrl } from './decode-base64';

/** The pixel size of an image. */
export interface ImageDimensions {
  readonly width: number;
  readonly height: number;
}

/**
 * Base64 characters decoded on the first attempt to read a header (48 KB of bytes): enough for
 * PNG, GIF, WebP and most JPEGs.
 */
const FIRST_PREFIX_CHARS = 64 * 1024;
/** Later attempts decode this many times more, until the whole payload has been tried. */
const PREFIX_GROWTH = 8;

const memo = new WeakMap<ImagePart, ImageDimensions | null>();

function isDimension(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function sizeOf(bytes: Uint8Array): ImageDimensions | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return isDimension(width) && isDimension(height) ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

function sizeOfBase64(base64: string): ImageDimensions | undefined {
  for (let prefix = FIRST_PREFIX_CHARS; ; prefix *= PREFIX_GROWTH) {
    const whole = prefix >= base64.length;
    const bytes = decodeBase64Prefix(base64, whole ? Number.POSITIVE_INFINITY : prefix);
    if (bytes === undefined) return undefined;
    const dimensions = sizeOf(bytes);
    if (dimensions !== undefined || whole) return dimensions;
  }
}

function read(part: ImagePart): ImageDimensions | undefined {
  if (isDimension(part.width) && isDimension(part.height)) return { width: part.width, height: part.height };
  const { data, url } = part;
  if (data instanceof Uint8Array) return sizeOf(data);
  if ((data as unknown) instanceof ArrayBuffer) return sizeOf(new Uint8Array(data as unknown as ArrayBuffer));
  if (typeof data === 'string' && data.length > 0) {
    const dataUrl = parseDataUrl(data);
    if (dataUrl === undefined) return sizeOfBase64(data);
    return dataUrl.base64 !== undefined ? sizeOfBase64(dataUrl.base64) : sizeOf(dataUrl.bytes!);
  }
  if (typeof url === 'string') {
    const dataUrl = parseDataUrl(url);
    if (dataUrl !== undefined) {
      return dataUrl.base64 !== undefined ? sizeOfBase64(dataUrl.base64) : sizeOf(dataUrl.bytes!);
    }
  }
  return undefined;
}

/**
 * The pixel size of an image part: `width`/`height` when both are given, else read from the image
 * header in `data` (bytes or base64) or in a `data:` URL with `image-size`. Base64 is decoded a
 * prefix at a time (64 KB of text first, more only when the header lies further in, e.g. a JPEG
 * behind a large EXIF block). `undefined` for remote URLs and unreadable data. Never throws;
 * memoised per part object, so a header is read once.
 */
export function imageDimensions(part: ImagePart): ImageDimensions | undefined {
  const known = memo.get(part);
  if (known !== undefined) return known ?? undefined;
  let dimensions: ImageDimensions | undefined;
  try {
    dimensions = read(part);
  } catch {
    dimensions = undefined;
  }
  if (typeof part === 'object' && part !== null) memo.set(part, dimensions ?? null);
  return dimensions;
}

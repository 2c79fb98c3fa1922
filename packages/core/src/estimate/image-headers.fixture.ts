/**
 * Real image bytes for the estimator's tests: minimal but valid PNG, JPEG and GIF files of a given
 * size, and base64 helpers that work without Node's `Buffer`.
 */

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(bytes: readonly number[]): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function uint32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function uint16(value: number): number[] {
  return [(value >>> 8) & 0xff, value & 0xff];
}

function chunk(type: string, data: readonly number[]): number[] {
  const typeBytes = Array.from(type, (character) => character.charCodeAt(0));
  return [...uint32(data.length), ...typeBytes, ...data, ...uint32(crc32([...typeBytes, ...data]))];
}

/** A PNG file (signature, IHDR with a valid CRC, one empty IDAT, IEND) of the given size. */
export function pngBytes(width: number, height: number): Uint8Array {
  const header = [...uint32(width), ...uint32(height), 8, 6, 0, 0, 0];
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk('IHDR', header),
    ...chunk('IDAT', []),
    ...chunk('IEND', []),
  ]);
}

/**
 * A baseline JPEG of the given size: SOI, a JFIF APP0 segment, `Exif` APP1 segments padded to
 * `exifBytes` in total (split when larger than one segment can hold), SOF0, EOI.
 */
export function jpegBytes(
  width: number,
  height: number,
  { exifBytes = 0 }: { exifBytes?: number } = {},
): Uint8Array {
  const bytes: number[] = [
    0xff,
    0xd8,
    0xff,
    0xe0,
    ...uint16(16),
    0x4a,
    0x46,
    0x49,
    0x46,
    0,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
  ];
  let remaining = exifBytes;
  while (remaining > 0) {
    const size = Math.min(remaining, 60_000);
    const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...new Array<number>(Math.max(0, size - 6)).fill(0)];
    bytes.push(0xff, 0xe1, ...uint16(payload.length + 2), ...payload);
    remaining -= size;
  }
  bytes.push(0xff, 0xc0, ...uint16(17), 8, ...uint16(height), ...uint16(width), 3);
  bytes.push(1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1);
  bytes.push(0xff, 0xd9);
  return new Uint8Array(bytes);
}

/** A GIF89a file header (logical screen descriptor) and trailer, of the given size. */
export function gifBytes(width: number, height: number): Uint8Array {
  return new Uint8Array([
    0x47,
    0x49,
    0x46,
    0x38,
    0x39,
    0x61,
    width & 0xff,
    width >>> 8,
    height & 0xff,
    height >>> 8,
    0,
    0,
    0,
    0x3b,
  ]);
}

/** Base64 text of `bytes`, without `Buffer`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

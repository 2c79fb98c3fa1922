import { imageSize } from 'image-size';
import { describe, expect, it, vi } from 'vitest';
import type { ImagePart } from '../message/message';
import { imageDimensions } from './image-dimensions';
import { gifBytes, jpegBytes, pngBytes, toBase64 } from './image-headers.fixture';

vi.mock('image-size', async (importOriginal) => {
  const actual = await importOriginal<typeof import('image-size')>();
  return { ...actual, imageSize: vi.fn(actual.imageSize) };
});

const image = (fields: Omit<ImagePart, 'type'>): ImagePart => ({ type: 'image', ...fields });

describe('imageDimensions', () => {
  it('prefers width and height given on the part', () => {
    expect(imageDimensions(image({ width: 640, height: 480, data: pngBytes(10, 10) }))).toEqual({
      width: 640,
      height: 480,
    });
  });

  it('reads PNG, JPEG and GIF headers from raw bytes', () => {
    expect(imageDimensions(image({ data: pngBytes(1920, 1080) }))).toEqual({ width: 1920, height: 1080 });
    expect(imageDimensions(image({ data: jpegBytes(800, 600) }))).toEqual({ width: 800, height: 600 });
    expect(imageDimensions(image({ data: gifBytes(320, 200) }))).toEqual({ width: 320, height: 200 });
  });

  it('reads base64 data, with or without line breaks, and data: URLs in data or url', () => {
    const base64 = toBase64(pngBytes(1024, 768));
    expect(imageDimensions(image({ data: base64 }))).toEqual({ width: 1024, height: 768 });
    expect(imageDimensions(image({ data: base64.replace(/(.{20})/g, '$1\n') }))).toEqual({
      width: 1024,
      height: 768,
    });
    expect(imageDimensions(image({ url: `data:image/png;base64,${base64}` }))).toEqual({
      width: 1024,
      height: 768,
    });
    expect(imageDimensions(image({ data: `data:image/gif;base64,${toBase64(gifBytes(12, 34))}` }))).toEqual({
      width: 12,
      height: 34,
    });
  });

  it('reads a percent-encoded SVG data: URL', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"></svg>';
    expect(imageDimensions(image({ url: `data:image/svg+xml,${encodeURIComponent(svg)}` }))).toEqual({
      width: 300,
      height: 150,
    });
  });

  it('decodes more than the first 64 KB of base64 when a JPEG header lies behind a large EXIF block', () => {
    const bytes = jpegBytes(4032, 3024, { exifBytes: 150_000 });
    const base64 = toBase64(bytes);
    // The start-of-frame marker is beyond what the first 64 KB of base64 (48 KB of bytes) holds.
    expect(base64.length).toBeGreaterThan(64 * 1024 * 2);
    expect(() => imageSize(bytes.subarray(0, 48 * 1024))).toThrow();
    expect(imageDimensions(image({ data: base64 }))).toEqual({ width: 4032, height: 3024 });
  });

  it('returns undefined for remote URLs, unreadable data and invalid base64, without throwing', () => {
    expect(imageDimensions(image({ url: 'https://example.com/cat.png' }))).toBeUndefined();
    expect(imageDimensions(image({ data: new Uint8Array([1, 2, 3, 4, 5]) }))).toBeUndefined();
    expect(imageDimensions(image({ data: 'not base64 at all!' }))).toBeUndefined();
    expect(imageDimensions(image({ data: toBase64(new Uint8Array(200_000).fill(7)) }))).toBeUndefined();
    expect(imageDimensions(image({ data: '' }))).toBeUndefined();
    expect(imageDimensions(image({ width: Number.NaN, height: 10 }))).toBeUndefined();
    expect(imageDimensions(image({ data: 42 as unknown as string }))).toBeUndefined();
  });

  it('reads a header once per part object', () => {
    const spy = vi.mocked(imageSize);
    const part = image({ data: toBase64(pngBytes(50, 60)) });
    spy.mockClear();
    expect(imageDimensions(part)).toEqual({ width: 50, height: 60 });
    expect(imageDimensions(part)).toEqual({ width: 50, height: 60 });
    expect(spy).toHaveBeenCalledTimes(1);
    // An equal but distinct object is read again.
    expect(imageDimensions({ ...part })).toEqual({ width: 50, height: 60 });
    expect(spy).toHaveBeenCalledTimes(2);
    // Unknown results are memoised too.
    const unreadable = image({ data: new Uint8Array([9, 9, 9]) });
    imageDimensions(unreadable);
    imageDimensions(unreadable);
    expect(spy).toHaveBeenCalledTimes(3);
  });
});

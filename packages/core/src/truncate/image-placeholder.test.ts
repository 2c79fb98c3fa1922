import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jpegHeader, pngHeader, toBase64, withLength } from '../../test/truncate-helpers';
import { base64ByteLength, formatByteSize } from './byte-size';
import { imagePlaceholder } from './image-placeholder';

/** Bytes of a real GIF header (logical screen size, little-endian). */
function gifHeader(width: number, height: number): Uint8Array {
  return Uint8Array.from([
    0x47,
    0x49,
    0x46,
    0x38,
    0x39,
    0x61,
    width & 0xff,
    width >> 8,
    height & 0xff,
    height >> 8,
    0,
    0,
    0,
  ]);
}

describe('imagePlaceholder', () => {
  it('reads PNG dimensions from base64 data and sizes it', () => {
    const bytes = withLength(pngHeader(1280, 800), 312 * 1024);
    expect(
      imagePlaceholder({
        type: 'image',
        data: toBase64(bytes),
        filename: 'shot.png',
        mediaType: 'image/png',
      }),
    ).toBe('[image: shot.png, 1280x800, 312 KB]');
  });

  it('shows the media type when there is no filename', () => {
    const bytes = withLength(pngHeader(64, 32), 48 * 1024);
    expect(imagePlaceholder({ type: 'image', data: toBase64(bytes), mediaType: 'image/png' })).toBe(
      '[image: image/png, 64x32, 48 KB]',
    );
  });

  it('reads dimensions from Uint8Array data', () => {
    const bytes = withLength(pngHeader(300, 200), 2_000);
    expect(imagePlaceholder({ type: 'image', data: bytes, mediaType: 'image/png' })).toBe(
      '[image: image/png, 300x200, 2 KB]',
    );
    expect(imagePlaceholder({ type: 'image', data: withLength(gifHeader(17, 9), 100) })).toBe(
      '[image: 17x9, 100 B]',
    );
  });

  it('reads JPEG dimensions, also when metadata pushes the size far from the start', () => {
    const small = jpegHeader(1024, 768);
    expect(imagePlaceholder({ type: 'image', data: toBase64(small), mediaType: 'image/jpeg' })).toMatch(
      /^\[image: image\/jpeg, 1024x768, \d+ B\]$/,
    );
    const withExif = jpegHeader(4032, 3024, 40_000);
    expect(imagePlaceholder({ type: 'image', data: toBase64(withExif), filename: 'IMG_0001.jpg' })).toBe(
      '[image: IMG_0001.jpg, 4032x3024, 39 KB]',
    );
    expect(imagePlaceholder({ type: 'image', data: withExif })).toBe('[image: 4032x3024, 39 KB]');
  });

  it('prefers given width and height over the header', () => {
    const bytes = withLength(pngHeader(10, 10), 100);
    expect(
      imagePlaceholder({ type: 'image', data: bytes, width: 1280, height: 800, filename: 'a.png' }),
    ).toBe('[image: a.png, 1280x800, 100 B]');
  });

  it('omits unknown dimensions', () => {
    const unreadable = new Uint8Array(48 * 1024).fill(7);
    expect(imagePlaceholder({ type: 'image', data: toBase64(unreadable), mediaType: 'image/png' })).toBe(
      '[image: image/png, 48 KB]',
    );
    expect(imagePlaceholder({ type: 'image', data: '!!!not base64!!!', mediaType: 'image/webp' })).toBe(
      '[image: image/webp, 12 B]',
    );
  });

  it('says just [image] when nothing is known', () => {
    expect(imagePlaceholder({ type: 'image' })).toBe('[image]');
    expect(imagePlaceholder({ type: 'image', data: '' })).toBe('[image]');
  });

  it('uses the file name of a remote URL and decodes data: URLs', () => {
    expect(
      imagePlaceholder({ type: 'image', url: 'https://example.com/img/cat%20photo.png?size=large' }),
    ).toBe('[image: cat photo.png]');
    expect(imagePlaceholder({ type: 'image', url: 'https://example.com/render' })).toBe('[image]');
    const dataUrl = `data:image/png;base64,${toBase64(withLength(pngHeader(5, 6), 3 * 1024))}`;
    expect(imagePlaceholder({ type: 'image', url: dataUrl })).toBe('[image: image/png, 5x6, 3 KB]');
    expect(imagePlaceholder({ type: 'image', data: dataUrl })).toBe('[image: image/png, 5x6, 3 KB]');
  });

  it('describes files: images as images, others as files', () => {
    const png = toBase64(withLength(pngHeader(20, 10), 1_000));
    expect(imagePlaceholder({ type: 'file', data: png, mediaType: 'image/png', filename: 'scan.png' })).toBe(
      '[image: scan.png, 20x10, 1000 B]',
    );
    const pdf = new Uint8Array(1_258_291);
    expect(
      imagePlaceholder({ type: 'file', data: pdf, mediaType: 'application/pdf', filename: 'report.pdf' }),
    ).toBe('[file: report.pdf, 1.2 MB]');
    expect(imagePlaceholder({ type: 'file', mediaType: 'application/pdf' })).toBe('[file: application/pdf]');
  });

  it('keeps the placeholder one well-formed line', () => {
    expect(imagePlaceholder({ type: 'image', filename: 'evil]\nname.png' })).toBe('[image: evil name.png]');
    const long = imagePlaceholder({ type: 'image', filename: `${'😀'.repeat(100)}.png` });
    expect(long.length).toBeLessThan(140);
    expect(long).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            type: fc.constantFrom('image', 'file'),
            data: fc.oneof(fc.string(), fc.uint8Array({ maxLength: 64 }), fc.anything()),
            url: fc.oneof(fc.webUrl(), fc.string(), fc.anything()),
            mediaType: fc.anything(),
            filename: fc.anything(),
            width: fc.anything(),
            height: fc.anything(),
          },
          { requiredKeys: ['type'] },
        ),
        (image) => {
          const placeholder = imagePlaceholder(image as never);
          expect(placeholder).toMatch(/^\[(image|file)(: [^\n\]]*)?\]$/);
        },
      ),
      { numRuns: 300 },
    );
    expect(imagePlaceholder(null as never)).toBe('[image]');
  });
});

describe('byte sizes', () => {
  it('counts base64 bytes without decoding and formats sizes for people', () => {
    expect(base64ByteLength(btoa('abcd'))).toBe(4);
    expect(base64ByteLength(btoa('abcde'))).toBe(5);
    expect(base64ByteLength(btoa('abcdef'))).toBe(6);
    expect(formatByteSize(512)).toBe('512 B');
    expect(formatByteSize(48 * 1024)).toBe('48 KB');
    expect(formatByteSize(3.2 * 1024 * 1024)).toBe('3.2 MB');
    expect(formatByteSize(48 * 1024 * 1024)).toBe('48 MB');
    expect(formatByteSize(Number.POSITIVE_INFINITY)).toBe('unlimited');
  });
});

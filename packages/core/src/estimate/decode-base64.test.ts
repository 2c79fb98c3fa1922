import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64ByteLength, decodeBase64Prefix, parseDataUrl } from './decode-base64';
import { toBase64 } from './image-headers.fixture';

describe('decodeBase64Prefix', () => {
  it('decodes whole base64 text, with or without padding and line breaks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const base64 = toBase64(bytes);
        const wrapped = base64.replace(/(.{76})/g, '$1\r\n');
        return (
          decodeBase64Prefix(base64)!.join() === bytes.join() &&
          decodeBase64Prefix(base64.replace(/=+$/, ''))!.join() === bytes.join() &&
          decodeBase64Prefix(wrapped)!.join() === bytes.join()
        );
      }),
    );
  });

  it('decodes only a prefix when asked, and the URL-safe alphabet', () => {
    const bytes = Uint8Array.from({ length: 3000 }, (_, index) => (index * 7) % 256);
    const prefix = decodeBase64Prefix(toBase64(bytes), 400)!;
    expect(prefix.length).toBe(300);
    expect(prefix.join()).toBe(bytes.subarray(0, 300).join());
    const urlSafe = toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_');
    expect(decodeBase64Prefix(urlSafe)!.join()).toBe(bytes.join());
  });

  it('returns undefined for text that is not base64', () => {
    expect(decodeBase64Prefix('this is not base64!')).toBeUndefined();
  });
});

describe('base64ByteLength', () => {
  it('is the decoded length, without decoding', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const base64 = toBase64(bytes);
        return base64ByteLength(base64) === bytes.length && base64ByteLength(`${base64}\n`) === bytes.length;
      }),
    );
  });
});

describe('parseDataUrl', () => {
  it('splits base64 and percent-encoded data URLs', () => {
    expect(parseDataUrl('data:image/png;base64,AAAA')).toEqual({ mediaType: 'image/png', base64: 'AAAA' });
    const text = parseDataUrl('data:text/plain,hello%20world')!;
    expect(text.mediaType).toBe('text/plain');
    expect(new TextDecoder().decode(text.bytes)).toBe('hello world');
    expect(parseDataUrl('https://example.com/a.png')).toBeUndefined();
    expect(parseDataUrl('data:broken')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { ImagePart } from '../message/message';
import { jpegBytes, pngBytes, toBase64 } from './image-headers.fixture';
import { imageTokens } from './image-tokens';

const sized = (width: number, height: number, fields: Partial<ImagePart> = {}): ImagePart => ({
  type: 'image',
  width,
  height,
  ...fields,
});

describe('imageTokens, anthropic (the default)', () => {
  it('is ceil(w*h/750) for images inside the limits', () => {
    expect(imageTokens(sized(200, 200))).toBe(54);
    expect(imageTokens(sized(1000, 1000))).toBe(1334);
    expect(imageTokens(sized(1092, 1092))).toBe(Math.ceil((1092 * 1092) / 750));
    expect(imageTokens(sized(1, 1))).toBe(1);
  });

  it('scales the long edge down to 1568 px and the area to about 1.2 megapixels', () => {
    // 3000×2000 → 1568×1045 is still 1.64 MP, so it is scaled further, to ≤ 784×1568 px of area.
    const tokens = imageTokens(sized(3000, 2000));
    expect(tokens).toBeGreaterThan(1600);
    expect(tokens).toBeLessThanOrEqual(1640);
    // A long strip: only the edge limit applies. 4000×400 → 1568×156.
    expect(imageTokens(sized(4000, 400))).toBe(Math.ceil((1568 * 156) / 750));
    for (const [width, height] of [
      [8000, 8000],
      [10_000, 50],
      [1568, 1568],
    ] as const) {
      expect(imageTokens(sized(width, height))).toBeLessThanOrEqual(1640);
    }
  });

  it('reads real dimensions from the header when the part does not give them', () => {
    expect(imageTokens({ type: 'image', data: pngBytes(1000, 1000) })).toBe(1334);
    expect(imageTokens({ type: 'image', data: toBase64(jpegBytes(600, 400)) })).toBe(320);
    expect(imageTokens({ type: 'image', url: `data:image/png;base64,${toBase64(pngBytes(750, 100))}` })).toBe(
      100,
    );
  });

  it('uses the provider maximum when the size is unknown', () => {
    expect(imageTokens({ type: 'image', url: 'https://example.com/photo.jpg' })).toBe(1640);
    expect(imageTokens({ type: 'image', data: 'bm90IGFuIGltYWdl' })).toBe(1640);
  });
});

describe('imageTokens, openai', () => {
  const openai = { provider: 'openai' } as const;

  it('matches the published examples', () => {
    // 1024×1024 → 768×768 → 4 tiles.
    expect(imageTokens(sized(1024, 1024), openai)).toBe(85 + 170 * 4);
    // 2048×4096 → fit in 2048² → 1024×2048 → shortest side 768 → 768×1536 → 6 tiles.
    expect(imageTokens(sized(2048, 4096), openai)).toBe(85 + 170 * 6);
    expect(imageTokens(sized(512, 512), openai)).toBe(85 + 170);
    expect(imageTokens(sized(513, 100), openai)).toBe(85 + 170 * 2);
  });

  it('costs 85 at low detail whatever the size', () => {
    expect(imageTokens(sized(4000, 3000, { detail: 'low' }), openai)).toBe(85);
    expect(imageTokens({ type: 'image', url: 'https://example.com/x.png', detail: 'low' }, openai)).toBe(85);
  });

  it('never exceeds 8 tiles, and uses that maximum for unknown sizes', () => {
    expect(imageTokens(sized(2048, 768), openai)).toBe(85 + 170 * 8);
    expect(imageTokens(sized(20_000, 7000), openai)).toBeLessThanOrEqual(85 + 170 * 8);
    expect(imageTokens({ type: 'image', url: 'https://example.com/x.png' }, openai)).toBe(85 + 170 * 8);
  });

  it('reads dimensions from the header', () => {
    expect(imageTokens({ type: 'image', data: toBase64(pngBytes(1024, 1024)) }, openai)).toBe(765);
  });
});

describe('imageTokens, google', () => {
  const google = { provider: 'google' } as const;

  it('costs 258 for images within 384×384, else 258 per 768×768 tile', () => {
    expect(imageTokens(sized(384, 384), google)).toBe(258);
    expect(imageTokens(sized(100, 50), google)).toBe(258);
    expect(imageTokens(sized(385, 100), google)).toBe(258);
    expect(imageTokens(sized(1000, 1000), google)).toBe(258 * 4);
    expect(imageTokens(sized(1536, 769), google)).toBe(258 * 4);
  });

  it('uses four tiles for unknown sizes', () => {
    expect(imageTokens({ type: 'image', url: 'https://example.com/x.webp' }, google)).toBe(1032);
  });
});

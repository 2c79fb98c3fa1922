import { toNeutralMessage } from '@spillway/ai-sdk-prompt';
import { createEstimator } from '@spillway/core';
import { describe, expect, it } from 'vitest';
import { screenshotPng, toBase64 } from '../../test/conversation';

const png = toBase64(screenshotPng(1280, 800, 40_000));

/** The neutral value without the link back to its SDK object (a symbol key `toEqual` would compare). */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

/** A V4 tool message whose one result holds `item`. */
const toolMessage = (item: unknown) => ({
  role: 'tool',
  content: [
    { type: 'tool-result', toolCallId: 'a', toolName: 'shot', output: { type: 'content', value: [item] } },
  ],
});

describe('toNeutralMessage', () => {
  it.each(['image', 'image/*', 'IMAGE'])(
    'reads a V4 file with media type %j (top-level only, as ai 7 writes it) as an image of unknown subtype',
    (mediaType) => {
      const user = toNeutralMessage({
        role: 'user',
        content: [{ type: 'file', mediaType, data: { type: 'url', url: new URL('https://x.test/a.png') } }],
      });
      expect(plain(user.content)).toEqual([{ type: 'image', url: 'https://x.test/a.png' }]);
      const tool = toNeutralMessage(
        toolMessage({ type: 'file', mediaType, data: { type: 'data', data: png } }),
      );
      const [result] = tool.content as unknown as { content: unknown[] }[];
      expect(plain(result!.content)).toEqual([{ type: 'image', data: png }]);
    },
  );

  it('counts a V4 image typed `image` as the image it is, not as an opaque binary file', () => {
    const estimator = createEstimator();
    const typed = estimator.countMessages([
      toNeutralMessage(
        toolMessage({ type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } }),
      ),
    ]);
    const topLevel = estimator.countMessages([
      toNeutralMessage(toolMessage({ type: 'file', mediaType: 'image', data: { type: 'data', data: png } })),
    ]);
    expect(typed).toBeGreaterThan(1_000);
    expect(topLevel).toBe(typed);
  });

  it('keeps the media type of files, full or top-level only', () => {
    const message = toNeutralMessage({
      role: 'user',
      content: [
        { type: 'file', mediaType: 'audio', data: { type: 'data', data: 'AAAA' } },
        { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: 'AAAA' } },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AAAA' } },
      ],
    });
    expect(plain(message.content)).toEqual([
      { type: 'file', mediaType: 'audio', data: 'AAAA' },
      { type: 'file', mediaType: 'application/pdf', data: 'AAAA' },
      { type: 'image', mediaType: 'image/png', data: 'AAAA' },
    ]);
  });
});

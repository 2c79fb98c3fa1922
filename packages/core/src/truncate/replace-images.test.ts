import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  conversationArbitrary,
  deepFreeze,
  expectMessageInvariants,
  pngHeader,
  toBase64,
  withLength,
} from '../../test/truncate-helpers';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { ImagePart, Message, TextPart, ToolResultPart } from '../message/message';
import { replaceImages } from './replace-images';

const screenshot: ImagePart = {
  type: 'image',
  data: toBase64(withLength(pngHeader(1280, 800), 48 * 1024)),
  mediaType: 'image/png',
};

describe('replaceImages', () => {
  const question: TextPart = { type: 'text', text: 'what is wrong here?' };
  const caption: TextPart = { type: 'text', text: 'screenshot of the page' };
  const result: ToolResultPart = {
    type: 'tool-result',
    toolCallId: 'c1',
    toolName: 'screenshot',
    content: [caption, screenshot],
  };
  const messages: Message[] = deepFreeze([
    { role: 'system', content: [{ type: 'text', text: 'sys' }, screenshot] },
    { role: 'user', content: [question, { ...screenshot, filename: 'bug.png' }] },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'screenshot', input: {} }],
    },
    { role: 'tool', content: [result] },
    { role: 'user', content: [{ type: 'text', text: 'and now?' }, screenshot] },
  ]);

  it('leaves non-text parts of a tool result in place (no merge) and can be limited to tool results', () => {
    const opaque = { type: 'opaque' as const, value: { kind: 'citation' } };
    const mixed: Message[] = deepFreeze([
      { role: 'user', content: [question, screenshot] },
      {
        role: 'tool',
        content: [{ ...result, content: [caption, screenshot, opaque] }],
      },
    ]);
    const { messages: output } = replaceImages(mixed, {
      before: Number.POSITIVE_INFINITY,
      toolResultsOnly: true,
    });
    expect(output[0]).toBe(mixed[0]);
    const tool = (output[1]!.content as ToolResultPart[])[0]!;
    expect(tool.content).toEqual([
      caption,
      { type: 'text', text: '[image: image/png, 1280x800, 48 KB]' },
      opaque,
    ]);
  });

  it('replaces images in older user messages and tool results, keeping everything else', () => {
    const { messages: output, records } = replaceImages(messages, { before: 4 });
    expect(output[0]).toBe(messages[0]); // system messages are never changed
    expect(output[2]).toBe(messages[2]);
    expect(output[4]).toBe(messages[4]); // protected window
    const user = output[1]!.content as TextPart[];
    expect(user[0]).toBe(question);
    expect(user[1]).toEqual({ type: 'text', text: '[image: bug.png, 1280x800, 48 KB]' });
    const tool = (output[3]!.content as ToolResultPart[])[0]!;
    expect(tool.toolCallId).toBe('c1');
    expect('isError' in tool).toBe(false);
    // One text part per result where the original had media (Gemini answers one call with one
    // function response per text part).
    expect(tool.content).toEqual([
      { type: 'text', text: 'screenshot of the page\n[image: image/png, 1280x800, 48 KB]' },
    ]);
    expect(records).toEqual([
      {
        kind: 'image',
        messageIndex: 1,
        charsBefore: (screenshot.data as string).length,
        charsAfter: '[image: bug.png, 1280x800, 48 KB]'.length,
      },
      {
        kind: 'image',
        messageIndex: 3,
        toolName: 'screenshot',
        toolCallId: 'c1',
        charsBefore: (screenshot.data as string).length,
        charsAfter: '[image: image/png, 1280x800, 48 KB]'.length,
      },
    ]);
  });

  it('changes nothing when before is 0', () => {
    const { messages: output, records } = replaceImages(messages, { before: 0 });
    expect(records).toEqual([]);
    for (const [index, message] of output.entries()) expect(message).toBe(messages[index]);
  });

  it('replaces non-image files only when asked', () => {
    const pdf = {
      type: 'file' as const,
      data: 'JVBERi0xLjQK',
      mediaType: 'application/pdf',
      filename: 'a.pdf',
    };
    const withPdf: Message[] = deepFreeze([{ role: 'user', content: [pdf] }]);
    expect(replaceImages(withPdf, { before: 1 }).records).toEqual([]);
    const { messages: output } = replaceImages(withPdf, { before: 1, includeFiles: true });
    expect(output[0]!.content).toEqual([{ type: 'text', text: '[file: a.pdf, 9 B]' }]);
  });

  it('treats files typed image/* or a bare image (AI SDK 7) as images', () => {
    for (const mediaType of ['image/png', 'IMAGE', 'image']) {
      const file = { type: 'file' as const, data: 'iVBORw0KGgo=', mediaType, filename: 'shot.png' };
      const messages: Message[] = deepFreeze([{ role: 'user', content: [file] }]);
      const { records } = replaceImages(messages, { before: 1 });
      expect(records.map((record) => record.kind)).toEqual(['image']);
    }
  });

  it('rejects an invalid before', () => {
    expect(() => replaceImages(messages, { before: Number.NaN })).toThrow(InvalidConfigError);
  });

  it('keeps the invariants on generated conversations, and leaves no image before the index', () => {
    let touched = 0;
    fc.assert(
      fc.property(conversationArbitrary, fc.integer({ min: 0, max: 30 }), (generated, before) => {
        const input = deepFreeze(generated);
        const { messages: output, records } = replaceImages(input, { before });
        expectMessageInvariants(input, output, records);
        output.forEach((message, index) => {
          if (index >= before || message.role === 'system' || typeof message.content === 'string') return;
          for (const part of message.content) {
            expect(
              part.type === 'image' || (part.type === 'file' && part.mediaType?.startsWith('image/')),
            ).toBe(false);
            if (part.type === 'tool-result' && Array.isArray(part.content)) {
              expect(part.content.some((inner) => inner.type === 'image')).toBe(false);
            }
          }
        });
        if (records.length > 0) touched++;
      }),
      { numRuns: 200 },
    );
    expect(touched).toBeGreaterThan(20);
  });
});

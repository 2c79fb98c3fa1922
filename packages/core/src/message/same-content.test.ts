import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashMessage } from '../compact/hash-messages';
import type { Message } from './message';
import { sameContent } from './same-content';

/** JSON-like message content, as a server deserializes it. */
const jsonValue = fc.jsonValue({ maxDepth: 4 });
const message = fc.record({
  role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
  content: fc.oneof(fc.string(), fc.array(fc.dictionary(fc.string(), jsonValue), { maxLength: 4 })),
}) as fc.Arbitrary<Message>;

/** Every path to a string or number leaf of `value`. */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string' || typeof value === 'number') return [path];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    leaves(item, [...path, Array.isArray(value) ? Number(key) : key]),
  );
}

describe('sameContent', () => {
  it('holds for a copy made by JSON, with any key order, and then the hashes agree', () => {
    fc.assert(
      fc.property(message, (original) => {
        const copy = JSON.parse(JSON.stringify(original)) as Message;
        const reordered = { content: copy.content, role: copy.role } as Message;
        expect(sameContent(original, copy)).toBe(true);
        expect(sameContent(reordered, original)).toBe(true);
        expect(hashMessage(copy)).toBe(hashMessage(original));
      }),
    );
  });

  it('fails when any string or number anywhere in the content changes', () => {
    fc.assert(
      fc.property(message, fc.nat(), (original, pick) => {
        const paths = leaves(original.content, ['content']);
        fc.pre(paths.length > 0);
        const path = paths[pick % paths.length]!;
        const edited = JSON.parse(JSON.stringify(original)) as Record<string | number, unknown>;
        let holder = edited;
        for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
        const last = path.at(-1)!;
        const leaf = holder[last];
        holder[last] = typeof leaf === 'string' ? `${leaf}x` : leaf === 0 ? 1 : (leaf as number) * 2;
        expect(sameContent(original, edited as unknown as Message)).toBe(false);
        expect(hashMessage(edited as unknown as Message)).not.toBe(hashMessage(original));
      }),
    );
  });

  it('compares roles, extra and missing keys, and array lengths', () => {
    const base: Message = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
    expect(sameContent(base, { role: 'assistant', content: [{ type: 'text', text: 'hi' }] })).toBe(false);
    expect(
      sameContent(base, { role: 'user', content: [{ type: 'text', text: 'hi', extra: 1 } as never] }),
    ).toBe(false);
    expect(sameContent(base, { role: 'user', content: [{ type: 'text' } as never] })).toBe(false);
    expect(
      sameContent(base, {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'hi' },
        ],
      }),
    ).toBe(false);
    // A key present with `undefined` on one side only: different (stricter than the hash, never looser).
    expect(
      sameContent(base, { role: 'user', content: [{ type: 'text', text: 'hi', other: undefined } as never] }),
    ).toBe(false);
    expect(sameContent(base, { role: 'user', content: 'hi' })).toBe(false);
  });

  it('compares bytes, URLs and dates by value, other class instances by identity', () => {
    const image = (bytes: number[], url = 'https://example.com/a.png'): Message => ({
      role: 'user',
      content: [
        { type: 'image', data: new Uint8Array(bytes), mediaType: 'image/png' },
        { type: 'opaque', value: { url: new URL(url), at: new Date(5) } },
      ],
    });
    const bytes = Array.from({ length: 37 }, (_, index) => index);
    expect(sameContent(image(bytes), image(bytes))).toBe(true);
    expect(sameContent(image(bytes), image([...bytes.slice(0, 36), 99]))).toBe(false);
    expect(sameContent(image(bytes), image(bytes, 'https://example.com/b.png'))).toBe(false);
    // Unaligned views are compared byte by byte.
    const buffer = new Uint8Array([0, ...bytes]).subarray(1);
    const unaligned: Message = {
      role: 'user',
      content: [{ type: 'image', data: buffer, mediaType: 'image/png' }],
    };
    const aligned: Message = {
      role: 'user',
      content: [{ type: 'image', data: new Uint8Array(bytes), mediaType: 'image/png' }],
    };
    expect(sameContent(unaligned, aligned)).toBe(true);
    class Box {
      constructor(readonly value: number) {}
    }
    const box = new Box(1);
    const withBox = (value: Box): Message => ({ role: 'user', content: [{ type: 'opaque', value }] });
    expect(sameContent(withBox(box), withBox(box))).toBe(true);
    expect(sameContent(withBox(box), withBox(new Box(1)))).toBe(false);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../message/message';
import { hashMessage, hashMessages } from './hash-messages';

describe('hashMessages', () => {
  it('is the same for equal content in other objects and other key orders', () => {
    const a: Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: '1', toolName: 't', input: { a: 1, b: [2, 3] } }],
    };
    const b = JSON.parse(
      '{"content":[{"input":{"b":[2,3],"a":1},"toolName":"t","toolCallId":"1","type":"tool-call"}],"role":"assistant"}',
    );
    expect(hashMessage(a)).toBe(hashMessage(b));
    expect(hashMessages([a, a])).toBe(hashMessages([b, b]));
  });

  it('differs when content, role, order or count differ', () => {
    const user: Message = { role: 'user', content: 'hello' };
    const other: Message = { role: 'user', content: 'hellp' };
    const assistant: Message = { role: 'assistant', content: 'hello' };
    expect(hashMessage(user)).not.toBe(hashMessage(other));
    expect(hashMessage(user)).not.toBe(hashMessage(assistant));
    expect(hashMessages([user, other])).not.toBe(hashMessages([other, user]));
    expect(hashMessages([user])).not.toBe(hashMessages([user, user]));
    // String boundaries matter: ["ab","c"] vs ["a","bc"].
    const split1: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'ab' },
        { type: 'text', text: 'c' },
      ],
    };
    const split2: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'bc' },
      ],
    };
    expect(hashMessage(split1)).not.toBe(hashMessage(split2));
  });

  it('hashes binary data by its bytes', () => {
    const image = (byte: number): Message => ({
      role: 'user',
      content: [{ type: 'image', data: new Uint8Array([1, 2, byte]), mediaType: 'image/png' }],
    });
    expect(hashMessage(image(3))).toBe(hashMessage(image(3)));
    expect(hashMessage(image(3))).not.toBe(hashMessage(image(4)));
  });

  it('keeps values of different types apart', () => {
    const withInput = (input: unknown): Message => ({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: '1', toolName: 't', input }],
    });
    const inputs = [1, '1', true, 'true', null, 'null', [], {}, [1], { 0: 1 }, [[]], [{}], '', [''], 0];
    const hashes = new Set(inputs.map((input) => hashMessage(withInput(input))));
    expect(hashes.size).toBe(inputs.length);
    // As JSON and === see numbers: -0 is 0.
    expect(hashMessage(withInput(-0))).toBe(hashMessage(withInput(0)));
  });

  it('never collides for two texts that differ in one place', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 300 }),
        fc.nat(),
        fc.integer({ min: 1, max: 0xffff }),
        (text, at, delta) => {
          const index = at % text.length;
          const code = (text.charCodeAt(index) + delta) % 0x10000;
          const other = text.slice(0, index) + String.fromCharCode(code) + text.slice(index + 1);
          expect(hashMessage({ role: 'user', content: other })).not.toBe(
            hashMessage({ role: 'user', content: text }),
          );
        },
      ),
    );
  });

  it('returns 16 hex digits', () => {
    expect(hashMessages([{ role: 'user', content: 'x' }])).toMatch(/^[0-9a-f]{16}$/);
  });
});

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

  it('returns 16 hex digits', () => {
    expect(hashMessages([{ role: 'user', content: 'x' }])).toMatch(/^[0-9a-f]{16}$/);
  });
});

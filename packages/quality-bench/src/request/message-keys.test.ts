import { describe, expect, it } from 'vitest';
import type { RequestMessage } from './bench-request';
import { createMessageKeys, isPrefix } from './message-keys';

describe('message keys', () => {
  it('are equal exactly for byte-identical messages', () => {
    const keyOf = createMessageKeys();
    const message = (text: string, input = '{"path":"a.ts"}'): RequestMessage => ({
      role: 'assistant',
      parts: [
        { type: 'text', text },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input },
      ],
    });
    expect(keyOf(message('hello'))).toBe(keyOf(message(`hel${'lo'}`)));
    expect(keyOf(message('hello'))).not.toBe(keyOf(message('hello ')));
    expect(keyOf(message('hello'))).not.toBe(keyOf(message('hello', '{"path":"b.ts"}')));
    expect(keyOf({ role: 'user', parts: [{ type: 'text', text: 'hello' }] })).not.toBe(
      keyOf({ role: 'system', parts: [{ type: 'text', text: 'hello' }] }),
    );
  });

  it('tell a prefix from a rewrite', () => {
    expect(isPrefix(['a', 'b'], ['a', 'b', 'c'])).toBe(true);
    expect(isPrefix(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(isPrefix(['a', 'x'], ['a', 'b', 'c'])).toBe(false);
    expect(isPrefix(['a', 'b', 'c'], ['a', 'b'])).toBe(false);
  });
});

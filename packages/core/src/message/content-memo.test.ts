import { describe, expect, it } from 'vitest';
import { contentMemo, createContentMemo, setContentMemo } from './content-memo';
import type { Message } from './message';

describe('content memos', () => {
  it('are invisible on the message: no key, no symbol, not copied, not serialized, not compared', () => {
    const message: Message = { role: 'user', content: 'hello' };
    const memo = createContentMemo();
    setContentMemo(message, memo);
    expect(contentMemo(message)).toBe(memo);
    expect(Object.keys(message)).toEqual(['role', 'content']);
    expect(Reflect.ownKeys(message)).toEqual(['role', 'content']);
    expect(JSON.stringify(message)).toBe('{"role":"user","content":"hello"}');
    expect(message).toStrictEqual({ role: 'user', content: 'hello' });
    // A copy is another object: it has no memo until the conversation memo checks it.
    expect(contentMemo({ ...message })).toBeUndefined();
    expect(contentMemo(structuredClone(message))).toBeUndefined();
  });

  it('are replaced and removed', () => {
    const message: Message = { role: 'assistant', content: 'ok' };
    const first = createContentMemo();
    const second = createContentMemo();
    setContentMemo(message, first);
    setContentMemo(message, second);
    expect(contentMemo(message)).toBe(second);
    setContentMemo(message, undefined);
    expect(contentMemo(message)).toBeUndefined();
  });

  it('work on frozen and sealed messages (kept beside them)', () => {
    const frozen = Object.freeze({ role: 'user', content: 'frozen' }) as Message;
    const sealed = Object.seal({ role: 'user', content: 'sealed' }) as Message;
    const memo = createContentMemo();
    setContentMemo(frozen, memo);
    setContentMemo(sealed, memo);
    expect(contentMemo(frozen)).toBe(memo);
    expect(contentMemo(sealed)).toBe(memo);
    expect(Object.isFrozen(frozen)).toBe(true);
    setContentMemo(frozen, undefined);
    expect(contentMemo(frozen)).toBeUndefined();
  });

  it('give every content its own id', () => {
    const ids = new Set(Array.from({ length: 100 }, () => createContentMemo().id));
    expect(ids.size).toBe(100);
  });

  it('ignore values that are not objects', () => {
    expect(contentMemo(null as unknown as Message)).toBeUndefined();
    expect(() => setContentMemo('text' as unknown as Message, createContentMemo())).not.toThrow();
  });
});

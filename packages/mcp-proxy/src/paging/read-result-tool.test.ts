import { describe, expect, it } from 'vitest';
import { readResultPage } from './read-result-tool';
import { ResultStore } from './result-store';

describe('readResultPage', () => {
  const store = new ResultStore();
  const id = store.put('abcdefghij'.repeat(100), 4) as string;

  it('returns the exact slice and the next offset', () => {
    const result = readResultPage({ store, input: { id, offset: 5, length: 10 }, maxTokens: 1000 });
    expect(result.content).toEqual([
      { type: 'text', text: 'fghijabcde' },
      {
        type: 'text',
        text: `[spillway-mcp: characters 5–15 of 1000; next page: {"id":"${id}","offset":15}]`,
      },
    ]);
  });

  it('says when the end is reached', () => {
    const result = readResultPage({ store, input: { id, offset: 990 }, maxTokens: 1000 });
    expect((result.content[1] as { text: string }).text).toContain('this is the end');
  });

  it('answers bad input and unknown ids with an isError result', () => {
    expect(readResultPage({ store, input: { id: 'nope' }, maxTokens: 100 }).isError).toBe(true);
    expect(readResultPage({ store, input: { id, offset: -1 }, maxTokens: 100 }).isError).toBe(true);
    expect(readResultPage({ store, input: undefined, maxTokens: 100 }).isError).toBe(true);
  });
});

describe('ResultStore', () => {
  it('evicts the least recently used entries beyond its character bound', () => {
    const store = new ResultStore({ maxChars: 25 });
    const first = store.put('a'.repeat(10), 4) as string;
    const second = store.put('b'.repeat(10), 4) as string;
    store.get(first);
    store.put('c'.repeat(10), 4);
    expect(store.get(second)).toBeUndefined();
    expect(store.get(first)?.text).toBe('a'.repeat(10));
    expect(store.size).toBeLessThanOrEqual(25);
    expect(store.put('d'.repeat(26), 4)).toBeUndefined();
  });
});

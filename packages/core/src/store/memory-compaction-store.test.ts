import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { CompactionState } from './compaction-state';
import { MemoryCompactionStore } from './memory-compaction-store';

const state = (coveredCount: number): CompactionState => ({
  version: 1,
  summaries: [`summary ${coveredCount}`],
  coveredCount,
  coveredHash: 'abc',
  tokensBefore: 100,
  tokensAfter: 10,
  createdAt: 0,
  compactionCount: 1,
});

describe('MemoryCompactionStore', () => {
  it('returns what was set, per conversation', async () => {
    const store = new MemoryCompactionStore();
    await store.set('a', state(1));
    await store.set('b', state(2));
    expect((await store.get('a'))?.coveredCount).toBe(1);
    expect((await store.get('b'))?.coveredCount).toBe(2);
    expect(await store.get('c')).toBeUndefined();
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
  });

  it('forgets the least recently used conversation first', async () => {
    const store = new MemoryCompactionStore({ maxConversations: 2 });
    await store.set('a', state(1));
    await store.set('b', state(2));
    await store.get('a');
    await store.set('c', state(3));
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBeDefined();
    expect(store.size).toBe(2);
  });

  it('rejects a bad size', () => {
    expect(() => new MemoryCompactionStore({ maxConversations: 0 })).toThrow(InvalidConfigError);
    expect(() => new MemoryCompactionStore({ maxConversations: 1.5 })).toThrow(/maxConversations/);
  });
});

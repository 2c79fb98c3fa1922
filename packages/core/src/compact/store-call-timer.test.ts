import { describe, expect, it } from 'vitest';
import { agentConversation, SUMMARY_ONLY } from '../../test/conversation-fixtures';
import { MemoryCompactionStore } from '../store/memory-compaction-store';
import type { Summarizer } from '../summarize/summarizer';
import type { CompactionEvent } from './compaction-event';
import { createCompactor } from './create-compactor';

const summary: Summarizer = ({ messages }) => `Covered ${messages.length} messages about /srv/app.`;

/** A conversation and a window it fills to ~90% (over the compact threshold). */
function overThreshold() {
  const messages = agentConversation({ turns: 20, toolResultChars: 3000 });
  const contextWindow = Math.floor(createCompactor().estimator.countMessages(messages) / 0.9);
  return { messages, contextWindow };
}

/** A compactor on `store` with a 20 ms limit per store call, one summarizer call per compaction. */
function timedCompactor(store: MemoryCompactionStore, events: CompactionEvent[]) {
  return createCompactor({
    ...SUMMARY_ONLY,
    store,
    summarizer: summary,
    storeTimeoutMs: 20,
    auditIdentifiers: false,
    summarizerMaxInputTokens: 1e6,
    onEvent: (event) => events.push(event),
  });
}

describe('the time limit on store calls (storeTimeoutMs)', () => {
  it('bounds a memory store whose methods were replaced or wrapped, like any other store', async () => {
    // The built-in memory store is called without a timer; one that may wait is not trusted so.
    const replaced = new MemoryCompactionStore();
    replaced.read = () => new Promise<never>(() => {});
    const wrapped = new Proxy(new MemoryCompactionStore(), {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'read') return typeof value === 'function' ? value.bind(target) : value;
        return () => new Promise<never>(() => {});
      },
    });
    const { messages, contextWindow } = overThreshold();
    for (const store of [replaced, wrapped]) {
      const events: CompactionEvent[] = [];
      const compactor = timedCompactor(store, events);
      const prepared = await compactor.prepare(messages, { conversationId: 'slow', contextWindow });
      expect(prepared.tokensAfter).toBeLessThan(contextWindow);
      expect(events.find((event) => event.type === 'store-error')).toMatchObject({
        operation: 'read',
        reason: 'timeout',
      });
    }
  });

  it('calls the built-in memory store as it is without one, and still reads what it wrote', async () => {
    const store = new MemoryCompactionStore();
    const { messages, contextWindow } = overThreshold();
    const events: CompactionEvent[] = [];
    const first = await timedCompactor(store, events).prepare(messages, {
      conversationId: 'fast',
      contextWindow,
    });
    expect(first.stateChanged).toBe(true);
    // Another compactor on the same store applies the summary the first one wrote.
    const second = await timedCompactor(store, events).prepare(messages, {
      conversationId: 'fast',
      contextWindow,
    });
    expect(second.actions).toContain('apply-summary');
    expect(events.filter((event) => event.type === 'store-error')).toHaveLength(0);
  });
});

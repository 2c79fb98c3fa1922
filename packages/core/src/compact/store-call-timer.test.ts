import { describe, expect, it } from 'vitest';
import { agentConversation, SUMMARY_ONLY } from '../../test/conversation-fixtures';
import { MemoryCompactionStore } from '../store/memory-compaction-store';
import type { Summarizer } from '../summarize/summarizer';
import type { CompactionEvent } from './compaction-event';
import { createCompactor } from './create-compactor';

const summary: Summarizer = ({ messages }) => `Covered ${messages.length} messages about /srv/app.`;

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
    const messages = agentConversation({ turns: 20, toolResultChars: 3000 });
    const contextWindow = Math.floor(createCompactor().estimator.countMessages(messages) / 0.9);
    for (const store of [replaced, wrapped]) {
      const events: CompactionEvent[] = [];
      const compactor = createCompactor({
        ...SUMMARY_ONLY,
        store,
        summarizer: summary,
        storeTimeoutMs: 20,
        auditIdentifiers: false,
        summarizerMaxInputTokens: 1e6,
        onEvent: (event) => events.push(event),
      });
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
    const messages = agentConversation({ turns: 20, toolResultChars: 3000 });
    const contextWindow = Math.floor(createCompactor().estimator.countMessages(messages) / 0.9);
    const events: CompactionEvent[] = [];
    const options = {
      ...SUMMARY_ONLY,
      store,
      summarizer: summary,
      storeTimeoutMs: 20,
      auditIdentifiers: false,
      summarizerMaxInputTokens: 1e6,
      onEvent: (event: CompactionEvent) => events.push(event),
    };
    const first = await createCompactor(options).prepare(messages, { conversationId: 'fast', contextWindow });
    expect(first.stateChanged).toBe(true);
    // Another compactor on the same store applies the summary the first one wrote.
    const second = await createCompactor(options).prepare(messages, {
      conversationId: 'fast',
      contextWindow,
    });
    expect(second.actions).toContain('apply-summary');
    expect(events.filter((event) => event.type === 'store-error')).toHaveLength(0);
  });
});

import { describe, expect, it } from 'vitest';
import { agentConversation } from '../../test/conversation-fixtures';
import { createEstimator } from '../estimate/create-estimator';
import { compactMessages } from './compact-messages';
import type { CompactionEvent } from './compaction-event';

/** About 200K tokens of an agent session: over any 128K window's threshold. */
const messages = agentConversation({ turns: 40, toolCallsPerTurn: 2, toolResultChars: 10_000 });

describe('compactMessages: the window from the model, or said to be unknown', () => {
  it('looks the window up from `model` when `contextWindow` is not given', async () => {
    expect(createEstimator().countMessages(messages)).toBeGreaterThan(128_000);
    const result = await compactMessages(messages, { model: 'gpt-4o' });
    expect(result.actions.length).toBeGreaterThan(0);
    expect(result.tokensAfter).toBeLessThanOrEqual(128_000 * 0.85);
  });

  it('an option wins over the table', async () => {
    const result = await compactMessages(messages, { model: 'gpt-4o', contextWindow: 1_000_000 });
    expect(result.tokensAfter).toBe(result.tokensBefore);
  });

  it('an unknown window compacts nothing and says so with `context-window-unknown`', async () => {
    const events: CompactionEvent[] = [];
    const result = await compactMessages(messages, {
      model: 'my-private-deployment',
      conversationId: 'c',
      onEvent: (event) => events.push(event),
    });
    expect(result.tokensAfter).toBe(result.tokensBefore);
    expect(events).toContainEqual({
      type: 'context-window-unknown',
      conversationId: 'c',
      model: 'my-private-deployment',
    });
  });
});

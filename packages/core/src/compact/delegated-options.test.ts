import { describe, expect, it } from 'vitest';
import { agentConversation } from '../../test/conversation-fixtures';
import { createCompactor } from './create-compactor';

describe('delegated requests (the provider manages the context)', () => {
  const messages = agentConversation({ turns: 30, toolResultChars: 3000 });

  it('between the compact and the emergency threshold: sent as it is, no summary', async () => {
    let calls = 0;
    const compactor = createCompactor({ summarizer: () => `Summary ${++calls}.` });
    const tokens = compactor.estimator.countMessages(messages);
    const contextWindow = Math.ceil(tokens / 0.9);
    const delegated = await compactor.prepare(messages, {
      conversationId: 'd',
      contextWindow,
      delegated: true,
    });
    for (const [index, message] of delegated.messages.entries()) expect(message).toBe(messages[index]);
    await compactor.afterResponse(messages, { conversationId: 'd', contextWindow, delegated: true });
    await compactor.idle();
    expect(calls).toBe(0);
    // The same request without delegation is reduced locally.
    const local = await compactor.prepare(messages, { conversationId: 'l', contextWindow });
    expect(local.actions.length).toBeGreaterThan(0);
  });

  it('over the window: reduced locally so it fits, still without a summary', async () => {
    let calls = 0;
    const compactor = createCompactor({ summarizer: () => `Summary ${++calls}.` });
    const contextWindow = Math.ceil(compactor.estimator.countMessages(messages) / 1.5);
    const result = await compactor.prepare(messages, { conversationId: 'o', contextWindow, delegated: true });
    expect(result.estimatedTokens).toBeLessThanOrEqual(contextWindow * 0.95);
    expect(result.actions).not.toContain('summarize');
    expect(calls).toBe(0);
  });
});

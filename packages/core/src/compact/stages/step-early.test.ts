import { describe, expect, it } from 'vitest';
import { agentConversation } from '../../../test/conversation-fixtures';
import type { Message } from '../../message/message';
import { createCompactor } from '../create-compactor';
import { requestBudget } from '../request-budget';
import { resolveCompactionOptions } from '../resolve-compaction-options';

/** What a step at the compact threshold frees at least, as a share of the window (85% → 28%). */
function stepShare(): number {
  const budget = requestBudget(1, resolveCompactionOptions({}));
  return budget.compactTokens - budget.reductionTargetTokens;
}

const userTexts = (messages: readonly Message[]) =>
  messages.filter((message) => message.role === 'user').map((message) => message.content as string);

describe('an early step (before the compact threshold)', () => {
  const session = agentConversation({ turns: 40, toolResultChars: 6000 });

  it('is taken where clearing old tool output frees as much as a step at the threshold', async () => {
    let calls = 0;
    const compactor = createCompactor({ summarizer: () => `Summary ${++calls}.` });
    const tokens = compactor.estimator.countMessages(session);
    const contextWindow = Math.ceil(tokens / 0.75);
    const result = await compactor.prepare(session, { conversationId: 'early', contextWindow });
    const sent = compactor.estimator.countMessages(result.messages);
    expect(sent).toBeLessThanOrEqual(tokens - stepShare() * contextWindow);
    expect(calls).toBe(0);
    // Only tool output went: every word of the dialogue is still there.
    const texts = result.messages.map((message) => JSON.stringify(message.content)).join('\n');
    for (const text of userTexts(session)) expect(texts).toContain(text);
    // The next request keeps the level reached: the prefix stays as it was.
    const next = [
      ...session,
      ...agentConversation({ turns: 1, toolResultChars: 6000, system: false, seed: 9 }),
    ];
    const again = await compactor.prepare(next, { conversationId: 'early', contextWindow });
    expect(again.messages.slice(0, result.messages.length - 1)).toEqual(result.messages.slice(0, -1));
  });

  it('is not taken where no step could free that much yet: the request is sent as it is', async () => {
    const compactor = createCompactor({ summarizer: () => 'Summary.' });
    const tokens = compactor.estimator.countMessages(session);
    // At 55% of the window, even clearing every old result cannot free 57% of it.
    const contextWindow = Math.ceil(tokens / 0.55);
    const result = await compactor.prepare(session, { conversationId: 'under', contextWindow });
    for (const [index, message] of result.messages.entries()) expect(message).toBe(session[index]);
  });

  it('is not taken where the dialogue itself is most of the request', async () => {
    const chat: Message[] = [{ role: 'system', content: 'You are an agent.' }];
    for (let turn = 0; turn < 60; turn++) {
      chat.push(
        {
          role: 'user',
          content: `Turn ${turn}: ${'we settled the plan for the billing service. '.repeat(30)}`,
        },
        {
          role: 'assistant',
          content: `Noted ${turn}: ${'the plan stands as agreed with the team. '.repeat(30)}`,
        },
      );
    }
    const compactor = createCompactor({ summarizer: () => 'Summary.' });
    const contextWindow = Math.ceil(compactor.estimator.countMessages(chat) / 0.8);
    const result = await compactor.prepare(chat, { conversationId: 'chat', contextWindow });
    for (const [index, message] of result.messages.entries()) expect(message).toBe(chat[index]);
  });
});

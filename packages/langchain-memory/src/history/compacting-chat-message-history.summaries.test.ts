import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { extractiveSummarizer } from '@spillway/core';
import { expect, test } from 'vitest';
import { createSummaryModel } from '../../test/agent-session';
import { turnText } from '../../test/chat-turns';
import { CompactingChatMessageHistory } from './compacting-chat-message-history';

/**
 * Who writes the history's summaries and when: compact() summarizes now and says what it did, and a
 * chat model given as model sizes the window from its profile and writes the summaries itself.
 */

test('compact() summarizes now and returns what it did; the stored messages stay', async () => {
  const history = new CompactingChatMessageHistory({
    conversationId: 'test-4',
    history: new InMemoryChatMessageHistory(),
    contextWindow: 8000,
    summarizer: extractiveSummarizer,
  });
  expect((await history.compact()).compacted).toBe(false);
  for (let turn = 0; turn < 10; turn++) {
    await history.addMessages([new HumanMessage(turnText(turn)), new AIMessage(`Answer ${turn}.`)]);
  }
  expect(await history.getMessages()).toHaveLength(20);
  const result = await history.compact();
  expect(result).toMatchObject({ compacted: true });
  expect(result.coveredCount).toBeGreaterThan(0);
  expect(result.state?.coveredCount).toBe(result.coveredCount);
  expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
  expect(result.messages[0]!.text).toMatch(/^Summary of the earlier conversation/);
  expect(await history.getMessages()).toEqual(result.messages);
  expect(await history.getOriginalMessages()).toHaveLength(20);
  expect((await history.getCompactionState())?.coveredCount).toBe(result.coveredCount);
});

test('a chat model given as model sizes the window from its profile and writes the summaries', async () => {
  const summaryModel = createSummaryModel();
  Object.defineProperty(summaryModel, 'profile', { value: { maxInputTokens: 3000 } });
  const history = new CompactingChatMessageHistory({
    conversationId: 'test-5',
    history: new InMemoryChatMessageHistory(),
    model: summaryModel,
  });
  expect(history.contextWindow).toBe(3000);
  for (let turn = 0; turn < 12; turn++) {
    await history.addMessages([new HumanMessage(turnText(turn)), new AIMessage(`Answer ${turn}.`)]);
  }
  await history.compactor.idle(); // the summary is made in the background, after an answer
  const view = await history.getMessages();
  expect(view[0]!.text).toContain('The user asked to read');
  expect(summaryModel.callCount).toBeGreaterThan(0);
});

import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { type CompactionEvent, extractiveSummarizer } from '@spillway/core';
import { expect, test } from 'vitest';
import { gatedSummarizer, stillPendingAfter, summaryStartedBy } from '../../test/background-work';
import { turnText, WINDOW } from '../../test/chat-turns';
import { CompactingChatMessageHistory } from './compacting-chat-message-history';

/**
 * waitUntil (for serverless hosts): it is handed the summary an answer starts in the background and
 * settles once the summary is stored; one that throws never fails the write, a compaction-failed
 * event instead.
 */

test('waitUntil is handed the background summary an answer starts: it settles once the summary is stored', async () => {
  const { summarizer, summaryModel, called, open } = gatedSummarizer();
  const kept: Promise<unknown>[] = [];
  const history = new CompactingChatMessageHistory({
    conversationId: 'serverless',
    history: new InMemoryChatMessageHistory(),
    contextWindow: WINDOW,
    summarizer,
    waitUntil: (promise) => void kept.push(promise),
  });
  let turn = 0;
  let summarizing = false;
  while (!summarizing && turn < 30) {
    await history.addMessages([new HumanMessage(turnText(turn)), new AIMessage(`Answer ${turn}.`)]);
    turn++;
    summarizing = await summaryStartedBy(kept.at(-1), called);
  }
  expect(summarizing).toBe(true);
  // One promise per stored answer, handed over before the write returned.
  expect(kept).toHaveLength(turn);
  const work = kept.at(-1)!;
  expect(await stillPendingAfter(work, 50)).toBe(true);
  expect(history.compactor.isCompacting('serverless')).toBe(true);
  expect(await history.getCompactionState()).toBeUndefined();

  open();
  await work;
  expect(history.compactor.isCompacting('serverless')).toBe(false);
  expect(summaryModel.callCount).toBeGreaterThan(0);
  expect((await history.getCompactionState())?.coveredCount).toBeGreaterThan(0);
  expect((await history.getMessages())[0]!.text).toContain('The user asked to read');
});

test('a throwing waitUntil never fails the write: a compaction-failed event instead', async () => {
  const events: CompactionEvent[] = [];
  const history = new CompactingChatMessageHistory({
    conversationId: 'serverless-throws',
    history: new InMemoryChatMessageHistory(),
    contextWindow: WINDOW,
    summarizer: extractiveSummarizer,
    waitUntil: () => {
      throw new Error('waitUntil called outside a request context');
    },
    onEvent: (event) => events.push(event),
  });
  await history.addMessages([new HumanMessage('hi'), new AIMessage('hello')]);
  await history.addMessage(new HumanMessage('again')); // no answer: no background work
  expect(await history.getOriginalMessages()).toHaveLength(3);
  const failed = events.filter((event) => event.type === 'compaction-failed');
  expect(failed).toHaveLength(1);
  expect(failed[0]).toMatchObject({
    conversationId: 'serverless-throws',
    reason: 'background',
    fallback: 'none',
  });
});

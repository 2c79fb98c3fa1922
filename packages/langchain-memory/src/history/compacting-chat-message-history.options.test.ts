import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { InvalidConfigError } from '@spillway/core';
import { expect, test } from 'vitest';
import { CompactingChatMessageHistory } from './compacting-chat-message-history';

/** Checking the history's options: a bad one throws InvalidConfigError naming it and the accepted range. */

test('bad options throw InvalidConfigError naming the option and the accepted range', () => {
  const base = { history: new InMemoryChatMessageHistory() };
  const cases: [Record<string, unknown>, RegExp][] = [
    [
      { ...base, contextWindow: -1 },
      /"contextWindow": must be a whole number of tokens, 1 or more \(got -1\)/,
    ],
    [{ ...base, contextWindow: Number.NaN }, /"contextWindow".*got NaN/],
    [{ ...base, contextWindow: '16000' }, /"contextWindow".*got "16000"/],
    [{ ...base, contextWindow: Number.POSITIVE_INFINITY }, /"contextWindow"/],
    [{ ...base, contextWindows: { 'my-model': 0 } }, /"contextWindows.my-model"/],
    [{ ...base, model: {} }, /"model"/],
    [{ ...base, conversationId: '' }, /"conversationId".*non-empty string/],
    [{ ...base, templateTokens: Number.NaN }, /"templateTokens"/],
    [{ ...base, inputTokens: -1 }, /"inputTokens".*0 or more/],
    [{ ...base, tokenCounter: 42 }, /"tokenCounter"/],
    [{ ...base, waitUntil: 'later' }, /"waitUntil".*function/],
    [{ ...base, store: {} }, /"store".*CompactionStore/],
    [{ ...base, summaryPlacement: 'middle' }, /"summaryPlacement"/],
    [{ history: undefined }, /"history".*BaseChatMessageHistory/],
    [{ history: [] }, /"history"/],
  ];
  for (const [options, message] of cases) {
    const construct = () => new CompactingChatMessageHistory(options as never);
    expect(construct).toThrow(InvalidConfigError);
    expect(construct).toThrow(message);
  }
});

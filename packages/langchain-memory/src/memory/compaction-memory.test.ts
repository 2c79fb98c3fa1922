import { ConversationChain } from '@langchain/classic/chains';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { extractiveSummarizer } from '@spillway/core';
import { expect, test } from 'vitest';
import { promptTokens } from '../../test/agent-session';
import { CompactionMemory } from './compaction-memory';

const WINDOW = 3000;

test('in a classic ConversationChain: the prompt carries a summary and stays in the window', async () => {
  // fakeModel leaves the generation text empty, which classic chains read; FakeListChatModel does not.
  const model = new FakeListChatModel({
    responses: Array.from({ length: 30 }, (_, turn) => `Noted item ${turn}. ${'More words. '.repeat(30)}`),
  });
  const prompts: BaseMessage[][] = [];
  const callbacks = [
    { handleChatModelStart: (_llm: unknown, messages: BaseMessage[][]) => void prompts.push(messages[0]!) },
  ];
  const memory = new CompactionMemory({ contextWindow: WINDOW, summarizer: extractiveSummarizer });
  const chain = new ConversationChain({ llm: model, memory });
  for (let turn = 0; turn < 30; turn++) {
    const input = `Remember item ${turn}: /data/item-${turn}.csv ${'padding '.repeat(40)}`;
    const result = await chain.invoke({ input }, { callbacks });
    expect(result.response).toContain(`Noted item ${turn}.`);
  }
  expect(prompts).toHaveLength(30);
  const originals = await memory.chatHistory.getOriginalMessages();
  expect(originals).toHaveLength(60);
  expect(promptTokens(originals)).toBeGreaterThan(WINDOW * 1.5);
  for (const prompt of prompts) expect(promptTokens(prompt)).toBeLessThan(WINDOW);
  const lastPrompt = prompts
    .at(-1)!
    .map((message) => message.text)
    .join('\n');
  expect(lastPrompt).toContain('Summary of the earlier conversation');
  expect(lastPrompt).toContain('/data/item-0.csv');
  expect(lastPrompt).toContain('Remember item 29');
});

test('loadMemoryVariables: a transcript under memoryKey, or messages with returnMessages', async () => {
  const memory = new CompactionMemory({ memoryKey: 'chat_history', humanPrefix: 'User', aiPrefix: 'Bot' });
  await memory.saveContext({ question: 'Hi there' }, { answer: 'Hello!' });
  expect(memory.memoryKeys).toEqual(['chat_history']);
  expect(await memory.loadMemoryVariables({})).toEqual({ chat_history: 'User: Hi there\nBot: Hello!' });

  const asMessages = new CompactionMemory({ returnMessages: true });
  await asMessages.saveContext({ input: 'a' }, { output: 'b' });
  const { history } = await asMessages.loadMemoryVariables({});
  expect(HumanMessage.isInstance(history[0])).toBe(true);
  expect(AIMessage.isInstance(history[1])).toBe(true);
  await asMessages.clear();
  expect((await asMessages.loadMemoryVariables({})).history).toEqual([]);
});

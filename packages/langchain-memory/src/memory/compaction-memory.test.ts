import { ConversationChain } from '@langchain/classic/chains';
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { ContextOverflowError, extractiveSummarizer, InvalidConfigError } from '@spillway/core';
import { expect, test } from 'vitest';
import { promptTokens, rolesAlternate } from '../../test/agent-session';
import { gatedSummarizer, stillPendingAfter, summaryStartedBy } from '../../test/background-work';
import { WindowedListChatModel } from '../../test/windowed-list-model';
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
  const memory = new CompactionMemory({
    conversationId: 'memory-1',
    contextWindow: WINDOW,
    summarizer: extractiveSummarizer,
  });
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
  const memory = new CompactionMemory({
    conversationId: 'memory-2',
    memoryKey: 'chat_history',
    humanPrefix: 'User',
    aiPrefix: 'Bot',
  });
  await memory.saveContext({ question: 'Hi there' }, { answer: 'Hello!' });
  expect(memory.memoryKeys).toEqual(['chat_history']);
  expect(await memory.loadMemoryVariables({})).toEqual({ chat_history: 'User: Hi there\nBot: Hello!' });

  const asMessages = new CompactionMemory({ conversationId: 'memory-3', returnMessages: true });
  await asMessages.saveContext({ input: 'a' }, { output: 'b' });
  const { history } = await asMessages.loadMemoryVariables({});
  expect(HumanMessage.isInstance(history[0])).toBe(true);
  expect(AIMessage.isInstance(history[1])).toBe(true);
  await asMessages.clear();
  expect((await asMessages.loadMemoryVariables({})).history).toEqual([]);
});

const SYSTEM_PROMPT = 'You are a meticulous archivist. Confirm each item in one sentence.';

/** Input of turn `turn`: mostly short, every fifth one large (a pasted document). */
function archiveInput(turn: number): string {
  const size = turn % 5 === 4 ? 260 : 25;
  return `Remember item ${turn}: /data/item-${turn}.csv ${'row of pasted data, '.repeat(size)}`;
}

test('ConversationChain with large inputs: 40 of 40 turns fit the window and are stored', async () => {
  const model = new WindowedListChatModel({
    contextWindow: WINDOW,
    responses: Array.from({ length: 40 }, (_, turn) => `Noted item ${turn}. ${'More words. '.repeat(20)}`),
  });
  const memory = new CompactionMemory({
    conversationId: 'memory-4',
    contextWindow: WINDOW,
    summarizer: extractiveSummarizer,
  });
  const chain = new ConversationChain({ llm: model, memory });
  let failed = 0;
  for (let turn = 0; turn < 40; turn++) {
    try {
      await chain.invoke({ input: archiveInput(turn) });
    } catch {
      failed++;
    }
  }
  expect(failed).toBe(0);
  expect(model.rejected).toBe(0);
  for (const prompt of model.prompts) expect(promptTokens(prompt)).toBeLessThan(WINDOW);
  expect(await memory.chatHistory.getOriginalMessages()).toHaveLength(80);
  expect(
    model.prompts
      .at(-1)!
      .map((message) => message.text)
      .join('\n'),
  ).toContain('Remember item 39');
});

test('ConversationChain with a ChatPromptTemplate of its own: one system message, first; roles alternate; the llm writes the summary', async () => {
  const model = new WindowedListChatModel({
    contextWindow: WINDOW,
    responses: Array.from({ length: 30 }, (_, turn) => `Noted item ${turn}. ${'More words. '.repeat(20)}`),
  });
  const summaryModel = new FakeListChatModel({
    responses: ['The user asked to remember items with their CSV paths, /data/item-0.csv onwards.'],
  });
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', SYSTEM_PROMPT],
    new MessagesPlaceholder('history'),
    ['human', '{input}'],
  ]);
  // `llm`, as LangChain's summary memories call it: the summaries are written by this model.
  const memory = new CompactionMemory({
    conversationId: 'memory-5',
    contextWindow: WINDOW,
    returnMessages: true,
    llm: summaryModel,
  });
  const chain = new ConversationChain({ llm: model, memory, prompt });
  for (let turn = 0; turn < 30; turn++) await chain.invoke({ input: archiveInput(turn) });
  expect(model.rejected).toBe(0);
  for (const sent of model.prompts) {
    expect(sent[0]!.text).toBe(SYSTEM_PROMPT);
    expect(sent.filter((message) => SystemMessage.isInstance(message))).toHaveLength(1);
    expect(rolesAlternate(sent.slice(1))).toBe(true);
  }
  const last = model.prompts.at(-1)!;
  expect(last[1]!.text).toMatch(/^Summary of the earlier conversation/);
  expect(last[1]!.text).toContain('/data/item-0.csv onwards');
  expect(last.at(-1)!.text).toBe(archiveInput(29));
});

test('an input that cannot fit fails before the model is called, and nothing stored is lost', async () => {
  const model = new WindowedListChatModel({ contextWindow: WINDOW, responses: ['ok', 'ok', 'ok'] });
  const memory = new CompactionMemory({
    conversationId: 'memory-6',
    contextWindow: WINDOW,
    summarizer: extractiveSummarizer,
  });
  const chain = new ConversationChain({ llm: model, memory });
  await chain.invoke({ input: 'First question.' });
  const before = await memory.chatHistory.getOriginalMessages();
  const huge = `Please read this: ${'a very long pasted document '.repeat(1500)}`;
  const error = await chain.invoke({ input: huge }).catch((caught: unknown) => caught);
  expect(ContextOverflowError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ contextWindow: WINDOW });
  expect((error as ContextOverflowError).tokenCount).toBeGreaterThan(WINDOW);
  expect(model.prompts).toHaveLength(1);
  expect(await memory.chatHistory.getOriginalMessages()).toEqual(before);
  // The conversation goes on.
  await chain.invoke({ input: 'Second question.' });
  expect(await memory.chatHistory.getOriginalMessages()).toHaveLength(4);
});

test('compact() compacts now, in LangChain messages, and says what it did', async () => {
  const memory = new CompactionMemory({
    conversationId: 'memory-7',
    contextWindow: 16_000,
    returnMessages: true,
  });
  for (let turn = 0; turn < 12; turn++) {
    await memory.saveContext({ input: archiveInput(turn) }, { output: `Noted item ${turn}.` });
  }
  const untouched = (await memory.loadMemoryVariables({ input: 'next' })).history as BaseMessage[];
  expect(untouched).toHaveLength(24);
  const result = await memory.compact();
  expect(result.compacted).toBe(true);
  expect(result.newlyCoveredCount).toBe(result.coveredCount);
  expect(result.coveredCount).toBeGreaterThan(0);
  expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
  expect(result.messages[0]!.text).toMatch(/^Summary of the earlier conversation/);
  const after = (await memory.loadMemoryVariables({ input: 'next' })).history as BaseMessage[];
  expect(after.map((message) => message.text)).toEqual(result.messages.map((message) => message.text));
  expect(await memory.chatHistory.getOriginalMessages()).toHaveLength(24);
  // Nothing older than the kept window now: a second call does nothing new.
  const again = await memory.compact();
  expect(again.newlyCoveredCount).toBe(0);
});

test('bad options throw InvalidConfigError naming the option and the accepted range', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ contextWindow: -1 }, /"contextWindow".*whole number of tokens, 1 or more.*-1/],
    [{ contextWindow: Number.NaN }, /"contextWindow".*got NaN/],
    [{ contextWindow: '16000' }, /"contextWindow".*got "16000"/],
    [{ memoryKey: '' }, /"memoryKey".*non-empty string/],
    [{ returnMessages: 'yes' }, /"returnMessages".*true or false/],
    [{ templateTokens: -5 }, /"templateTokens".*0 or more/],
    [{ chatHistory: {} }, /"chatHistory".*BaseChatMessageHistory/],
    [{ llm: {} }, /"llm": must be a chat model \(with invoke\) or a model string \(got an object\)/],
    [{ model: {} }, /"model"/],
    [{ llm: 'openai:gpt-4.1-mini', model: 'openai:gpt-4.1' }, /"llm"/],
    [{ thresholds: { compact: 1.5 } }, /"thresholds.compact"/],
  ];
  for (const [options, message] of cases) {
    const construct = () => new CompactionMemory(options as never);
    expect(construct).toThrow(InvalidConfigError);
    expect(construct).toThrow(message);
  }
});

test('a bad summary model is reported under the name it was given by: llm or model', () => {
  const thrown = (options: Record<string, unknown>) => {
    try {
      new CompactionMemory(options as never);
    } catch (error) {
      return error;
    }
    return undefined;
  };
  const fromLlm = thrown({ llm: 42 });
  expect(InvalidConfigError.isInstance(fromLlm)).toBe(true);
  expect(fromLlm).toMatchObject({ option: 'llm', value: 42 });
  expect((fromLlm as Error).message).toMatch(/^Invalid option "llm"/);
  expect(thrown({ model: 42 })).toMatchObject({ option: 'model', value: 42 });
  // Both given and the same value: one model, reported as `model`.
  expect(thrown({ llm: 42, model: 42 })).toMatchObject({ option: 'model', value: 42 });
});

test('in a ConversationChain, waitUntil is handed the background summary a turn starts', async () => {
  const { summarizer, called, open } = gatedSummarizer();
  const kept: Promise<unknown>[] = [];
  const model = new WindowedListChatModel({
    contextWindow: WINDOW,
    responses: Array.from({ length: 30 }, (_, turn) => `Noted item ${turn}.`),
  });
  const memory = new CompactionMemory({
    conversationId: 'memory-serverless',
    contextWindow: WINDOW,
    summarizer,
    waitUntil: (promise) => void kept.push(promise),
  });
  const chain = new ConversationChain({ llm: model, memory });
  let turn = 0;
  let summarizing = false;
  while (!summarizing && turn < 30) {
    await chain.invoke({ input: archiveInput(turn++) });
    summarizing = await summaryStartedBy(kept.at(-1), called);
  }
  expect(summarizing).toBe(true);
  expect(kept).toHaveLength(turn);
  const work = kept.at(-1)!;
  expect(await stillPendingAfter(work, 50)).toBe(true);
  expect(await memory.chatHistory.getCompactionState()).toBeUndefined();
  open();
  await work;
  expect((await memory.chatHistory.getCompactionState())?.coveredCount).toBeGreaterThan(0);
  expect(model.rejected).toBe(0);
});

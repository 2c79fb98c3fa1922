import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import {
  type CompactionEvent,
  ContextOverflowError,
  extractiveSummarizer,
  InvalidConfigError,
} from '@spillway/core';
import { fakeModel } from 'langchain';
import { expect, test } from 'vitest';
import { createSummaryModel, promptTokens, rolesAlternate, seededRandom } from '../../test/agent-session';
import { gatedSummarizer, stillPendingAfter, summaryStartedBy } from '../../test/background-work';
import { WindowedListChatModel } from '../../test/windowed-list-model';
import { CompactingChatMessageHistory } from './compacting-chat-message-history';

const WINDOW = 4000;

function turnText(turn: number): string {
  return `Turn ${turn}: tell me about /docs/topic-${turn}.md. ${'Some context about the topic. '.repeat(40)}`;
}

test('under RunnableWithMessageHistory: prompts stay in the window, every turn is stored exactly once', async () => {
  const model = fakeModel();
  for (let turn = 0; turn < 40; turn++)
    model.respond(new AIMessage(`Answer ${turn}: ${'detail '.repeat(60)}`));
  const stored = new InMemoryChatMessageHistory();
  const summaryModel = createSummaryModel();
  const history = new CompactingChatMessageHistory({
    history: stored,
    conversationId: 'session-1',
    contextWindow: WINDOW,
    model: summaryModel,
  });
  const chain = new RunnableWithMessageHistory({ runnable: model, getMessageHistory: () => history });
  for (let turn = 0; turn < 40; turn++) {
    await chain.invoke([new HumanMessage(turnText(turn))], { configurable: { sessionId: 'session-1' } });
  }
  const originals = await history.getOriginalMessages();
  expect(originals).toHaveLength(80);
  originals.forEach((message, index) => {
    const turn = Math.floor(index / 2);
    expect(message.text.startsWith(index % 2 === 0 ? `Turn ${turn}:` : `Answer ${turn}:`)).toBe(true);
  });
  expect(promptTokens(originals)).toBeGreaterThan(WINDOW * 3);
  for (const call of model.calls) expect(promptTokens(call.messages)).toBeLessThan(WINDOW);
  const last = model.calls.at(-1)!.messages;
  // The summary opens the first user turn: no system message, roles alternate.
  expect(last.some((message) => SystemMessage.isInstance(message))).toBe(false);
  expect(HumanMessage.isInstance(last[0]!)).toBe(true);
  expect(last[0]!.text).toMatch(/^Summary of the earlier conversation/);
  expect(rolesAlternate(last)).toBe(true);
  expect(last.at(-1)!.text).toBe(turnText(39));
  expect(summaryModel.callCount).toBeGreaterThan(0);
  expect((await history.getCompactionState())?.coveredCount).toBeGreaterThan(0);
});

const SYSTEM_PROMPT = 'You are a patient tutor. Answer in two sentences.';

/** A question of about `words` words naming `/docs/topic-{turn}.md`. */
function question(turn: number, words: number): string {
  return `Turn ${turn}: about /docs/topic-${turn}.md, ${'some more context '.repeat(Math.ceil(words / 3))}?`;
}

test('RunnableWithMessageHistory + ChatPromptTemplate with its own system prompt: every prompt fits, one system message first, roles alternate', async () => {
  const random = seededRandom(11);
  const sizes = Array.from({ length: 40 }, () => Math.floor(30 + random() * 450));
  const model = new WindowedListChatModel({
    contextWindow: WINDOW,
    responses: sizes.map((_, turn) => `Answer ${turn}: ${'detail '.repeat(80)}`),
  });
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', SYSTEM_PROMPT],
    new MessagesPlaceholder('history'),
    ['human', '{question}'],
  ]);
  const summaryModel = createSummaryModel();
  const history = new CompactingChatMessageHistory({
    history: new InMemoryChatMessageHistory(),
    conversationId: 'templated',
    contextWindow: WINDOW,
    model: summaryModel,
  });
  const chain = new RunnableWithMessageHistory({
    runnable: prompt.pipe(model),
    getMessageHistory: () => history,
    inputMessagesKey: 'question',
    historyMessagesKey: 'history',
  });
  for (const [turn, words] of sizes.entries()) {
    await chain.invoke({ question: question(turn, words) }, { configurable: { sessionId: 'templated' } });
  }
  expect(model.rejected).toBe(0);
  expect(model.prompts).toHaveLength(40);
  for (const sent of model.prompts) {
    expect(promptTokens(sent)).toBeLessThan(WINDOW);
    expect(sent[0]!.text).toBe(SYSTEM_PROMPT);
    expect(sent.filter((message) => SystemMessage.isInstance(message))).toHaveLength(1);
    expect(rolesAlternate(sent.slice(1))).toBe(true);
  }
  const last = model.prompts.at(-1)!;
  expect(last[1]!.text).toMatch(/^Summary of the earlier conversation/);
  expect(last.at(-1)!.text).toBe(question(39, sizes[39]!));
  expect(summaryModel.callCount).toBeGreaterThan(0);
  expect(await history.getOriginalMessages()).toHaveLength(80);
});

test('tool results are capped when stored; the original object is not changed', async () => {
  const stored = new InMemoryChatMessageHistory();
  const history = new CompactingChatMessageHistory({ history: stored, toolResultMaxChars: 1000 });
  const big = new ToolMessage({
    tool_call_id: 'c1',
    name: 'grep',
    content: 'match\n'.repeat(5000),
    artifact: { n: 5000 },
  });
  await history.addMessages([
    new HumanMessage('grep it'),
    new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'grep', args: {} }] }),
    big,
  ]);
  const [, , kept] = (await history.getOriginalMessages()) as [BaseMessage, BaseMessage, ToolMessage];
  expect(String(kept.content).length).toBeLessThan(1200);
  expect(String(kept.content)).toContain('content truncated');
  expect(kept).toMatchObject({ tool_call_id: 'c1', name: 'grep', artifact: { n: 5000 } });
  expect(String(big.content)).toHaveLength(30_000);
});

/** A PNG header (all `image-size` reads) claiming `width` x `height`: a big image in a few bytes. */
function pngHeader(width: number, height: number): string {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6], 24);
  return Buffer.from(bytes).toString('base64');
}

test('old images become placeholders in the view, the stored message keeps the image', async () => {
  // The image is most of the room a 4,000-token window leaves next to the reserve for the next
  // input; a long question pushes the view over the compact threshold, and replacing the old image
  // is enough: no summary is needed.
  const big = pngHeader(1568, 1568);
  const events: string[] = [];
  const history = new CompactingChatMessageHistory({
    conversationId: 'test-1',
    history: new InMemoryChatMessageHistory(),
    contextWindow: 4000,
    summarizer: extractiveSummarizer,
    onEvent: (event) => events.push(event.type),
  });
  const withImage = new HumanMessage({
    content: [
      { type: 'text', text: 'What is in this screenshot?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${big}` } },
    ],
  });
  await history.addMessages([withImage, new AIMessage('A login form.')]);
  const first = await history.getMessages();
  expect(first[0]).toBe(withImage);
  await history.addMessage(new HumanMessage(`${'Some context about the form. '.repeat(110)} Why?`));
  const originals = await history.getOriginalMessages();
  const view = await history.getMessages();
  expect(promptTokens(view)).toBeLessThan(promptTokens(originals) - 1000);
  expect(view).toHaveLength(3);
  expect(JSON.stringify(view.map((message) => message.content))).not.toContain(big);
  // The old message is a copy whose image is a text placeholder; its text block is the original.
  const blocks = view[0]!.content as { type: string; text?: string }[];
  expect(blocks[0]).toBe((withImage.content as object[])[0]);
  expect(blocks[1]).toMatchObject({ type: 'text', text: expect.stringMatching(/^\[image: .*1568x1568/) });
  expect(events).not.toContain('compaction-end');
  expect(originals[0]).toBe(withImage);
});

test('the view is stable between writes and follows new messages after one', async () => {
  const history = new CompactingChatMessageHistory({ history: new InMemoryChatMessageHistory() });
  await history.addUserMessage('hello');
  const first = await history.getMessages();
  expect(await history.getMessages()).toEqual(first);
  await history.addAIMessage('hi');
  expect((await history.getMessages()).map((message) => message.text)).toEqual(['hello', 'hi']);
  await history.clear();
  expect(await history.getMessages()).toEqual([]);
  expect(await history.getOriginalMessages()).toEqual([]);
});

test('a write through another wrapper of the same stored history shows in the next view', async () => {
  const stored = new InMemoryChatMessageHistory();
  const first = new CompactingChatMessageHistory({ history: stored, conversationId: 'shared' });
  const second = new CompactingChatMessageHistory({ history: stored, conversationId: 'shared' });
  await first.addMessages([new HumanMessage('hello'), new AIMessage('hi')]);
  expect((await first.getMessages()).map((message) => message.text)).toEqual(['hello', 'hi']);
  await second.addMessages([new HumanMessage('second turn'), new AIMessage('noted')]);
  expect((await first.getMessages()).map((message) => message.text)).toEqual([
    'hello',
    'hi',
    'second turn',
    'noted',
  ]);
  await stored.clear();
  expect(await first.getMessages()).toEqual([]);
});

test('tokenCounter decides when the view is compacted', async () => {
  const history = new CompactingChatMessageHistory({
    conversationId: 'test-2',
    history: new InMemoryChatMessageHistory(),
    contextWindow: 16_000,
    summarizer: extractiveSummarizer,
    tokenCounter: (messages) => messages.length * 1000,
  });
  for (let turn = 0; turn < 15; turn++) {
    await history.addMessages([new HumanMessage(`Question ${turn}`), new AIMessage(`Answer ${turn}`)]);
  }
  const view = await history.getMessages();
  expect(view.length).toBeLessThanOrEqual(13);
  expect(view[0]!.text).toContain('Summary of the earlier conversation');
  expect(await history.getOriginalMessages()).toHaveLength(30);
});

test('getPromptMessages counts the real input; an input that cannot fit throws before anything is sent', async () => {
  const stored = new InMemoryChatMessageHistory();
  const history = new CompactingChatMessageHistory({
    conversationId: 'test-3',
    history: stored,
    contextWindow: WINDOW,
    summarizer: extractiveSummarizer,
  });
  for (let turn = 0; turn < 6; turn++) {
    await history.addMessages([new HumanMessage(turnText(turn)), new AIMessage(`Answer ${turn}.`)]);
  }
  const input = `Please review: ${'a long pasted paragraph of text '.repeat(350)}`;
  const inputTokens = promptTokens([new HumanMessage(input)]);
  const view = await history.getPromptMessages({ input });
  expect(promptTokens(view) + inputTokens + history.templateTokens).toBeLessThan(WINDOW * 0.85);
  expect(view.length).toBeLessThan(12);
  const before = await history.getOriginalMessages();
  const error = await history
    .getPromptMessages({ input: input.repeat(4) })
    .catch((caught: unknown) => caught);
  expect(ContextOverflowError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ contextWindow: WINDOW });
  expect(String((error as Error).message)).toContain('does not fit the context window');
  expect(await history.getOriginalMessages()).toEqual(before);
});

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

test('a new wrapper per getMessageHistory call still finds the summary (the default store is shared)', async () => {
  const stored = new InMemoryChatMessageHistory();
  let summaries = 0;
  const summarizer: typeof extractiveSummarizer = (input) => {
    summaries++;
    return extractiveSummarizer(input);
  };
  const model = fakeModel();
  for (let turn = 0; turn < 30; turn++) model.respond(new AIMessage(`Answer ${turn}.`));
  const chain = new RunnableWithMessageHistory({
    runnable: model,
    getMessageHistory: (sessionId: string) =>
      new CompactingChatMessageHistory({
        history: stored,
        conversationId: `fresh-${sessionId}`,
        contextWindow: WINDOW,
        summarizer,
      }),
  });
  for (let turn = 0; turn < 30; turn++) {
    await chain.invoke([new HumanMessage(turnText(turn))], { configurable: { sessionId: 'a' } });
  }
  const last = model.calls.at(-1)!.messages;
  expect(last[0]!.text).toMatch(/^Summary of the earlier conversation/);
  // One summary per compaction, not one per turn.
  expect(summaries).toBeGreaterThan(0);
  expect(summaries).toBeLessThan(12);
});

test("the summary made after an answer applies to the next view, which keeps that answer's turn whole", async () => {
  // Each answer's background summary is written before the next prompt is built (the timing the
  // other test leaves to chance): it must not cover the turn the next view keeps whole.
  const stored = new InMemoryChatMessageHistory();
  const model = fakeModel();
  for (let turn = 0; turn < 30; turn++) model.respond(new AIMessage(`Answer ${turn}.`));
  let latest: CompactingChatMessageHistory | undefined;
  const chain = new RunnableWithMessageHistory({
    runnable: model,
    getMessageHistory: (sessionId: string) => {
      latest = new CompactingChatMessageHistory({
        history: stored,
        conversationId: `settled-${sessionId}`,
        contextWindow: WINDOW,
        summarizer: extractiveSummarizer,
      });
      return latest;
    },
  });
  for (let turn = 0; turn < 30; turn++) {
    await chain.invoke([new HumanMessage(turnText(turn))], { configurable: { sessionId: 'a' } });
    await latest!.compactor.idle();
  }
  const last = model.calls.at(-1)!.messages;
  expect(last[0]!.text).toMatch(/^Summary of the earlier conversation/);
  expect(last.at(-1)!.text).toBe(turnText(29));
  expect(last.at(-2)!.text).toBe('Answer 28.');
});

test('under RunnableWithMessageHistory, streamEvents carries the answer and no token of the summary', async () => {
  const SECRET = 'SECRET-SUMMARY: topics zero to eleven were discussed.';
  const summaryModel = new FakeListChatModel({ responses: Array.from({ length: 20 }, () => SECRET) });
  const model = new FakeListChatModel({ responses: ['The visible answer.'] });
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', SYSTEM_PROMPT],
    new MessagesPlaceholder('history'),
    ['human', '{question}'],
  ]);
  const stored = new InMemoryChatMessageHistory();
  for (let turn = 0; turn < 12; turn++) {
    await stored.addMessages([new HumanMessage(turnText(turn)), new AIMessage(`Answer ${turn}.`)]);
  }
  const history = new CompactingChatMessageHistory({
    history: stored,
    conversationId: 'stream-events',
    contextWindow: WINDOW,
    model: summaryModel,
  });
  const chain = new RunnableWithMessageHistory({
    runnable: prompt.pipe(model),
    getMessageHistory: () => history,
    inputMessagesKey: 'question',
    historyMessagesKey: 'history',
  });
  const tokens: string[] = [];
  const custom: string[] = [];
  const events = chain.streamEvents(
    { question: 'And now?' },
    { version: 'v2', configurable: { sessionId: 'stream-events' } },
  );
  for await (const event of events) {
    if (event.event === 'on_chat_model_stream') tokens.push(String(event.data.chunk.content));
    if (event.event === 'on_custom_event') custom.push(event.name);
  }
  expect(tokens.join('')).toBe('The visible answer.');
  expect(custom).toContain('spillway:compaction-end');
  const state = await history.getCompactionState();
  expect(state?.summaries.join('')).toContain('SECRET-SUMMARY');
});

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

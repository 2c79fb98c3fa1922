import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { extractiveSummarizer } from '@spillway/core';
import { fakeModel } from 'langchain';
import { expect, test } from 'vitest';
import { createSummaryModel, promptTokens, rolesAlternate, seededRandom } from '../../test/agent-session';
import { turnText, WINDOW } from '../../test/chat-turns';
import { WindowedListChatModel } from '../../test/windowed-list-model';
import { CompactingChatMessageHistory } from './compacting-chat-message-history';

/**
 * The history under RunnableWithMessageHistory, alone or behind a ChatPromptTemplate with its own
 * system prompt: every prompt fits the window with one system message first and alternating roles,
 * every turn is stored once, a new wrapper per getMessageHistory call still finds the summary, a
 * summary made after an answer keeps that answer's turn whole, and streamEvents shows no summary token.
 */

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

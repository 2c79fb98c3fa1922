import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { extractiveSummarizer, InvalidConfigError } from '@spillway/core';
import { fakeModel } from 'langchain';
import { expect, test } from 'vitest';
import { createSummaryModel, promptTokens } from '../../test/agent-session';
import { CompactingChatMessageHistory } from './compacting-chat-message-history';

const WINDOW = 4000;
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

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
  expect(SystemMessage.isInstance(last[0]!)).toBe(true);
  expect(last[0]!.text).toContain('Summary of the earlier conversation');
  expect(last.at(-1)!.text).toBe(turnText(39));
  expect(summaryModel.callCount).toBeGreaterThan(0);
  expect((await history.getCompactionState())?.coveredCount).toBeGreaterThan(0);
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

test('old images become placeholders in the view, the stored message keeps the image', async () => {
  const stored = new InMemoryChatMessageHistory();
  const history = new CompactingChatMessageHistory({
    history: stored,
    contextWindow: WINDOW,
    summarizer: extractiveSummarizer,
  });
  const withImage = new HumanMessage({
    content: [
      { type: 'text', text: 'What is in this screenshot?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
    ],
  });
  await history.addMessages([withImage, new AIMessage('A single pixel.')]);
  for (let turn = 0; turn < 24; turn++) {
    await history.addMessages([new HumanMessage(turnText(turn)), new AIMessage(`Answer ${turn}`)]);
  }
  const view = await history.getMessages();
  expect(promptTokens(view)).toBeLessThan(WINDOW);
  expect(JSON.stringify(view.map((message) => message.content))).not.toContain(PNG);
  expect((await history.getOriginalMessages())[0]).toBe(withImage);
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

test('bad options throw InvalidConfigError', () => {
  expect(
    () => new CompactingChatMessageHistory({ history: new InMemoryChatMessageHistory(), contextWindow: -1 }),
  ).toThrow(InvalidConfigError);
});

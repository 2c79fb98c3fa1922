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
  // The image is most of a 2,400-token window; a long question pushes the conversation over the
  // compact threshold, and replacing the old image is enough: no summary is needed.
  const big = pngHeader(1568, 1568);
  const events: string[] = [];
  const history = new CompactingChatMessageHistory({
    history: new InMemoryChatMessageHistory(),
    contextWindow: 2400,
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
  expect(promptTokens(await history.getMessages())).toBeLessThan(2400 * 0.8);
  await history.addMessage(new HumanMessage(`${'Some context about the form. '.repeat(70)} Why?`));
  expect(promptTokens(await history.getOriginalMessages())).toBeGreaterThan(2400 * 0.85);
  const view = await history.getMessages();
  expect(promptTokens(view)).toBeLessThan(2400 * 0.8);
  expect(view).toHaveLength(3);
  expect(JSON.stringify(view.map((message) => message.content))).not.toContain(big);
  // The old message is a copy whose image is a text placeholder; its text block is the original.
  const blocks = view[0]!.content as { type: string; text?: string }[];
  expect(blocks[0]).toBe((withImage.content as object[])[0]);
  expect(blocks[1]).toMatchObject({ type: 'text', text: expect.stringMatching(/^\[image: .*1568x1568/) });
  expect(events).not.toContain('compaction-end');
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

test('bad options throw InvalidConfigError', () => {
  expect(
    () => new CompactingChatMessageHistory({ history: new InMemoryChatMessageHistory(), contextWindow: -1 }),
  ).toThrow(InvalidConfigError);
  // The README promises this for the history (and so for CompactionMemory) too, not only the middleware.
  expect(
    () => new CompactingChatMessageHistory({ history: new InMemoryChatMessageHistory(), model: {} as never }),
  ).toThrow(/model/);
});

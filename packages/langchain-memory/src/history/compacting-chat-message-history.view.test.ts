import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { ContextOverflowError, extractiveSummarizer } from '@spillway/core';
import { expect, test } from 'vitest';
import { promptTokens } from '../../test/agent-session';
import { turnText, WINDOW } from '../../test/chat-turns';
import { CompactingChatMessageHistory } from './compacting-chat-message-history';

/**
 * The stored messages and the view getMessages and getPromptMessages give over them: tool results
 * capped when stored, old images as placeholders in the view only, a view stable between writes that
 * follows writes through any wrapper, a tokenCounter that decides when it is compacted, and an input
 * measured before anything is sent.
 */

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

/**
 * Issue 23 items 6, 7 and the "one hop": `CompactingChatMessageHistory`'s read-back archive is
 * shared like the summary store, keyed by the conversation as stored, and the view's request-time
 * cuts name the originals. Real LangChain histories and messages throughout.
 */
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { extractiveSummarizer, RECALL_REF_PATTERN } from '@spillway/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompactingChatMessageHistory } from './compacting-chat-message-history';

/** A text of `chars` characters with numbered lines (every page distinct), some CJK and emoji. */
function bigText(chars: number, seed = 0): string {
  let text = '';
  for (let line = 0; text.length < chars; line++) {
    text += `line ${line} of ${seed}: ${line % 7 === 0 ? '数据库连接超时 😀 ' : 'plain words here '}${'x'.repeat(line % 50)}\n`;
  }
  return text.slice(0, chars);
}

function toolTurn(id: string, content: string): BaseMessage[] {
  return [
    new AIMessage({ content: '', tool_calls: [{ id, name: 'read_log', args: { id }, type: 'tool_call' }] }),
    new ToolMessage({ tool_call_id: id, name: 'read_log', content }),
  ];
}

/** Reads every page of `ref` through `history.recallTool()`, following the footers. */
async function readAll(history: CompactingChatMessageHistory, ref: string) {
  const tool = history.recallTool({ maxChars: 200_000 });
  let offset: number | undefined = 0;
  let text = '';
  let total = -1;
  while (offset !== undefined) {
    const answer = String(await tool.invoke({ ref, offset }));
    const lines = answer.split('\n');
    const header = lines.shift()!;
    const footer = lines.pop()!;
    const match = /^\[\S+: characters \d+–\d+ of (\d+)\]$/.exec(header);
    if (match === null) return { text: answer, total: -1 };
    total = Number(match[1]);
    text += lines.join('\n');
    const next = /"offset":(\d+)\}\]$/.exec(footer);
    offset = next === null ? undefined : Number(next[1]);
  }
  return { text, total };
}

function refOf(text: string): string {
  return /\[ref=(t\.[A-Za-z0-9]{12})/.exec(text)![1]!;
}

describe('CompactingChatMessageHistory: reading back what was cut', () => {
  it('a second wrapper over the same stored history reads back the originals the first archived', async () => {
    const original = bigText(200_000);
    const stored = new InMemoryChatMessageHistory();
    const first = new CompactingChatMessageHistory({ history: stored, contextWindow: 128_000 });
    await first.addMessages([new HumanMessage('Read the server log.'), ...toolTurn('log', original)]);
    await first.addMessages([new AIMessage('I read it.')]);
    const ref = refOf((await stored.getMessages())[2]!.text);

    // The per-call pattern: a new wrapper for every request (`getMessageHistory`).
    const second = new CompactingChatMessageHistory({ history: stored, contextWindow: 128_000 });
    const read = await readAll(second, ref);
    expect(read.total).toBe(200_000);
    expect(read.text === original).toBe(true);
    const tail = original.split('\n').at(-2)!;
    expect(String(await second.recallTool().invoke({ search: tail }))).toContain(`{"ref":"${ref}"`);
  });

  it('a history that opens with a tool call, without a conversationId, reads back its original', async () => {
    const original = bigText(120_000, 7);
    const stored = new InMemoryChatMessageHistory();
    const history = new CompactingChatMessageHistory({
      history: stored,
      contextWindow: 128_000,
      toolResultLimits: { read_log: 600 },
    });
    await history.addMessages(toolTurn('first', original));
    await history.addMessages([new AIMessage('That was the log.'), new HumanMessage('What is in it?')]);
    const ref = refOf((await stored.getMessages())[1]!.text);
    const read = await readAll(history, ref);
    expect(read.total).toBe(120_000);
    expect(read.text === original).toBe(true);
    const again = await readAll(
      new CompactingChatMessageHistory({ history: stored, contextWindow: 128_000 }),
      ref,
    );
    expect(again.text === original).toBe(true);
  });

  it("the view's request-time cut of a capped result names the original, read in one hop", async () => {
    const original = bigText(400_000, 3);
    const stored = new InMemoryChatMessageHistory();
    const history = new CompactingChatMessageHistory({
      history: stored,
      contextWindow: 8_000,
      summarizer: extractiveSummarizer,
    });
    await history.addMessages([new HumanMessage('Read the server log.'), ...toolTurn('log', original)]);
    await history.addMessages([new AIMessage('I read it.'), new HumanMessage('Now tell me about line 5.')]);
    const storedCopy = (await stored.getMessages())[2]!.text;
    const view = (await history.getMessages()).map((message) => message.text).join('\n');
    // The view cut the stored copy (about 30,000 characters) further, to fit 8,000 tokens.
    expect(view.length).toBeLessThan(storedCopy.length);
    const refs = [...view.matchAll(RECALL_REF_PATTERN)].map((match) => match[0]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs.filter((candidate) => candidate.startsWith('t.'))) {
      const answer = String(await history.recallTool().invoke({ ref }));
      expect(answer.split('\n')[0]).toMatch(/ of 400000\]$/);
    }
  });

  it('every cut in a view names a reference that reads back; a tool result reads back whole (property)', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 100, max: 90_000 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(4_000, 8_000, 32_000),
        fc.boolean(),
        async (sizes, contextWindow, opensWithTool) => {
          const stored = new InMemoryChatMessageHistory();
          const history = new CompactingChatMessageHistory({
            history: stored,
            contextWindow,
            summarizer: extractiveSummarizer,
            toolResultMaxChars: 20_000,
          });
          const originals = new Map<number, string>();
          if (!opensWithTool) await history.addMessages([new HumanMessage('Look at the logs.')]);
          for (const [index, size] of sizes.entries()) {
            const text = bigText(size, index);
            originals.set(size, text);
            await history.addMessages([
              ...toolTurn(`call_${index}`, text),
              new AIMessage(`Log ${index} read.`),
            ]);
            await history.addMessages([new HumanMessage(`Go on after log ${index}.`)]);
          }
          // Any wrapper over the stored history answers for every cut its view shows.
          const reader = new CompactingChatMessageHistory({
            history: stored,
            contextWindow,
            summarizer: extractiveSummarizer,
            toolResultMaxChars: 20_000,
          });
          const view = (await history.getMessages()).map((message) => message.text).join('\n');
          for (const [ref] of view.matchAll(RECALL_REF_PATTERN)) {
            const answer = String(await reader.recallTool({ maxChars: 100_000 }).invoke({ ref }));
            expect(answer, ref).not.toMatch(/^Nothing in this conversation/);
            checked++;
            if (ref.startsWith('t.')) {
              const total = Number(/ of (\d+)\]$/.exec(answer.split('\n')[0]!)?.[1]);
              expect(originals.has(total), `${ref}: ${answer.split('\n')[0]}`).toBe(true);
            }
          }
        },
      ),
      { numRuns: 12 },
    );
    expect(checked).toBeGreaterThan(12);
  });
});

/**
 * Issue 25, part 3 through real LangChain (`createAgent` with `fakeModel`, a checkpointer and a
 * thread): the model calls `spillway_compact` (with instructions), and its next call is smaller with
 * the fidelity promises intact: the latest user ask verbatim, the current turn's tool call with its
 * result, no call or result alone, the standing rule verbatim, the summary's reference read back by
 * `spillway_recall`; the thread's own messages are untouched and the summary is checkpointed.
 */
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { COMPACT_TOOL_NAME, RECALL_TOOL_NAME, type SummarizerInput } from '@spillway/core';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { promptTokens } from '../../test/agent-session';
import { compactionMiddleware } from '../middleware/compaction-middleware';
import { COMPACTION_STATE_KEY } from '../middleware/compaction-state-schema';
import { recallTool } from '../recall/recall-tool';

const RULE = 'From now on, always write the tests with vitest and never with jest.';
const NEEDLE = 'The staging database is db-7f3a9c2e, remember it for the migration later.';
const ASK = 'Please compact what we have so far, then check src/auth.ts and tell me which order came first.';
const INSTRUCTIONS = 'Keep every order number (ORD-…) and the staging database name.';
const SOURCE = Array.from(
  { length: 40 },
  (_, line) => `export const handler${line} = route('src/auth.ts', ${line});`,
).join('\n');

function history(): BaseMessage[] {
  const messages: BaseMessage[] = [];
  for (let turn = 0; turn < 16; turn++) {
    messages.push(
      new HumanMessage(
        turn === 1
          ? RULE
          : turn === 3
            ? NEEDLE
            : `Turn ${turn}: question about order ORD-${1000 + turn}. ${'More context on the question. '.repeat(12)}`,
      ),
      new AIMessage(`Answer ${turn}: ${'The explanation goes on with the relevant details. '.repeat(30)}`),
    );
  }
  return messages;
}

const text = (messages: readonly BaseMessage[]) => messages.map((message) => message.text).join('\n');

function call(id: string, name: string, args: Record<string, unknown>): AIMessage {
  return new AIMessage({ content: '', tool_calls: [{ id, name, args, type: 'tool_call' }] });
}

/** Tool call ids without a result, and result ids without a call. */
function unpaired(messages: readonly BaseMessage[]): string[] {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of messages) {
    if (AIMessage.isInstance(message))
      for (const toolCall of message.tool_calls ?? []) calls.add(toolCall.id!);
    if (ToolMessage.isInstance(message)) results.add(message.tool_call_id);
  }
  return [...calls].filter((id) => !results.has(id)).concat([...results].filter((id) => !calls.has(id)));
}

describe('spillway_compact in createAgent', () => {
  it('the model call after the tool call is smaller, every fidelity promise intact', async () => {
    const prompts: BaseMessage[][] = [];
    const found: { answer?: string; ref?: string; recalled?: string } = {};
    const model = fakeModel();
    for (let index = 0; index < 6; index++) {
      model.respond((messages: BaseMessage[]) => {
        prompts.push(messages);
        const last = messages.at(-1)!;
        if (!ToolMessage.isInstance(last)) return call('read-1', 'read_file', { path: 'src/auth.ts' });
        if (last.name === 'read_file')
          return call('compact-1', COMPACT_TOOL_NAME, { instructions: INSTRUCTIONS });
        if (last.name === COMPACT_TOOL_NAME) {
          found.answer = last.text;
          found.ref = /\[ref=(s\.\d+-\d+\.[A-Za-z0-9]{12})/.exec(text(messages))?.[1];
          return call('recall-1', RECALL_TOOL_NAME, {
            ref: found.ref ?? 'missing',
            search: 'staging database is',
          });
        }
        found.recalled = last.text;
        return new AIMessage('ORD-1000 came first.');
      });
    }
    const systems: string[] = [];
    const summarizer = (input: SummarizerInput) => {
      systems.push(input.system);
      return 'The user asked about orders ORD-1000 to ORD-1015 and the staging database db-7f3a9c2e.';
    };
    const messages = [...history(), new HumanMessage(ASK)];
    // Half the window: over the protected quarter (so there is something to compact), under every
    // threshold (so nothing is compacted unless the model asks).
    const contextWindow = Math.ceil(promptTokens(messages) / 0.5);
    const middleware = compactionMiddleware({ summarizer, contextWindow });
    const readFile = tool(async () => SOURCE, {
      name: 'read_file',
      description: 'Reads a file.',
      schema: z.object({ path: z.string() }),
    });
    const agent = createAgent({
      model,
      tools: [readFile, middleware.compactTool(), recallTool()],
      middleware: [middleware],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: 'compact-tool' } };
    const result = await agent.invoke({ messages }, config);

    expect(result.messages.at(-1)!.text).toBe('ORD-1000 came first.');
    expect(prompts).toHaveLength(4);
    const [, beforeCall, afterCall, afterRecall] = prompts as [
      BaseMessage[],
      BaseMessage[],
      BaseMessage[],
      BaseMessage[],
    ];
    // Before the call nothing was compacted; after it the summary stands in for the older part.
    expect(text(beforeCall)).toContain('Answer 2: ');
    expect(text(beforeCall)).not.toContain('[Summarized:');
    const before = promptTokens(beforeCall);
    const after = promptTokens(afterCall);
    console.log(`LangChain: model call before spillway_compact ${before} tokens, after ${after}`);
    expect(after).toBeLessThan(before * 0.75);
    expect(text(afterCall)).toMatch(/\[Summarized: messages 1–\d+ of this conversation\] \[ref=s\./);
    expect(text(afterCall)).not.toContain('Answer 2: ');

    expect(found.answer).toMatch(
      /^Compacted: \d+ older messages summarized; the request went from ≈[\d,]+ to ≈[\d,]+ tokens/,
    );
    expect(found.answer!.length).toBeLessThan(300);
    expect(systems).toHaveLength(1);
    expect(systems[0]).toContain(INSTRUCTIONS);

    for (const prompt of [afterCall, afterRecall]) {
      const users = prompt.filter((message) => HumanMessage.isInstance(message));
      expect(users.at(-1)!.text).toBe(ASK);
      expect(unpaired(prompt)).toEqual([]);
      expect(text(prompt)).toContain(SOURCE);
      expect(text(prompt)).toContain(RULE);
    }
    expect(found.ref).toBeDefined();
    expect(found.recalled).toContain(NEEDLE);

    // The thread keeps every original message; the summary is checkpointed with it.
    const state = (await agent.graph.getState(config)).values as Record<string, unknown> & {
      messages: BaseMessage[];
    };
    expect(state.messages).toHaveLength(messages.length + 7);
    expect(
      (state[COMPACTION_STATE_KEY] as { coveredCount: number } | undefined)?.coveredCount,
    ).toBeGreaterThan(0);
  });

  it('answers bad input with one line, without compacting', async () => {
    const middleware = compactionMiddleware({ contextWindow: 10_000 });
    const compact = middleware.compactTool();
    expect(String(await compact.invoke({ instructions: 42 }))).toBe(
      'spillway_compact: nothing was compacted: `instructions` must be a string.',
    );
    expect(String(await compact.invoke({}))).toMatch(/could not find this conversation/);
  });
});

import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { compactMessages, extractiveSummarizer } from '@spillway/core';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { promptTokens, toolPairsIntact } from '../../test/agent-session';
import { fromNeutralMessages } from './from-neutral-messages';
import { toNeutralMessages } from './to-neutral-messages';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

interface TurnSpec {
  userText: string;
  withImage: boolean;
  calls: { withId: boolean; size: number; asBlocks: boolean; failed: boolean }[];
  answer: string;
}

/** One agent turn in LangChain messages: a user message, maybe tool calls and results, an answer. */
const turn: fc.Arbitrary<TurnSpec> = fc.record({
  userText: fc.string({ maxLength: 400 }),
  withImage: fc.boolean(),
  calls: fc.array(
    fc.record({
      withId: fc.boolean(),
      size: fc.integer({ min: 0, max: 12_000 }),
      asBlocks: fc.boolean(),
      failed: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
  answer: fc.string({ maxLength: 200 }),
});

function buildConversation(turns: readonly TurnSpec[]): BaseMessage[] {
  const messages: BaseMessage[] = [new SystemMessage('You are helpful.')];
  turns.forEach((spec, turnIndex) => {
    messages.push(
      spec.withImage
        ? new HumanMessage({
            content: [
              { type: 'text', text: spec.userText },
              { type: 'image', source_type: 'base64', data: PNG, mime_type: 'image/png' },
            ] as never,
          })
        : new HumanMessage(spec.userText),
    );
    if (spec.calls.length > 0) {
      messages.push(
        new AIMessage({
          content: '',
          tool_calls: spec.calls.map((call, index) => ({
            name: `tool_${index}`,
            args: { turn: turnIndex },
            ...(call.withId ? { id: `t${turnIndex}-${index}` } : {}),
          })),
        }),
      );
      spec.calls.forEach((call, index) => {
        const text = `result ${turnIndex}/${index} `.repeat(Math.ceil(call.size / 16)).slice(0, call.size);
        messages.push(
          new ToolMessage({
            tool_call_id: call.withId ? `t${turnIndex}-${index}` : '',
            name: `tool_${index}`,
            content: call.asBlocks ? ([{ type: 'text', text }] as never) : text,
            status: call.failed ? 'error' : 'success',
            artifact: { turnIndex, index },
          }),
        );
      });
    }
    messages.push(new AIMessage(spec.answer));
  });
  return messages;
}

test('property: compacted LangChain conversations keep tool pairs, fit the window, and reuse untouched messages', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 14 }), async (turns) => {
      const messages = buildConversation(turns);
      const snapshot = messages.map((message) => JSON.stringify(message.content));
      const contextWindow = 6000;
      const result = await compactMessages(toNeutralMessages(messages), {
        contextWindow,
        summarizer: extractiveSummarizer,
        toolResultMaxChars: 8000,
      });
      const output = fromNeutralMessages(result.messages);
      // Never an orphan ToolMessage, never a call without its result.
      expect(toolPairsIntact(output.filter((message) => !SystemMessage.isInstance(message)))).toBe(true);
      // Within the window (the last group alone may not fit only if it is itself that large).
      if (promptTokens(messages) > contextWindow) expect(result.tokensAfter).toBeLessThan(contextWindow);
      // The newest message (an answer) is never touched: it comes back as the caller's own object.
      expect(output.at(-1)).toBe(messages.at(-1));
      // The input is never mutated.
      expect(messages.map((message) => JSON.stringify(message.content))).toEqual(snapshot);
      for (const message of output) {
        const original = messages.find((candidate) => candidate === message);
        if (original) continue;
        // A changed message keeps its class and identity fields.
        if (ToolMessage.isInstance(message)) {
          const source = messages.find(
            (candidate) =>
              ToolMessage.isInstance(candidate) &&
              candidate.tool_call_id === message.tool_call_id &&
              JSON.stringify(candidate.artifact) === JSON.stringify(message.artifact),
          ) as ToolMessage | undefined;
          expect(source).toBeDefined();
          expect(message.status).toBe(source!.status);
        }
      }
    }),
    { numRuns: 60, seed: 42 },
  );
});

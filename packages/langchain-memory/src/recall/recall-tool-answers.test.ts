/**
 * Issue 23 through real LangChain (`createAgent` with `fakeModel`): malformed calls answer with the
 * shared one-line messages (not LangChain's schema error with its stack), the model still sees the
 * shared JSON Schema, an image reference reads back as the image, and nothing a model sends makes
 * the tool throw.
 */
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import {
  extractiveSummarizer,
  parseRecallInput,
  RECALL_TOOL_DESCRIPTION,
  RECALL_TOOL_NAME,
  recallToolInputSchema,
} from '@spillway/core';
import fc from 'fast-check';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from '../middleware/compaction-middleware';
import { recallTool } from './recall-tool';

function recallCall(id: string, args: unknown): AIMessage {
  return new AIMessage({
    content: '',
    tool_calls: [{ id, name: RECALL_TOOL_NAME, args: args as Record<string, unknown>, type: 'tool_call' }],
  });
}

/** A PNG of `width`×`height` (a real header; the rest is filler), as base64. */
function screenshotPng(width: number, height: number, bytes = 40_000): string {
  const data = new Uint8Array(bytes);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(data.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  data.set([8, 2, 0, 0, 0], 24);
  for (let index = 40; index < bytes; index++) data[index] = (index * 31) & 0xff;
  return Buffer.from(data).toString('base64');
}

describe('spillway_recall in createAgent: what it answers', () => {
  it('malformed calls answer with the shared one-line messages, not a schema error with a stack', async () => {
    const malformed: unknown[] = [
      { ref: 123 },
      { ref: 'x', offset: -1 },
      {},
      { foo: 1 },
      { search: '' },
      { ref: ['a'] },
      { ref: 't.Ab12Cd34Ef56', length: 'many' },
      { search: 'a'.repeat(1_000_000) },
    ];
    const answers: string[] = [];
    let call = 0;
    const model = fakeModel();
    for (let index = 0; index <= malformed.length; index++) {
      model.respond((messages: BaseMessage[]) => {
        const last = messages.at(-1)!;
        if (ToolMessage.isInstance(last)) answers.push(last.text);
        if (call >= malformed.length) return new AIMessage('Done.');
        return recallCall(`bad_${call}`, malformed[call++]);
      });
    }
    const agent = createAgent({ model, tools: [recallTool()] });
    await agent.invoke({ messages: [new HumanMessage('Read something back.')] });

    expect(answers).toHaveLength(malformed.length);
    answers.forEach((answer, index) => {
      const parsed = parseRecallInput(malformed[index]);
      expect(parsed.ok).toBe(false);
      expect(answer).toBe(parsed.ok ? '' : parsed.message);
      expect(answer).not.toMatch(/did not match expected schema|\n|at .*\.(js|ts):\d+/);
      expect(answer.length).toBeLessThan(300);
    });
  });

  it('the model still sees the shared schema and description', () => {
    const { function: definition } = convertToOpenAITool(recallTool()) as {
      function: { name: string; description: string; parameters: Record<string, unknown> };
    };
    const { $schema: _, ...parameters } = definition.parameters;
    expect(definition.name).toBe(RECALL_TOOL_NAME);
    expect(definition.description).toBe(RECALL_TOOL_DESCRIPTION);
    expect(parameters).toEqual(recallToolInputSchema);
  });

  it('an image reference reads back as the image (content blocks), not its placeholder line alone', async () => {
    const png = screenshotPng(1280, 800);
    const image = { type: 'image', data: png, mimeType: 'image/png' };
    const history: BaseMessage[] = [
      new HumanMessage({ content: [{ type: 'text', text: 'Here is the login page.' }, image] }),
      new AIMessage('I see it.'),
    ];
    for (let turn = 0; turn < 10; turn++) {
      history.push(new HumanMessage(`Step ${turn}: ${'look at the form again '.repeat(30)}`));
      history.push(new AIMessage(`Done ${turn}.`));
    }
    history.push(new HumanMessage('What did the login page look like?'));
    let placeholder = '';
    let recalled: unknown;
    const model = fakeModel();
    for (let index = 0; index < 3; index++) {
      model.respond((messages: BaseMessage[]) => {
        const last = messages.at(-1)!;
        if (ToolMessage.isInstance(last)) {
          recalled = last.content;
          return new AIMessage('A blue login button.');
        }
        placeholder = messages.map((message) => message.text).join('\n');
        const [, ref] = /\[ref=(i\.[A-Za-z0-9]{12})\]/.exec(placeholder) ?? [];
        return recallCall('recall_1', { ref: `"ref=${ref}"` });
      });
    }
    const agent = createAgent({
      model,
      tools: [recallTool()],
      middleware: [compactionMiddleware({ contextWindow: 4_000, summarizer: extractiveSummarizer })],
    });
    await agent.invoke({ messages: history });

    expect(placeholder).toMatch(/\[image: image\/png, 1280x800[^\]]*\] \[ref=i\./);
    expect(Array.isArray(recalled)).toBe(true);
    const blocks = recalled as { type: string; text?: string; data?: string }[];
    expect(blocks[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^\[i\.[A-Za-z0-9]{12}: /) });
    expect(blocks[1]).toEqual(image);
  });

  it('no input makes the tool throw: arbitrary JSON, wrong types, huge offsets, 1 MB queries, catastrophic patterns (property)', async () => {
    const conversation = [
      new HumanMessage('Read the log.'),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'log', name: 'read_log', args: {}, type: 'tool_call' }],
      }),
      new ToolMessage({
        tool_call_id: 'log',
        name: 'read_log',
        content: `${'a'.repeat(36)}!\n${'line of the log\n'.repeat(5_000)}`,
      }),
    ];
    const tool = recallTool({ messages: () => conversation });
    const hostile = fc.oneof(
      fc.jsonValue(),
      fc.anything(),
      fc.record({ ref: fc.string(), offset: fc.oneof(fc.integer(), fc.double(), fc.string()) }),
      fc.record({
        search: fc.constantFrom('(a+)+$', '(.*a){20}', '(a|aa)+$', 'a'.repeat(1_000_000), '[', '(?=x)', '\\'),
        offset: fc.constantFrom(0, 2 ** 53 - 1, 1e300, -1),
        length: fc.constantFrom(1, 2 ** 53 - 1, 0),
      }),
      fc.record({
        ref: fc.constantFrom('t.AAAAAAAAAAAA', 's.0-2.AAAAAAAAAAAA', `[ref=${'x'.repeat(5000)}]`),
      }),
    );
    let call = 0;
    await fc.assert(
      fc.asyncProperty(hostile, async (input) => {
        const message = (await tool.invoke({
          id: `c${call++}`,
          name: RECALL_TOOL_NAME,
          args: input as Record<string, unknown>,
          type: 'tool_call',
        })) as unknown as ToolMessage;
        expect(ToolMessage.isInstance(message)).toBe(true);
        const parsed = parseRecallInput(input);
        if (!parsed.ok) expect(message.content).toBe(parsed.message);
      }),
      { numRuns: 150 },
    );
  });
});

// biome-ignore-all lint/suspicious/noExplicitAny: one test body drives two SDK major versions
/**
 * Issue 23 through the real SDKs (ai 6 and 7, `generateText` tool loops with the official mocks):
 * an image reference reads back as the image itself; malformed calls answer with the shared
 * one-line messages; nothing a model sends makes the tool throw.
 */
import { parseRecallInput, RECALL_TOOL_NAME } from '@spillway/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware, recallTool } from '../src/index';
import { screenshotPng, toBase64 } from './conversation';
import { promptTokens } from './measure';
import { sdks, textResult, toolCallResult } from './sdk';

/** A tool result holding a screenshot, in the SDK's own `ModelMessage` shape. */
function screenshotResult(sdk: (typeof sdks)[number], png: string) {
  const image =
    sdk.version === 'v3'
      ? { type: 'image-data', data: png, mediaType: 'image/png' }
      : { type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } };
  return { type: 'content', value: [{ type: 'text', text: 'Screenshot of the login page' }, image] };
}

/** The image data of the read-back tool's latest result in a V3/V4 prompt, if it carries one. */
function recalledImage(prompt: any[]): string | undefined {
  const last = prompt.at(-1);
  if (last?.role !== 'tool') return undefined;
  const part = last.content.find(
    (item: any) => item.type === 'tool-result' && item.toolName === RECALL_TOOL_NAME,
  );
  if (part?.output?.type !== 'content') return undefined;
  for (const item of part.output.value) {
    if (item.type === 'image-data' || item.type === 'file-data') return item.data;
    if (item.type === 'file' && item.data?.type === 'data') {
      return typeof item.data.data === 'string' ? item.data.data : toBase64(item.data.data);
    }
  }
  return undefined;
}

describe.each(sdks)('$name: spillway_recall answers', (sdk) => {
  it('an image reference reads back as the image itself (the placeholder line alone before)', async () => {
    const png = toBase64(screenshotPng(1280, 800, 40_000, 3));
    const messages: unknown[] = [
      { role: 'user', content: 'Take a screenshot of the login page.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'shot', toolName: 'screenshot', input: { url: '/login' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'shot',
            toolName: 'screenshot',
            output: screenshotResult(sdk, png),
          },
        ],
      },
    ];
    for (let turn = 0; turn < 10; turn++) {
      messages.push(
        {
          role: 'assistant',
          content: [{ type: 'text', text: `Step ${turn}: ${'looked at the form '.repeat(40)}` }],
        },
        { role: 'user', content: `Go on with step ${turn + 1}.` },
      );
    }
    messages.push({ role: 'user', content: 'What did the login page look like?' });
    // Over the compact threshold with the screenshot, under it once it is a placeholder.
    const middleware = compactionMiddleware({
      contextWindow: Math.ceil(promptTokens(messages as never) / 0.9),
      summarizer: 'extractive',
    });
    let placeholder = '';
    let recalled: string | undefined;
    const model = sdk.createMockModel({
      doGenerate: async ({ prompt }: any) => {
        const image = recalledImage(prompt);
        if (image !== undefined || prompt.at(-1)?.role === 'tool') {
          recalled = image;
          return textResult('It has a blue login button.');
        }
        placeholder = JSON.stringify(prompt);
        const [, ref] = /\[ref=(i\.[A-Za-z0-9]{12})\]/.exec(placeholder) ?? [];
        return toolCallResult('recall_1', RECALL_TOOL_NAME, { ref: `[ref=${ref}]` });
      },
    });
    const result = await sdk.generateText({
      model: sdk.wrapLanguageModel({ model, middleware }),
      messages,
      tools: { [RECALL_TOOL_NAME]: middleware.recallTool() },
      stopWhen: sdk.stepCountIs(4),
    });
    expect(placeholder).toMatch(/\[image: image\/png, 1280x800[^\]]*\] \[ref=i\./);
    expect(placeholder).not.toContain(png.slice(0, 200));
    expect(result.text).toBe('It has a blue login button.');
    expect(recalled).toBe(png);
  });

  it('malformed calls answer with the shared one-line messages, through the tool loop', async () => {
    const malformed: unknown[] = [
      { ref: 123 },
      { ref: 'x', offset: -1 },
      {},
      { foo: 1 },
      { search: '' },
      { ref: ['a'] },
      { ref: 't.Ab12Cd34Ef56', length: 'many' },
      { search: 'a'.repeat(1_000_000) },
      { ref: 'x'.repeat(10_000) },
    ];
    const answers: string[] = [];
    let call = 0;
    const model = sdk.createMockModel({
      doGenerate: async ({ prompt }: any) => {
        const last = prompt.at(-1);
        if (last?.role === 'tool') answers.push(last.content[0].output.value);
        if (call >= malformed.length) return textResult('Done.');
        return toolCallResult(`bad_${call}`, RECALL_TOOL_NAME, malformed[call++]);
      },
    });
    await sdk.generateText({
      model,
      messages: [{ role: 'user', content: 'Read something back.' }],
      tools: { [RECALL_TOOL_NAME]: recallTool() },
      stopWhen: sdk.stepCountIs(malformed.length + 2),
    });
    expect(answers).toHaveLength(malformed.length);
    answers.forEach((answer, index) => {
      const parsed = parseRecallInput(malformed[index]);
      expect(parsed.ok).toBe(false);
      expect(answer).toBe(parsed.ok ? '' : parsed.message);
      expect(answer).not.toContain('\n');
      expect(answer.length).toBeLessThan(300);
    });
  });

  it('no input makes the tool throw: arbitrary JSON, wrong types, huge offsets, 1 MB queries, catastrophic patterns (property)', async () => {
    const tool = recallTool();
    const conversation = [
      { role: 'user', content: 'Read the log.' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'log', toolName: 'read_log', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'log',
            toolName: 'read_log',
            output: { type: 'text', value: `${'a'.repeat(36)}!\n${'line of the log\n'.repeat(5_000)}` },
          },
        ],
      },
    ];
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
    await fc.assert(
      fc.asyncProperty(hostile, async (input) => {
        const output = await tool.execute(input, {
          messages: conversation,
          experimental_context: undefined,
        } as never);
        expect(typeof output === 'string' || typeof output === 'object').toBe(true);
        const parsed = parseRecallInput(input);
        if (!parsed.ok) expect(output).toBe(parsed.message);
        const view = tool.toModelOutput({ output });
        expect(['text', 'content']).toContain(view.type);
      }),
      { numRuns: 150 },
    );
  });
});

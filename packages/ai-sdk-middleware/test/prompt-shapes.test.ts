import { ContextOverflowError } from '@spillway/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from '../src/index';
import { screenshotPng, toBase64 } from './conversation';
import { promptTokens } from './measure';
import { sdks } from './sdk';

const png = screenshotPng(1024, 768, 30_000);

/** Every part and output kind of the V3 (ai 6) prompt. */
function v3Prompt(): unknown[] {
  return [
    { role: 'system', content: 'You are an agent.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at this screenshot.' },
        {
          type: 'file',
          data: png,
          mediaType: 'image/png',
          filename: 'shot.png',
          providerOptions: { openai: { imageDetail: 'high' } },
        },
        { type: 'file', data: new URL('https://example.com/spec.pdf'), mediaType: 'application/pdf' },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: 'I should read files.',
          providerOptions: { anthropic: { signature: 'sig' } },
        },
        { type: 'text', text: 'Reading.' },
        { type: 'tool-call', toolCallId: 'a', toolName: 'read', input: { path: 'a.ts' } },
        { type: 'tool-call', toolCallId: 'b', toolName: 'read', input: { path: 'b.ts' } },
        { type: 'tool-call', toolCallId: 'c', toolName: 'shell', input: { command: 'rm -rf /' } },
        { type: 'tool-call', toolCallId: 'd', toolName: 'shot', input: {} },
        { type: 'tool-call', toolCallId: 'e', toolName: 'fail', input: {} },
        { type: 'tool-call', toolCallId: 'f', toolName: 'fail', input: {} },
        { type: 'tool-call', toolCallId: 'g', toolName: 'json', input: {} },
        { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: {}, providerExecuted: true },
        {
          type: 'tool-result',
          toolCallId: 'ws',
          toolName: 'web_search',
          output: { type: 'json', value: [] },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'a',
          toolName: 'read',
          output: { type: 'text', value: 'A'.repeat(9_000) },
        },
        { type: 'tool-result', toolCallId: 'b', toolName: 'read', output: { type: 'text', value: 'short' } },
        { type: 'tool-approval-response', approvalId: 'ap1', approved: false, reason: 'dangerous' },
        {
          type: 'tool-result',
          toolCallId: 'c',
          toolName: 'shell',
          output: { type: 'execution-denied', reason: 'dangerous' },
        },
        {
          type: 'tool-result',
          toolCallId: 'd',
          toolName: 'shot',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'Here:' },
              { type: 'image-data', data: toBase64(png), mediaType: 'image/png' },
              { type: 'file-id', fileId: 'file-123' },
            ],
          },
        },
        {
          type: 'tool-result',
          toolCallId: 'e',
          toolName: 'fail',
          output: { type: 'error-text', value: 'boom' },
        },
        {
          type: 'tool-result',
          toolCallId: 'f',
          toolName: 'fail',
          output: { type: 'error-json', value: { code: 1 } },
        },
        {
          type: 'tool-result',
          toolCallId: 'g',
          toolName: 'json',
          output: { type: 'json', value: { rows: 'B'.repeat(9_000) } },
        },
      ],
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    },
    { role: 'user', content: [{ type: 'text', text: 'Now summarize everything.' }] },
  ];
}

/** The same conversation in V4 (ai 7) shape: tagged file data, custom and reasoning-file parts. */
function v4Prompt(): unknown[] {
  const prompt = v3Prompt() as { role: string; content: { type: string; [key: string]: unknown }[] }[];
  prompt[1]!.content[1] = {
    type: 'file',
    data: { type: 'data', data: png },
    mediaType: 'image/png',
    filename: 'shot.png',
  };
  prompt[1]!.content[2] = {
    type: 'file',
    data: { type: 'url', url: new URL('https://example.com/spec.pdf') },
    mediaType: 'application/pdf',
  };
  prompt[1]!.content.push({
    type: 'file',
    data: { type: 'reference', reference: { openai: 'file-9' } },
    mediaType: 'application/pdf',
  });
  prompt[2]!.content.push(
    // A custom part the engine does not understand (an `openai.compaction` item would mark what
    // precedes it as compacted by the provider: see provider-compaction.test.ts).
    { type: 'custom', kind: 'acme.annotation', providerOptions: { acme: { encrypted: 'zzz' } } },
    { type: 'reasoning-file', data: { type: 'data', data: png }, mediaType: 'image/png' },
  );
  const shot = prompt[3]!.content[4] as unknown as { output: { value: unknown[] } };
  shot.output.value = [
    { type: 'text', text: 'Here:' },
    { type: 'file', data: { type: 'data', data: toBase64(png) }, mediaType: 'image/png' },
    { type: 'file', data: { type: 'text', text: 'notes' }, mediaType: 'text/plain' },
    { type: 'custom', providerOptions: { x: { y: 1 } } },
  ];
  return prompt;
}

function transform(
  sdkVersion: 'v3' | 'v4',
  prompt: unknown[],
  middleware = compactionMiddleware({ contextWindow: 1e6, summarizer: 'extractive' }),
) {
  const model = {
    specificationVersion: sdkVersion,
    provider: 'test',
    modelId: 'test-model',
    doGenerate: async () => ({}),
    doStream: async () => ({}),
  };
  return middleware.transformParams({ type: 'generate', params: { prompt }, model }) as Promise<{
    prompt: { role: string; content: unknown }[];
  }>;
}

const shapes = [
  { name: 'V3', version: 'v3' as const, build: v3Prompt },
  { name: 'V4', version: 'v4' as const, build: v4Prompt },
];

describe.each(shapes)('$name prompt shapes', ({ version, build }) => {
  it('under the window, every message goes down as the very same object', async () => {
    const prompt = build();
    const { prompt: sent } = await transform(version, prompt);
    expect(sent).toHaveLength(prompt.length);
    sent.forEach((message, index) => {
      expect(message).toBe(prompt[index]);
    });
  });

  it('over the window: old images become placeholders, everything it does not understand is untouched', async () => {
    const prompt = build() as { role: string; content: { type: string }[] }[];
    const tail: unknown[] = [];
    for (let turn = 0; turn < 12; turn++) {
      tail.push({
        role: 'assistant',
        content: [{ type: 'text', text: `Step ${turn}: ${'detail '.repeat(120)}` }],
      });
      tail.push({ role: 'user', content: [{ type: 'text', text: `Continue ${turn}.` }] });
    }
    const input = [...prompt, ...tail];
    // A window the conversation fills to 86%: over the compact threshold, and back under the
    // background one once the two old images are placeholders (no summary needed).
    const window = Math.ceil(promptTokens(input) / 0.86);
    const { prompt: sent } = await transform(
      version,
      input,
      compactionMiddleware({ contextWindow: window, summarizer: 'extractive' }),
    );
    expect(sent).toHaveLength(input.length);
    assertValid(sent as never);
    const text = JSON.stringify(sent);
    expect(text).not.toContain(toBase64(png).slice(0, 200));
    expect(text).toContain('[image: shot.png, 1024x768');
    // The user message was re-encoded with only the image replaced; the tool message keeps its
    // provider options; the recent tail is the very same objects.
    const user = sent[1] as { content: { type: string; text?: string }[] };
    expect(user.content[0]).toBe(prompt[1]!.content[0]);
    expect(user.content[1]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^\[image: shot\.png/),
    });
    expect(user.content[2]).toBe(prompt[1]!.content[2]);
    const tool = sent[3] as {
      content: { type: string; output?: { type: string; value: unknown[] } }[];
      providerOptions?: unknown;
    };
    expect(tool.providerOptions).toEqual({ anthropic: { cacheControl: { type: 'ephemeral' } } });
    // Other results are the same objects, or (the large ones) shortened head + tail, ids kept.
    for (const index of [0, 1, 2, 3, 5, 6, 7]) {
      const original = prompt[3]!.content[index] as unknown as { toolCallId: string };
      const part = tool.content[index] as unknown as { toolCallId: string };
      if (part === original) continue;
      expect(part.toolCallId).toBe(original.toolCallId);
      expect(JSON.stringify(part)).toContain('chars removed');
    }
    const shot = tool.content[4]!.output!;
    expect(shot.type).toBe('content');
    expect(shot.value[0]).toBe(
      (prompt[3]!.content[4] as unknown as { output: { value: unknown[] } }).output.value[0],
    );
    expect(shot.value[1]).toMatchObject({ type: 'text', text: expect.stringMatching(/^\[image: /) });
    // Items it cannot read (file ids, V4 text files and custom items) are kept as they were.
    const originalItems = (prompt[3]!.content[4] as unknown as { output: { value: unknown[] } }).output.value;
    for (const item of originalItems.slice(2)) expect(shot.value).toContain(item);
    // Reasoning (with its signature), custom and reasoning-file parts, provider-executed tools.
    expect(sent[2]).toBe(prompt[2]);
    for (let index = 4; index < input.length; index++) expect(sent[index]).toBe(input[index]);
  });
});

describe('V4 images typed by their top-level media type alone', () => {
  it("become placeholders when old, like fully typed ones (ai 7 writes `mediaType: 'image'`)", async () => {
    const prompt: unknown[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.' },
          { type: 'file', data: { type: 'data', data: png }, mediaType: 'image', filename: 'mine.png' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 's', toolName: 'shot', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 's',
            toolName: 'shot',
            output: {
              type: 'content',
              value: [{ type: 'file', data: { type: 'data', data: toBase64(png) }, mediaType: 'image' }],
            },
          },
        ],
      },
    ];
    for (let turn = 0; turn < 12; turn++) {
      prompt.push({
        role: 'assistant',
        content: [{ type: 'text', text: `Step ${turn}: ${'detail '.repeat(120)}` }],
      });
      prompt.push({ role: 'user', content: [{ type: 'text', text: `Continue ${turn}.` }] });
    }
    // Fully typed, the same conversation fills 86% of this window: over the compact threshold.
    const typed = JSON.parse(
      JSON.stringify(prompt).replaceAll('"mediaType":"image"', '"mediaType":"image/png"'),
    );
    typed[0].content[1].data.data = png;
    const window = Math.ceil(promptTokens(typed) / 0.86);
    const { prompt: sent } = await transform(
      'v4',
      prompt,
      compactionMiddleware({ contextWindow: window, summarizer: 'extractive' }),
    );
    const text = JSON.stringify(sent);
    expect(text).not.toContain(toBase64(png).slice(0, 200));
    expect(text).toContain('[image: mine.png, 1024x768');
    expect(text).toMatch(/"text":"\[image: 1024x768/);
  });
});

/** No orphan tool result, no call without its result, no empty message. */
function assertValid(prompt: { role: string; content: string | { type: string; toolCallId?: string }[] }[]) {
  const calls = new Set<string>();
  for (const message of prompt) {
    if (message.role === 'system') continue;
    expect(Array.isArray(message.content) && message.content.length > 0).toBe(true);
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (message.role === 'assistant' && part.type === 'tool-call') calls.add(part.toolCallId!);
      if (message.role === 'tool' && part.type === 'tool-result')
        expect(calls.has(part.toolCallId!)).toBe(true);
    }
  }
  // Nor a call without its result (provider-executed results sit in the assistant message).
  const results = new Set<string>();
  for (const message of prompt) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) if (part.type === 'tool-result') results.add(part.toolCallId!);
  }
  for (const id of calls) expect(results.has(id), `call ${id} has no result`).toBe(true);
}

describe('any conversation (property)', () => {
  it('always yields a valid prompt: no orphan results, no empty messages, system prompt kept, last turn kept', async () => {
    const turn = fc.record({
      userChars: fc.integer({ min: 1, max: 3_000 }),
      toolCalls: fc.integer({ min: 0, max: 3 }),
      resultChars: fc.integer({ min: 0, max: 40_000 }),
      image: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(turn, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 2_000, max: 40_000 }),
        fc.constantFrom('v3', 'v4'),
        async (turns, window, version) => {
          const prompt: unknown[] = [{ role: 'system', content: 'SYSTEM PROMPT' }];
          turns.forEach((spec, index) => {
            const userContent: unknown[] = [
              { type: 'text', text: `u${index} ${'w'.repeat(spec.userChars)}` },
            ];
            if (spec.image) userContent.push({ type: 'file', data: png, mediaType: 'image/png' });
            prompt.push({ role: 'user', content: userContent });
            if (spec.toolCalls > 0) {
              const ids = Array.from({ length: spec.toolCalls }, (_, call) => `t${index}-${call}`);
              prompt.push({
                role: 'assistant',
                content: ids.map((id) => ({
                  type: 'tool-call',
                  toolCallId: id,
                  toolName: 'read',
                  input: { id },
                })),
              });
              prompt.push({
                role: 'tool',
                content: ids.map((id) => ({
                  type: 'tool-result',
                  toolCallId: id,
                  toolName: 'read',
                  output: { type: 'text', value: 'r'.repeat(spec.resultChars) },
                })),
              });
            }
            prompt.push({ role: 'assistant', content: [{ type: 'text', text: `a${index}` }] });
          });
          const lastUser = prompt.filter((message) => (message as { role: string }).role === 'user').at(-1);
          const middleware = compactionMiddleware({ contextWindow: window, summarizer: 'extractive' });
          let sent: Awaited<ReturnType<typeof transform>>['prompt'];
          try {
            ({ prompt: sent } = await transform(version, prompt, middleware));
          } catch (error) {
            // Only a last user message that cannot fit by itself is refused, before any call.
            expect(ContextOverflowError.isInstance(error)).toBe(true);
            const { userText, system } = (error as ContextOverflowError).unshrinkable!;
            expect(userText + system).toBeGreaterThan(window * 0.85 * 0.8);
            return;
          }
          assertValid(sent as never);
          expect(
            sent.filter((message) => message.role === 'system' && message.content === 'SYSTEM PROMPT'),
          ).toHaveLength(1);
          const lastText = (lastUser as { content: { text: string }[] }).content[0]!.text;
          expect(JSON.stringify(sent)).toContain(lastText.slice(0, 40));
          expect(prompt).toHaveLength(1 + turns.reduce((sum, spec) => sum + (spec.toolCalls > 0 ? 4 : 2), 0));
        },
      ),
      { numRuns: 60, seed: 42 },
    );
  });
});

describe('both SDKs are covered', () => {
  it('tests run against ai 6 and ai 7', () => {
    expect(sdks.map((sdk) => sdk.version)).toEqual(['v3', 'v4']);
  });
});

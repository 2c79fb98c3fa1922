import type { CompactionEvent } from '@spillway/core';
import { describe, expect, it } from 'vitest';
import { type ContextUsage, compactionMiddleware } from '../src/index';
import { promptTokens } from './measure';
import { sdks, textChunks, textResult, toolCallResult } from './sdk';

const messages = [
  { role: 'user', content: 'Read the config please.' },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a.json' } }],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'read_file',
        output: { type: 'json', value: { port: 8080 } },
      },
    ],
  },
  { role: 'user', content: 'Thanks. What is the port?' },
];

describe.each(sdks)('$name with the real SDK', (sdk) => {
  it('generateText: a conversation under the window reaches the model exactly as without the middleware', async () => {
    const plain = sdk.createMockModel({ doGenerate: textResult('8080', 50) });
    await sdk.generateText({
      model: plain,
      system: 'Be exact.',
      messages,
      providerOptions: { openai: { user: 'u1' } },
    });

    const model = sdk.createMockModel({ doGenerate: textResult('8080', 50) });
    const middleware = compactionMiddleware({ contextWindow: 100_000, summarizer: 'extractive' });
    const result = await sdk.generateText({
      model: sdk.wrapLanguageModel({ model, middleware }),
      system: 'Be exact.',
      messages,
      providerOptions: { openai: { user: 'u1' }, spillway: { conversationId: 'port' } },
    });
    expect(result.text).toBe('8080');
    expect(model.doGenerateCalls[0].prompt).toEqual(plain.doGenerateCalls[0].prompt);
    expect(model.doGenerateCalls[0].providerOptions).toEqual({ openai: { user: 'u1' } });
  });

  it('streamText: same prompt, spillway key stripped, usage calibrates the estimator', async () => {
    const plain = sdk.createMockModel({
      doStream: { stream: sdk.simulateReadableStream({ chunks: textChunks('ok') }) },
    });
    await sdk.streamText({ model: plain, messages }).consumeStream();
    // The provider reports 30% more input tokens than the engine estimates.
    const reported = Math.round(promptTokens(plain.doStreamCalls[0].prompt) * 1.3);

    const model = sdk.createMockModel({
      doStream: { stream: sdk.simulateReadableStream({ chunks: textChunks('ok', reported) }) },
    });
    const middleware = compactionMiddleware({ contextWindow: 100_000, summarizer: 'extractive' });
    const result = sdk.streamText({
      model: sdk.wrapLanguageModel({ model, middleware }),
      messages,
      providerOptions: { spillway: { conversationId: 's' } },
    });
    expect(await result.text).toBe('ok');
    await middleware.compactor.idle();
    expect(model.doStreamCalls[0].prompt).toEqual(plain.doStreamCalls[0].prompt);
    expect(model.doStreamCalls[0].providerOptions ?? {}).toEqual({});
    // The provider counted more than the estimate: the estimator moved towards it, smoothly.
    const factor = middleware.compactor.estimator.calibrationFactor('mock-model-id');
    expect(factor).toBeGreaterThan(1);
    expect(factor).toBeLessThanOrEqual(1.3);
  });

  it('a multi-step tool loop: results capped per tool in the prompt, the app history untouched', async () => {
    const big = 'x'.repeat(50_000);
    let step = 0;
    const model = sdk.createMockModel({
      doGenerate: async () => {
        step++;
        if (step === 1) return toolCallResult('t1', 'read_file', { path: 'big.log' }, 100);
        if (step === 2) return toolCallResult('t2', 'search', { query: 'error' }, 100);
        return textResult('Found it.', 100);
      },
    });
    const events: CompactionEvent[] = [];
    const middleware = compactionMiddleware({
      contextWindow: 200_000,
      summarizer: 'extractive',
      toolResultLimits: { read_file: 2_000 },
      onEvent: (event) => events.push(event),
    });
    const schema = sdk.jsonSchema({ type: 'object', properties: {}, additionalProperties: true });
    const result = await sdk.generateText({
      model: sdk.wrapLanguageModel({ model, middleware }),
      prompt: 'Find the error in big.log',
      tools: {
        read_file: sdk.tool({ description: 'Read a file', inputSchema: schema, execute: async () => big }),
        search: sdk.tool({ description: 'Search', inputSchema: schema, execute: async () => big }),
      },
      stopWhen: sdk.stepCountIs(5),
    });
    expect(result.text).toBe('Found it.');
    expect(model.doGenerateCalls).toHaveLength(3);
    const last = model.doGenerateCalls[2].prompt;
    const results = last.flatMap((message: { role: string; content: { type: string }[] }) =>
      message.role === 'tool' ? message.content : [],
    );
    expect(results.map((part: { toolCallId: string }) => part.toolCallId)).toEqual(['t1', 't2']);
    const [readFile, search] = results.map((part: { output: { value: unknown } }) =>
      JSON.stringify(part.output.value),
    );
    // read_file has its own 2,000-character cap; search the default 30,000.
    expect(readFile.length).toBeLessThan(2_300);
    expect(readFile).toContain('content truncated');
    expect(search.length).toBeGreaterThan(29_000);
    expect(search.length).toBeLessThan(31_000);
    // Every tool result follows its call.
    const callIndex = last.findIndex((message: { role: string; content: unknown }) =>
      JSON.stringify(message.content).includes('"toolCallId":"t1"'),
    );
    expect(last[callIndex].role).toBe('assistant');
    expect(last[callIndex + 1].role).toBe('tool');
    // The application's own record of the steps keeps the full output.
    expect(JSON.stringify(result.steps[0].toolResults[0].output).length).toBeGreaterThan(50_000);
    // The cap was reported once per result, not once per call.
    const capped = events.flatMap((event) => (event.type === 'truncation' ? event.records : []));
    expect(capped.map((record) => record.toolCallId)).toEqual(['t1', 't2']);
  });

  it('providerOptions.spillway.disabled sends the prompt untouched (and still strips the key)', async () => {
    const model = sdk.createMockModel({ doGenerate: textResult('ok', 10) });
    const middleware = compactionMiddleware({ contextWindow: 1_000, summarizer: 'extractive' });
    const long = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'dump', input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'dump',
            output: { type: 'text', value: 'y'.repeat(40_000) },
          },
        ],
      },
      { role: 'user', content: 'and?' },
    ];
    await sdk.generateText({
      model: sdk.wrapLanguageModel({ model, middleware }),
      messages: long,
      providerOptions: { spillway: { disabled: true } },
    });
    expect(model.doGenerateCalls[0].prompt[2].content[0].output.value).toHaveLength(40_000);
    expect(model.doGenerateCalls[0].providerOptions ?? {}).toEqual({});
  });

  it('onContextUsage reports each call: the capped tool result counts before, not after', async () => {
    const model = sdk.createMockModel({ doGenerate: textResult('ok', 10) });
    const usages: ContextUsage[] = [];
    const middleware = compactionMiddleware({
      contextWindow: 100_000,
      summarizer: 'extractive',
      onContextUsage: (usage) => usages.push(usage),
    });
    const history = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'dump', input: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'dump',
            output: { type: 'text', value: 'lorem ipsum '.repeat(10_000) },
          },
        ],
      },
    ];
    await sdk.generateText({
      model: sdk.wrapLanguageModel({ model, middleware }),
      messages: history,
      providerOptions: { spillway: { conversationId: 'u' } },
    });
    expect(usages).toHaveLength(1);
    expect(usages[0]).toMatchObject({ conversationId: 'u', contextWindow: 100_000, overflowAttempt: 0 });
    expect(usages[0]!.tokensBefore).toBeGreaterThan(usages[0]!.tokensAfter * 3);
    expect(usages[0]!.actions).toEqual(['cap-tool-results']);
    expect(usages[0]!.savings['cap-tool-results']).toBeGreaterThan(usages[0]!.tokensAfter);
  });

  it('a window the model object declares comes after contextWindow and contextWindows, before the table', async () => {
    const windowOf = async (options: { contextWindow?: number; contextWindows?: Record<string, number> }) => {
      const model = sdk.createMockModel({ doGenerate: textResult('ok', 10) });
      // A gateway model that states its own window.
      Object.assign(model, { contextWindow: 1_000_000 });
      const usages: ContextUsage[] = [];
      const middleware = compactionMiddleware({
        ...options,
        summarizer: 'extractive',
        onContextUsage: (usage) => usages.push(usage),
      });
      await sdk.generateText({ model: sdk.wrapLanguageModel({ model, middleware }), prompt: 'hi' });
      return { window: usages[0]!.contextWindow, modelId: model.modelId as string };
    };
    expect((await windowOf({ contextWindow: 8_000 })).window).toBe(8_000);
    const { modelId } = await windowOf({});
    expect((await windowOf({ contextWindows: { [modelId]: 16_000 } })).window).toBe(16_000);
    expect((await windowOf({})).window).toBe(1_000_000);
  });

  it('the conversationId resolver names the conversation when the call gives no id', async () => {
    const model = sdk.createMockModel({ doGenerate: textResult('ok', 10) });
    const seen: string[] = [];
    const middleware = compactionMiddleware({
      contextWindow: 100_000,
      summarizer: 'extractive',
      conversationId: ({ params }) => (params.headers as Record<string, string> | undefined)?.['x-chat-id'],
      onContextUsage: (usage) => seen.push(usage.conversationId),
    });
    const wrapped = sdk.wrapLanguageModel({ model, middleware });
    await sdk.generateText({ model: wrapped, prompt: 'hi', headers: { 'x-chat-id': 'chat-42' } });
    await sdk.generateText({
      model: wrapped,
      prompt: 'hi',
      headers: { 'x-chat-id': 'chat-42' },
      providerOptions: { spillway: { conversationId: 'explicit' } },
    });
    await sdk.generateText({ model: wrapped, prompt: 'hi' });
    expect(seen[0]).toBe('chat-42');
    expect(seen[1]).toBe('explicit');
    expect(seen[2]).toMatch(/^derived:/);
  });

  it('structural stages: supersedeToolResults.tools teaches it your file tools; onContextUsage reports the tokens saved', async () => {
    const doc = Array.from(
      { length: 300 },
      (_, line) => `- step ${line}: review section ${line * 3} of the plan`,
    ).join('\n');
    const call = (toolCallId: string, toolName: string, input: unknown) => ({
      role: 'assistant' as const,
      content: [{ type: 'tool-call' as const, toolCallId, toolName, input }],
    });
    const result = (toolCallId: string, toolName: string, value: string) => ({
      role: 'tool' as const,
      content: [
        { type: 'tool-result' as const, toolCallId, toolName, output: { type: 'text' as const, value } },
      ],
    });
    const history = [
      { role: 'user' as const, content: 'Open the plan.' },
      call('o1', 'open_doc', { path: 'notes/plan.md' }),
      result('o1', 'open_doc', doc),
      { role: 'assistant' as const, content: 'It has 300 steps.' },
      { role: 'user' as const, content: 'Save a shorter one.' },
      call('s1', 'save_doc', { path: 'notes/plan.md', text: '- one step' }),
      result('s1', 'save_doc', 'saved'),
      { role: 'assistant' as const, content: 'Saved.' },
      // More output after the save: the history is cleared past it, so the save counts.
      { role: 'user' as const, content: 'Open the old plan too.' },
      call('o2', 'open_doc', { path: 'notes/old-plan.md' }),
      result('o2', 'open_doc', doc.replaceAll('plan', 'old plan')),
      { role: 'assistant' as const, content: 'It is the same plan.' },
      ...Array.from({ length: 6 }, (_, turn) => [
        { role: 'user' as const, content: `Question ${turn}?` },
        { role: 'assistant' as const, content: `Answer ${turn}.` },
      ]).flat(),
      { role: 'user' as const, content: 'And now?' },
    ];
    const run = async (options: Parameters<typeof compactionMiddleware>[0]) => {
      const model = sdk.createMockModel({ doGenerate: textResult('Done.', 10) });
      const usages: ContextUsage[] = [];
      await sdk.generateText({
        model: sdk.wrapLanguageModel({
          model,
          middleware: compactionMiddleware({
            contextWindow: 4_000,
            summarizer: 'extractive',
            onContextUsage: (usage) => usages.push(usage),
            ...options,
          }),
        }),
        messages: history,
      });
      const prompt = model.doGenerateCalls[0].prompt as { role: string; content: unknown }[];
      const sent = prompt.flatMap((message) =>
        message.role === 'tool'
          ? (message.content as { toolCallId: string; output: { value: string } }[])
          : [],
      );
      return { text: sent.find((part) => part.toolCallId === 'o1')!.output.value, usage: usages[0]! };
    };
    const taught = await run({
      supersedeToolResults: { tools: { read: ['open_doc'], write: ['save_doc'] } },
    });
    expect(taught.text).toMatch(
      /^\[superseded: open_doc of notes\/plan\.md is stale — save_doc wrote it later \(call s1\); read it again if you need its current content\]/,
    );
    expect(taught.usage.actions).toContain('supersede-tool-results');
    expect(taught.usage.savings['supersede-tool-results']).toBeGreaterThan(1_000);
    // Unknown tools without the mapping: the old content is only shortened, never called stale.
    const untaught = await run({});
    expect(untaught.text).not.toMatch(/superseded/);
    expect(untaught.usage.actions).not.toContain('supersede-tool-results');
  });
});

import { type CompactionEvent, type CompactionState, MemoryCompactionStore } from '@spillway/core';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from '../src/index';
import { agentTurn, chatTurn } from './conversation';
import { promptTokens } from './measure';
import { openAiOverflowError, sdks, textChunks, textResult } from './sdk';

/** A promise with its resolve function outside. */
function gate() {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A plain chat of `turns` question/answer pairs and the user's next question. */
function chatHistory(turns: number): unknown[] {
  const history: unknown[] = [];
  for (let turn = 1; turn <= turns; turn++) history.push(...chatTurn(turn));
  history.push({ role: 'user', content: `What is the status of ORD-${turns + 1}?` });
  return history;
}

describe.each(sdks)('$name: background compaction and overflow recovery', (sdk) => {
  /** The model behind a middleware that only caps tool results (a window too large to compact). */
  // biome-ignore lint/suspicious/noExplicitAny: a mock of either version
  const probeModel = (model: any) =>
    sdk.wrapLanguageModel({
      model,
      middleware: compactionMiddleware({ contextWindow: 1e9, summarizer: 'extractive' }),
    });

  it('ends the stream before background compaction finishes, and applies its summary next call', async () => {
    const history = chatHistory(12);
    // Measure the prompt once, then choose a window the conversation fills to 82%: over the
    // background threshold (0.80), under the compact one (0.85).
    const probe = sdk.createMockModel({ doGenerate: textResult('ok', 1) });
    await sdk.generateText({ model: probeModel(probe), system: 'Agent.', messages: history });
    const window = Math.ceil(promptTokens(probe.doGenerateCalls[0].prompt) / 0.82);

    const summarizerGate = gate();
    let summarizerCalls = 0;
    const events: CompactionEvent[] = [];
    const kept: Promise<unknown>[] = [];
    const middleware = compactionMiddleware({
      contextWindow: window,
      auditIdentifiers: false,
      summarizerMaxInputTokens: 1_000_000,
      waitUntil: (promise) => kept.push(promise),
      summarizer: async () => {
        summarizerCalls++;
        await summarizerGate.promise;
        return 'The user and the agent reviewed modules 1 to 8.';
      },
      onEvent: (event) => events.push(event),
    });
    const model = sdk.createMockModel({
      // biome-ignore lint/suspicious/noExplicitAny: call options of either version
      doStream: async (options: any) => ({
        stream: sdk.simulateReadableStream({
          chunks: textChunks('streamed answer', promptTokens(options.prompt)),
        }),
      }),
    });
    const wrapped = sdk.wrapLanguageModel({ model, middleware });
    const providerOptions = { spillway: { conversationId: 'bg' } };

    const result = sdk.streamText({ model: wrapped, system: 'Agent.', messages: history, providerOptions });
    expect(await result.text).toBe('streamed answer');
    // The stream is over while the summarizer is still held: compaction did not delay it.
    expect(middleware.compactor.isCompacting('bg')).toBe(true);
    expect(await middleware.compactor.store.get('bg')).toBeUndefined();
    expect(events.some((event) => event.type === 'compaction-end')).toBe(false);

    // The background work was handed to waitUntil (what keeps it alive on serverless hosts).
    expect(kept).toHaveLength(1);
    summarizerGate.open();
    await Promise.all(kept);
    expect(middleware.compactor.isCompacting('bg')).toBe(false);
    expect(summarizerCalls).toBe(1);
    expect(events.find((event) => event.type === 'compaction-end')).toMatchObject({ reason: 'background' });

    const next = sdk.streamText({
      model: wrapped,
      system: 'Agent.',
      messages: [...history, { role: 'user', content: 'And now?' }],
      providerOptions,
    });
    await next.consumeStream();
    const prompt = model.doStreamCalls[1].prompt;
    expect(prompt[0].content).toContain('The user and the agent reviewed modules 1 to 8.');
    expect(prompt.length).toBeLessThan(model.doStreamCalls[0].prompt.length);
    expect(summarizerCalls).toBe(1);
  });

  it('a stored summary is not applied to an edited history under the same conversation id', async () => {
    const history = chatHistory(12);
    const probe = sdk.createMockModel({ doGenerate: textResult('ok', 1) });
    await sdk.generateText({ model: probeModel(probe), messages: history });
    const window = Math.ceil(promptTokens(probe.doGenerateCalls[0].prompt) / 0.82);
    const middleware = compactionMiddleware({
      contextWindow: window,
      auditIdentifiers: false,
      summarizer: () => 'SUMMARY OF THE ORIGINAL HISTORY',
    });
    const model = sdk.createMockModel({
      // biome-ignore lint/suspicious/noExplicitAny: call options of either version
      doGenerate: async (options: any) => textResult('answer', promptTokens(options.prompt)),
    });
    const wrapped = sdk.wrapLanguageModel({ model, middleware });
    const providerOptions = { spillway: { conversationId: 'edited' } };
    await sdk.generateText({ model: wrapped, messages: history, providerOptions });
    await middleware.compactor.idle();
    expect(await middleware.compactor.store.get('edited')).toBeDefined();
    // The same conversation continued: the summary replaces the prefix it covers.
    await sdk.generateText({
      model: wrapped,
      messages: [...history, { role: 'user', content: 'next' }],
      providerOptions,
    });
    expect(JSON.stringify(model.doGenerateCalls[1].prompt)).toContain('SUMMARY OF THE ORIGINAL HISTORY');
    // The first request edited (a branch): the summary no longer describes it and is not applied.
    const edited = [
      { role: 'user', content: 'Turn 1: please look at src/other.ts instead.' },
      ...history.slice(1),
    ];
    edited.push({ role: 'assistant', content: 'ok' });
    await sdk.generateText({
      model: wrapped,
      messages: [...edited, { role: 'user', content: 'next' }],
      providerOptions,
    });
    const prompt = JSON.stringify(model.doGenerateCalls[2].prompt);
    expect(prompt).not.toContain('SUMMARY OF THE ORIGINAL HISTORY');
    expect(prompt).toContain('src/other.ts instead');
  });

  it('a throwing waitUntil (or any failure starting background work) never fails a completed call', async () => {
    const events: CompactionEvent[] = [];
    const middleware = compactionMiddleware({
      contextWindow: 100_000,
      summarizer: 'extractive',
      waitUntil: () => {
        throw new Error('waitUntil called outside a request context');
      },
      onEvent: (event) => events.push(event),
    });
    const model = sdk.createMockModel({
      doGenerate: textResult('generated', 10),
      doStream: async () => ({ stream: sdk.simulateReadableStream({ chunks: textChunks('streamed', 10) }) }),
    });
    const wrapped = sdk.wrapLanguageModel({ model, middleware });
    const generated = await sdk.generateText({ model: wrapped, prompt: 'hi', maxRetries: 0 });
    expect(generated.text).toBe('generated');
    const errors: unknown[] = [];
    const streamed = sdk.streamText({
      model: wrapped,
      prompt: 'hi',
      maxRetries: 0,
      onError: ({ error }: { error: unknown }) => errors.push(error),
    });
    expect(await streamed.text).toBe('streamed');
    expect(errors).toEqual([]);
    expect(
      events.filter((event) => event.type === 'compaction-failed' && event.reason === 'background'),
    ).toHaveLength(2);
  });

  it('by default each conversation is summarized by its own model, not by the one called last', async () => {
    const history = chatHistory(12);
    const probe = sdk.createMockModel({ doGenerate: textResult('ok', 1) });
    await sdk.generateText({ model: probeModel(probe), messages: history });
    const window = Math.ceil(promptTokens(probe.doGenerateCalls[0].prompt) / 0.82);
    // biome-ignore lint/suspicious/noExplicitAny: call options of either version
    const isSummaryCall = (options: any) =>
      options.prompt.length === 2 && String(options.prompt[1].content[0]?.text).includes('<transcript>');
    const answering = (name: string) =>
      sdk.createMockModel({
        modelId: name,
        // biome-ignore lint/suspicious/noExplicitAny: call options of either version
        doGenerate: async (options: any) =>
          textResult(
            isSummaryCall(options) ? `Summary by ${name}: src/module-1.ts` : 'answer',
            promptTokens(options.prompt),
          ),
      });
    const first = answering('model-a');
    const second = answering('model-b');
    // Hold the background compaction of conversation "a" until the other conversation has called
    // its model (the store read is where the background work starts).
    const held = gate();
    const inner = new MemoryCompactionStore();
    let reads = 0;
    const store = {
      get: async (id: string) => {
        if (id === 'a' && ++reads === 2) await held.promise;
        return inner.get(id);
      },
      set: (id: string, state: CompactionState) => inner.set(id, state),
      delete: (id: string) => inner.delete(id),
    };
    const middleware = compactionMiddleware({
      contextWindow: window,
      store,
      auditIdentifiers: false,
      summarizerMaxInputTokens: 1_000_000,
    });
    await sdk.generateText({
      model: sdk.wrapLanguageModel({ model: first, middleware }),
      messages: history,
      providerOptions: { spillway: { conversationId: 'a' } },
    });
    expect(middleware.compactor.isCompacting('a')).toBe(true);
    await sdk.generateText({
      model: sdk.wrapLanguageModel({ model: second, middleware }),
      prompt: 'hello',
      providerOptions: { spillway: { conversationId: 'b' } },
    });
    held.open();
    await middleware.compactor.idle();
    expect(first.doGenerateCalls.filter(isSummaryCall)).toHaveLength(1);
    expect(second.doGenerateCalls.filter(isSummaryCall)).toHaveLength(0);
    expect((await inner.get('a'))?.summaries[0]).toContain('Summary by model-a');
  });

  it('recovers from a provider overflow error with compaction and one retry', async () => {
    const history: unknown[] = [];
    for (let turn = 1; turn <= 16; turn++) history.push(...agentTurn(sdk, turn));
    const probe = sdk.createMockModel({ doGenerate: textResult('ok', 1) });
    await sdk.generateText({ model: probeModel(probe), messages: history });
    const full = promptTokens(probe.doGenerateCalls[0].prompt);
    const hiddenLimit = Math.floor(full * 0.7);

    const events: CompactionEvent[] = [];
    const model = sdk.createMockModel({
      modelId: 'unknown-model-without-a-window',
      // biome-ignore lint/suspicious/noExplicitAny: call options of either version
      doGenerate: async (options: any) => {
        if (promptTokens(options.prompt) > hiddenLimit) throw openAiOverflowError(sdk);
        return textResult('recovered', 100);
      },
    });
    const middleware = compactionMiddleware({
      summarizer: 'extractive',
      onEvent: (event) => events.push(event),
    });
    const result = await sdk.generateText({
      model: sdk.wrapLanguageModel({ model, middleware }),
      messages: history,
      maxRetries: 0,
    });
    expect(result.text).toBe('recovered');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptTokens(model.doGenerateCalls[1].prompt)).toBeLessThanOrEqual(hiddenLimit);
    expect(events.filter((event) => event.type === 'overflow-retry')).toEqual([
      expect.objectContaining({ type: 'overflow-retry', attempt: 1 }),
    ]);
    // The latest user request is still there, verbatim.
    const lastUser = model.doGenerateCalls[1].prompt
      .filter((message: { role: string }) => message.role === 'user')
      .at(-1);
    expect(JSON.stringify(lastUser)).toContain('Turn 16: please look at src/module-16.ts');
  });

  it('a store that fails while compacting for a retry never fails the call by itself', async () => {
    const inner = new MemoryCompactionStore();
    let reads = 0;
    const store = {
      get: async (id: string) => {
        if (++reads > 1) throw new Error('store unreachable');
        return inner.get(id);
      },
      set: (id: string, state: CompactionState) => inner.set(id, state),
      delete: (id: string) => inner.delete(id),
    };
    const events: CompactionEvent[] = [];
    const model = sdk.createMockModel({
      doGenerate: async () => {
        throw openAiOverflowError(sdk);
      },
    });
    const middleware = compactionMiddleware({
      summarizer: 'extractive',
      store,
      onEvent: (event) => events.push(event),
    });
    const error = await sdk
      .generateText({ model: sdk.wrapLanguageModel({ model, middleware }), prompt: 'hello', maxRetries: 0 })
      .catch((caught: unknown) => caught);
    // The store error is reported and the retry goes on without stored state; "hello" cannot be
    // made smaller, so the provider's overflow surfaces (as the cause) after one call.
    expect(events.find((event) => event.type === 'store-error')).toMatchObject({ operation: 'read' });
    expect((error as Error).name).toBe('ContextOverflowError');
    expect(((error as Error).cause as Error).message).toContain('maximum context length');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('an overflow on a prompt that cannot shrink costs one provider call, then a ContextOverflowError', async () => {
    const model = sdk.createMockModel({
      doGenerate: async () => {
        throw openAiOverflowError(sdk);
      },
    });
    const middleware = compactionMiddleware({ summarizer: 'extractive', maxOverflowRetries: 4 });
    const error = await sdk
      .generateText({ model: sdk.wrapLanguageModel({ model, middleware }), prompt: 'hello', maxRetries: 0 })
      .catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('ContextOverflowError');
    expect(((error as Error).cause as Error).message).toContain('maximum context length');
    // "hello" is already the smallest prompt there is: sending it again would only fail again.
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('surfaces a ContextOverflowError with the provider error as cause when retries run out', async () => {
    const history: unknown[] = [];
    for (let turn = 1; turn <= 16; turn++) history.push(...agentTurn(sdk, turn));
    const model = sdk.createMockModel({
      modelId: 'unknown-model-without-a-window',
      doGenerate: async () => {
        throw openAiOverflowError(sdk);
      },
    });
    const middleware = compactionMiddleware({ summarizer: 'extractive', maxOverflowRetries: 2 });
    const error = await sdk
      .generateText({ model: sdk.wrapLanguageModel({ model, middleware }), messages: history, maxRetries: 0 })
      .catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('ContextOverflowError');
    expect(((error as Error).cause as Error).message).toContain('maximum context length');
    // The error states the limit (8,192): the first retry already aims under it. Each retry is
    // smaller than the one before, and none is sent once it cannot be.
    const sizes = model.doGenerateCalls.map((call: { prompt: unknown[] }) => promptTokens(call.prompt));
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    expect(sizes.length).toBeLessThanOrEqual(3);
    for (let index = 1; index < sizes.length; index++) expect(sizes[index]).toBeLessThan(sizes[index - 1]!);
    expect(sizes[1]).toBeLessThanOrEqual(8_192 * 0.85);
    expect(middleware.compactor.contextWindowFor('unknown-model-without-a-window')).toBe(8_192);
  });

  it('never loses the conversation when the summarizer fails', async () => {
    const history = chatHistory(30);
    const events: CompactionEvent[] = [];
    const model = sdk.createMockModel({ doGenerate: textResult('still here', 100) });
    const middleware = compactionMiddleware({
      contextWindow: 10_000,
      summarizer: async () => {
        throw new Error('summarizer is down');
      },
      onEvent: (event) => events.push(event),
    });
    const wrapped = sdk.wrapLanguageModel({ model, middleware });
    const result = await sdk.generateText({ model: wrapped, messages: history });
    expect(result.text).toBe('still here');
    expect(
      events.some((event) => event.type === 'compaction-failed' && event.fallback === 'drop-oldest'),
    ).toBe(true);
    expect(promptTokens(model.doGenerateCalls[0].prompt)).toBeLessThan(10_000);
    // Nothing was stored: the next call starts from the full conversation again.
    const stored = await middleware.compactor.store.get(events[0]!.conversationId);
    expect(stored).toBeUndefined();
    // The newest turn went down verbatim.
    expect(JSON.stringify(model.doGenerateCalls[0].prompt.at(-1))).toContain('What is the status of ORD-31?');
    expect(history).toHaveLength(61);
  });

  it('summarizes with the wrapped model by default, called directly (never through the middleware)', async () => {
    const history = chatHistory(14);
    const model = sdk.createMockModel({
      // biome-ignore lint/suspicious/noExplicitAny: call options of either version
      doGenerate: async (options: any) => {
        const isSummaryCall =
          options.prompt.length === 2 && String(options.prompt[1].content[0]?.text).includes('<transcript>');
        return textResult(
          isSummaryCall ? 'MODEL-WRITTEN SUMMARY of turns 1 and on: src/module-1.ts' : 'answer',
          100,
        );
      },
    });
    const middleware = compactionMiddleware({ contextWindow: 6_000, auditIdentifiers: false });
    const wrapped = sdk.wrapLanguageModel({ model, middleware });
    await sdk.generateText({
      model: wrapped,
      messages: history,
      providerOptions: { spillway: { conversationId: 'm' } },
    });
    await middleware.compactor.idle();
    const summaryCalls = model.doGenerateCalls.filter((call) => call.prompt.length === 2);
    expect(summaryCalls.length).toBeGreaterThanOrEqual(1);
    // The summary request is the engine's own: its instructions as system prompt, no spillway key.
    expect(summaryCalls[0].prompt[0].role).toBe('system');
    expect(summaryCalls[0].providerOptions?.spillway).toBeUndefined();
    await sdk.generateText({
      model: wrapped,
      messages: [...history, { role: 'user', content: 'next' }],
      providerOptions: { spillway: { conversationId: 'm' } },
    });
    expect(JSON.stringify(model.doGenerateCalls.at(-1).prompt[0])).toContain('MODEL-WRITTEN SUMMARY');
  });
});

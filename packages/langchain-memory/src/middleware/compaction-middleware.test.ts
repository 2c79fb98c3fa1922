import { ContextOverflowError as LangChainContextOverflowError } from '@langchain/core/errors';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import {
  type CompactionEvent,
  type CompactionState,
  ContextOverflowError,
  createEstimator,
  extractiveSummarizer,
  InvalidConfigError,
  MemoryCompactionStore,
} from '@spillway/core';
import { createAgent, createMiddleware, fakeModel } from 'langchain';
import { describe, expect, test } from 'vitest';
import {
  createReadFileTool,
  createScriptedAgentModel,
  createSummaryModel,
  fileContent,
  promptTokens,
  rolesAlternate,
  toolPairsIntact,
  userMessage,
} from '../../test/agent-session';
import { gatedSummarizer, stillPendingAfter, summaryStartedBy } from '../../test/background-work';
import { type CompactionMiddlewareOptions, compactionMiddleware } from './compaction-middleware';
import { COMPACTION_STATE_KEY } from './compaction-state-schema';

const WINDOW = 16_000;
const SEED = 7;
const SYSTEM_PROMPT =
  'You are a careful coding assistant. Read files when asked and report what they export.';
/**
 * Tests about summaries turn off the request-time shortening of old tool results, which would
 * otherwise keep these sessions under the threshold for many more turns without any summary.
 */
const SUMMARIES_ONLY = { toolResultReduction: false } as const;

function setup(options: CompactionMiddlewareOptions = {}, checkpointer = new MemorySaver()) {
  const events: CompactionEvent[] = [];
  const model = createScriptedAgentModel({ contextWindow: WINDOW });
  const summaryModel = createSummaryModel();
  const agent = createAgent({
    model,
    tools: [createReadFileTool(SEED)],
    systemPrompt: SYSTEM_PROMPT,
    middleware: [
      compactionMiddleware({
        contextWindow: WINDOW,
        model: summaryModel,
        onEvent: (event) => events.push(event),
        ...options,
      }),
    ],
    checkpointer,
  });
  return { agent, model, summaryModel, events, checkpointer };
}

interface CheckpointedState {
  messages: BaseMessage[];
  [COMPACTION_STATE_KEY]?: CompactionState;
}

/** The thread's checkpointed agent state, through the public graph. */
async function readState(agent: { graph: { getState(config: object): Promise<unknown> } }, threadId: string) {
  const snapshot = (await agent.graph.getState({ configurable: { thread_id: threadId } })) as {
    values: CheckpointedState;
  };
  return snapshot;
}

async function runTurns(
  agent: ReturnType<typeof setup>['agent'],
  threadId: string,
  from: number,
  to: number,
) {
  for (let turn = from; turn < to; turn++) {
    await agent.invoke({ messages: [userMessage(turn)] }, { configurable: { thread_id: threadId } });
  }
}

describe('compactionMiddleware in createAgent (60-turn session, summaries only)', async () => {
  const session = setup(SUMMARIES_ONLY);
  await runTurns(session.agent, 'session', 0, 60);
  const state = await readState(session.agent, 'session');
  const messages = state.values.messages as BaseMessage[];

  test('no model call ever exceeds the window, though the conversation does many times over', () => {
    expect(session.model.callCount).toBe(120);
    const sent = session.model.calls.map((call) => promptTokens(call.messages));
    expect(Math.max(...sent)).toBeLessThan(WINDOW);
    expect(promptTokens(messages)).toBeGreaterThan(WINDOW * 5);
    expect(session.events.some((event) => event.type === 'compaction-end')).toBe(true);
  });

  test('the checkpointed state still holds every original message, untouched', () => {
    expect(messages).toHaveLength(60 * 4);
    const toolMessages = messages.filter((message) => ToolMessage.isInstance(message));
    expect(toolMessages).toHaveLength(60);
    toolMessages.forEach((message, turn) => {
      expect(message.content).toBe(fileContent(`src/module-${turn}.ts`, SEED));
    });
    expect(messages[0]!.text).toBe(userMessage(0).text);
  });

  test('the summary and its boundary live in the agent state', () => {
    const compaction = state.values[COMPACTION_STATE_KEY];
    expect(compaction).toBeDefined();
    expect(compaction!.coveredCount).toBeGreaterThan(100);
    expect(compaction!.summaries.join('\n')).toContain('src/module-');
    expect(session.summaryModel.callCount).toBeGreaterThan(0);
  });

  test('the model saw the summary in its system message, followed by the original system prompt', () => {
    const last = session.model.calls.at(-1)!.messages;
    expect(SystemMessage.isInstance(last[0]!)).toBe(true);
    const system = last[0]!.text;
    expect(system).toContain('Summary of the earlier conversation');
    expect(system.indexOf('Summary of the earlier conversation')).toBeLessThan(system.indexOf(SYSTEM_PROMPT));
    expect(last.filter((message) => SystemMessage.isInstance(message))).toHaveLength(1);
  });

  test('tool calls and their results are never split in what the model receives', () => {
    for (const call of session.model.calls) {
      expect(toolPairsIntact(call.messages.filter((message) => !SystemMessage.isInstance(message)))).toBe(
        true,
      );
    }
  });

  test('every request has one system message, first, and alternating turns after it', () => {
    for (const call of session.model.calls) {
      expect(SystemMessage.isInstance(call.messages[0]!)).toBe(true);
      expect(call.messages.filter((message) => SystemMessage.isInstance(message))).toHaveLength(1);
      expect(rolesAlternate(call.messages.slice(1))).toBe(true);
    }
  });

  test('the summary survives a new invoke on the same thread, in a fresh middleware (new process)', async () => {
    const fresh = setup(SUMMARIES_ONLY, session.checkpointer);
    await runTurns(fresh.agent, 'session', 60, 61);
    const stored = state.values[COMPACTION_STATE_KEY]!;
    const first = fresh.model.calls[0]!.messages;
    // The whole checkpointed summary, not a new one made from scratch (that would name other files).
    expect(first[0]!.text).toContain(stored.summaries[0]!);
    expect(promptTokens(first)).toBeLessThan(WINDOW);
    expect(first.length).toBeLessThan(60);
  });
});

test('with the default tiers, a 60-turn tool session keeps every word the user wrote, with no summary', async () => {
  const session = setup();
  await runTurns(session.agent, 'tiers', 0, 60);
  const sent = session.model.calls.map((call) => promptTokens(call.messages));
  expect(Math.max(...sent)).toBeLessThan(WINDOW);
  expect(session.summaryModel.callCount).toBe(0);
  const last = session.model.calls
    .at(-1)!
    .messages.map((message) => message.text)
    .join('\n');
  for (let turn = 0; turn < 60; turn++) expect(last).toContain(userMessage(turn).text);
  for (const call of session.model.calls) {
    expect(toolPairsIntact(call.messages.filter((message) => !SystemMessage.isInstance(message)))).toBe(true);
  }
}, 90_000); // 60 turns of a real agent: 12 s alone, over 30 s on a loaded 2-core machine.

test('a summarizer that always fails loses nothing: the requests still fit, the state keeps everything', async () => {
  const failing = fakeModel().alwaysThrow(new Error('summarizer is down'));
  const session = setup({ model: failing, ...SUMMARIES_ONLY });
  await runTurns(session.agent, 'failing', 0, 30);
  const state = await readState(session.agent, 'failing');
  expect(state.values.messages).toHaveLength(30 * 4);
  expect(state.values[COMPACTION_STATE_KEY]).toBeUndefined();
  expect(failing.callCount).toBeGreaterThan(0);
  expect(session.events.some((event) => event.type === 'compaction-failed')).toBe(true);
  for (const call of session.model.calls) {
    expect(promptTokens(call.messages)).toBeLessThan(WINDOW);
    expect(toolPairsIntact(call.messages.filter((message) => !SystemMessage.isInstance(message)))).toBe(true);
    // The emergency note folds into the first user turn: roles still alternate.
    expect(rolesAlternate(call.messages.slice(1))).toBe(true);
  }
  expect(session.events.some((event) => event.type === 'emergency-truncation')).toBe(true);
  // No error text ever stands in for history (LangChain's summarizationMiddleware does that).
  const sent = session.model.calls.flatMap((call) => call.messages.map((message) => message.text));
  expect(sent.some((text) => text.includes('summarizer is down'))).toBe(false);
});

test("the model's ContextOverflowError is compacted harder and retried", async () => {
  const events: CompactionEvent[] = [];
  const model = fakeModel()
    .respond(new LangChainContextOverflowError('prompt is too long: 210000 tokens > 200000 maximum'))
    .respond(new AIMessage('Answered after the retry.'));
  const history: BaseMessage[] = [];
  for (let turn = 0; turn < 6; turn++) {
    history.push(
      new HumanMessage(`Question ${turn}`),
      new AIMessage({
        content: '',
        tool_calls: [{ id: `c${turn}`, name: 'read_file', args: { path: `f${turn}` } }],
      }),
      new ToolMessage({ tool_call_id: `c${turn}`, name: 'read_file', content: fileContent(`f${turn}`, 1) }),
      new AIMessage(`Answer ${turn}`),
    );
  }
  // An unknown window: only the provider's error says the prompt is too long.
  const agent = createAgent({
    model,
    tools: [],
    middleware: [
      compactionMiddleware({ summarizer: extractiveSummarizer, onEvent: (event) => events.push(event) }),
    ],
  });
  const result = await agent.invoke({ messages: [...history, new HumanMessage('And now?')] });
  expect(result.messages.at(-1)!.text).toBe('Answered after the retry.');
  expect(result.messages).toHaveLength(history.length + 2);
  expect(model.callCount).toBe(2);
  const [rejected, retried] = model.calls.map((call) => promptTokens(call.messages));
  expect(retried!).toBeLessThan(rejected!);
  expect(events.find((event) => event.type === 'overflow-retry')).toMatchObject({ attempt: 1 });
  expect(
    toolPairsIntact(model.calls[1]!.messages.filter((message) => !SystemMessage.isInstance(message))),
  ).toBe(true);
});

test('with a system prompt, a second overflow retry still reaches the model (LangChain checks systemPrompt on every handler call)', async () => {
  const model = fakeModel()
    .respond(new LangChainContextOverflowError('prompt is too long'))
    .respond(new LangChainContextOverflowError('prompt is too long'))
    .respond(new AIMessage('Answered after two retries.'));
  const history: BaseMessage[] = [];
  for (let turn = 0; turn < 6; turn++) {
    history.push(
      new HumanMessage(`Question ${turn}`),
      new AIMessage({
        content: '',
        tool_calls: [{ id: `c${turn}`, name: 'read_file', args: { path: `f${turn}` } }],
      }),
      new ToolMessage({ tool_call_id: `c${turn}`, name: 'read_file', content: fileContent(`f${turn}`, 1) }),
      new AIMessage(`Answer ${turn}`),
    );
  }
  const agent = createAgent({
    model,
    tools: [],
    systemPrompt: SYSTEM_PROMPT,
    middleware: [compactionMiddleware({ summarizer: extractiveSummarizer })],
  });
  const result = await agent.invoke({ messages: [...history, new HumanMessage('And now?')] });
  expect(result.messages.at(-1)!.text).toBe('Answered after two retries.');
  expect(model.callCount).toBe(3);
  // Both retries carried the original system prompt, and what gave way is named by a summary or a
  // drop note with its reference.
  for (const call of model.calls.slice(1)) {
    expect(call.messages[0]!.text).toContain(SYSTEM_PROMPT);
    const text = call.messages.map((message) => message.text).join('\n');
    expect(text).toMatch(/Summary of the earlier conversation|\[System: \d+ older messages/);
    expect(text).toMatch(/ref=s\./);
  }
});

test('after the retries run out, the overflow surfaces as ContextOverflowError with its cause', async () => {
  const providerError = new LangChainContextOverflowError('prompt is too long');
  const model = fakeModel().alwaysThrow(providerError);
  const agent = createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ summarizer: extractiveSummarizer, maxOverflowRetries: 2 })],
  });
  const error = await agent
    .invoke({ messages: [new HumanMessage('hello')] })
    .catch((caught: unknown) => caught);
  // LangChain wraps what a middleware throws in its MiddlewareError, with the error as `cause`.
  const overflow = (error as Error).cause;
  expect(ContextOverflowError.isInstance(overflow)).toBe(true);
  expect((overflow as ContextOverflowError).cause).toBe(providerError);
  // "hello" cannot be made smaller: sending it again would only be refused again.
  expect(model.callCount).toBe(1);
});

test('a shrinkable prompt is retried smaller each time until the retries run out', async () => {
  const providerError = new LangChainContextOverflowError('prompt is too long');
  const model = fakeModel().alwaysThrow(providerError);
  const agent = createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ summarizer: extractiveSummarizer, maxOverflowRetries: 2 })],
  });
  const history: BaseMessage[] = [];
  for (let turn = 0; turn < 8; turn++) {
    history.push(
      new HumanMessage(`Question ${turn}`),
      new AIMessage({
        content: '',
        tool_calls: [{ id: `c${turn}`, name: 'read_file', args: { path: `f${turn}` } }],
      }),
      new ToolMessage({ tool_call_id: `c${turn}`, name: 'read_file', content: fileContent(`f${turn}`, 3) }),
      new AIMessage(`Answer ${turn}`),
    );
  }
  const error = await agent
    .invoke({ messages: [...history, new HumanMessage('And now?')] })
    .catch((caught: unknown) => caught);
  const overflow = (error as Error).cause;
  expect(ContextOverflowError.isInstance(overflow)).toBe(true);
  expect((overflow as ContextOverflowError).cause).toBe(providerError);
  expect(model.callCount).toBeGreaterThanOrEqual(2);
  expect(model.callCount).toBeLessThanOrEqual(3);
  const sizes = model.calls.map((call) => promptTokens(call.messages));
  for (let index = 1; index < sizes.length; index++) expect(sizes[index]).toBeLessThan(sizes[index - 1]!);
  // The latest question reached the model verbatim every time.
  // The latest question reached the model verbatim every time (after the drop note, when the whole
  // history gave way: the note and the question are one user message, as the roles must alternate).
  for (const call of model.calls) expect(call.messages.at(-1)!.text).toMatch(/(^|\n)And now\?$/);
});

test('other model errors pass through untouched, without retries', async () => {
  const boom = new Error('rate limited');
  const model = fakeModel().alwaysThrow(boom);
  const agent = createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ contextWindow: WINDOW })],
  });
  const error = await agent
    .invoke({ messages: [new HumanMessage('hello')] })
    .catch((caught: unknown) => caught);
  expect(error === boom || (error as Error).cause === boom).toBe(true);
  expect(model.callCount).toBe(1);
});

test('over the background threshold, the next summary is made after the model call, not before it', async () => {
  const session = setup({ ...SUMMARIES_ONLY, thresholds: { background: 0.5 }, trigger: { fraction: 0.9 } });
  await runTurns(session.agent, 'background', 0, 20);
  const reasons = session.events
    .filter((event) => event.type === 'compaction-end')
    .map((event) => event.reason);
  expect(reasons).toContain('background');
  for (const call of session.model.calls) expect(promptTokens(call.messages)).toBeLessThan(WINDOW);
  const state = await readState(session.agent, 'background');
  expect(state.values[COMPACTION_STATE_KEY]?.coveredCount).toBeGreaterThan(0);
});

test('events reach LangChain callbacks as custom events named spillway:<type>', async () => {
  const session = setup(SUMMARIES_ONLY);
  const names: string[] = [];
  const callbacks = [{ handleCustomEvent: (name: string) => void names.push(name) }];
  for (let turn = 0; turn < 12; turn++) {
    await session.agent.invoke(
      { messages: [userMessage(turn)] },
      { configurable: { thread_id: 'callbacks' }, callbacks },
    );
  }
  expect(names).toContain('spillway:compaction-start');
  expect(names).toContain('spillway:compaction-end');
  expect(names.every((name) => name.startsWith('spillway:'))).toBe(true);
});

test('an onEvent that throws is ignored, and LangChain callbacks still get every event', async () => {
  const session = setup({
    ...SUMMARIES_ONLY,
    onEvent: () => {
      throw new Error('handler bug');
    },
  });
  const names: string[] = [];
  const callbacks = [{ handleCustomEvent: (name: string) => void names.push(name) }];
  for (let turn = 0; turn < 12; turn++) {
    await session.agent.invoke(
      { messages: [userMessage(turn)] },
      { configurable: { thread_id: 'throwing-handler' }, callbacks },
    );
  }
  expect(names).toContain('spillway:compaction-start');
  expect(names).toContain('spillway:compaction-end');
});

test('usage_metadata.input_tokens calibrates the estimator', async () => {
  const estimator = createEstimator();
  const question = new HumanMessage('x '.repeat(400));
  // The provider counts 30% more than the estimate (inside the plausible band).
  const reported = Math.round(promptTokens([question]) * 1.3);
  const model = fakeModel().respond(
    new AIMessage({
      content: 'ok',
      usage_metadata: { input_tokens: reported, output_tokens: 2, total_tokens: reported + 2 },
    }),
  );
  const agent = createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ contextWindow: WINDOW, estimator })],
  });
  await agent.invoke({ messages: [question] });
  expect(estimator.calibrationFactor()).toBeGreaterThan(1);
  expect(estimator.calibrationFactor()).toBeLessThanOrEqual(1.3);
});

test('tool calls without ids keep their results paired', async () => {
  const model = createScriptedAgentModel({ contextWindow: WINDOW, anonymousToolCalls: true });
  const agent = createAgent({
    model,
    tools: [createReadFileTool(SEED)],
    middleware: [
      compactionMiddleware({ contextWindow: WINDOW, summarizer: extractiveSummarizer, ...SUMMARIES_ONLY }),
    ],
    checkpointer: new MemorySaver(),
  });
  await runTurns(agent, 'anonymous', 0, 25);
  const state = await readState(agent, 'anonymous');
  expect(state.values.messages).toHaveLength(100);
  // The calls really carry no ids, nor do their results.
  const assistant = state.values.messages.find(
    (message) => AIMessage.isInstance(message) && message.tool_calls?.length,
  );
  expect((assistant as AIMessage).tool_calls![0]!.id).toBeUndefined();
  expect(state.values[COMPACTION_STATE_KEY]?.coveredCount).toBeGreaterThan(0);
  for (const call of model.calls) {
    expect(promptTokens(call.messages)).toBeLessThan(WINDOW);
    expect(toolPairsIntact(call.messages.filter((message) => !SystemMessage.isInstance(message)))).toBe(true);
  }
});

test("one middleware, two threads: a thread never receives another thread's summary", async () => {
  const session = setup({ ...SUMMARIES_ONLY, summarizer: extractiveSummarizer });
  await runTurns(session.agent, 'thread-a', 0, 12);
  expect((await readState(session.agent, 'thread-a')).values[COMPACTION_STATE_KEY]).toBeDefined();
  const before = session.model.callCount;
  await runTurns(session.agent, 'thread-b', 0, 1);
  for (const call of session.model.calls.slice(before)) {
    expect(
      call.messages.some((message) => message.text.includes('Summary of the earlier conversation')),
    ).toBe(false);
  }
  expect((await readState(session.agent, 'thread-b')).values[COMPACTION_STATE_KEY]).toBeUndefined();
});

test('an inner middleware answering with a Command (not a message) passes through', async () => {
  const inner = createMiddleware({
    name: 'AnswersWithCommand',
    wrapModelCall: async () =>
      new Command({ update: { messages: [new AIMessage('from a command')] } }) as never,
  });
  const agent = createAgent({
    model: fakeModel().respond(new AIMessage('unused')),
    tools: [],
    middleware: [compactionMiddleware({ contextWindow: WINDOW }), inner],
  });
  const result = await agent.invoke({ messages: [new HumanMessage('hi')] });
  expect(result.messages.map((message) => message.text)).toEqual(['hi', 'from a command']);
});

test('bad options throw InvalidConfigError naming the option and the accepted range', () => {
  const cases: [CompactionMiddlewareOptions, RegExp][] = [
    [{ contextWindow: -1 }, /"contextWindow": must be a whole number of tokens, 1 or more \(got -1\)/],
    [{ contextWindow: Number.NaN }, /"contextWindow".*got NaN/],
    [{ contextWindow: '16000' as never }, /"contextWindow".*got "16000"/],
    [{ contextWindows: { 'my-model': -3 } }, /"contextWindows.my-model"/],
    [{ trigger: { messages: 20 } as never }, /"trigger".*message counts are not a size/],
    [{ trigger: { fraction: 2 } }, /"trigger.fraction": must be above 0 and at most 1/],
    [{ keep: { fraction: 0.5, tokens: 10 } }, /"keep"/],
    // Not "protectedRatio", which the user did not write.
    [{ keep: { fraction: 0.9 } }, /"keep.fraction": must keep less than the compact trigger: below 0.85/],
    [{ keep: { fraction: 0.5 }, trigger: { fraction: 0.4 } }, /"keep.fraction".*below 0.4/],
    [{ maxOverflowRetries: -1 }, /"maxOverflowRetries".*whole number, 0 or more/],
    [{ maxOverflowRetries: 1.5 }, /"maxOverflowRetries"/],
    [{ model: {} as never }, /"model"/],
    [{ summarizer: 'extractive' as never }, /"summarizer".*function/],
    [{ waitUntil: 3 as never }, /"waitUntil".*function/],
    [{ tokenCounter: 3 as never }, /"tokenCounter"/],
    [{ store: {} as never }, /"store".*CompactionStore/],
    [{ thresholds: { background: 0.9, compact: 0.85 } }, /"thresholds"/],
    [{ summaryPlacement: 'middle' as never }, /"summaryPlacement"/],
  ];
  for (const [options, message] of cases) {
    expect(() => compactionMiddleware(options)).toThrow(InvalidConfigError);
    expect(() => compactionMiddleware(options)).toThrow(message);
  }
});

test('keep in tokens at or above the trigger is refused naming keep.tokens, once the window is known', async () => {
  expect(() => compactionMiddleware({ contextWindow: 1000, keep: { tokens: 900 } })).toThrow(
    /"keep.tokens": must keep less than the compact trigger: below 0.85 of the window \(850 tokens of 1000\)/,
  );
  // A window known only from the model's profile: refused at the first call.
  const model = fakeModel().respond(new AIMessage('unused'));
  Object.defineProperty(model, 'profile', { value: { maxInputTokens: 1000 } });
  const agent = createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ keep: { tokens: 900 } })],
  });
  const error = await agent.invoke({ messages: [new HumanMessage('hi')] }).catch((caught: unknown) => caught);
  const cause = InvalidConfigError.isInstance(error) ? error : (error as Error).cause;
  expect(InvalidConfigError.isInstance(cause)).toBe(true);
  expect(cause).toMatchObject({ option: 'keep.tokens', value: 900 });
  expect(model.callCount).toBe(0);
});

test('compact() compacts a thread now; the next call applies the summary and checkpoints it', async () => {
  const middleware = compactionMiddleware({ summarizer: extractiveSummarizer, contextWindow: WINDOW });
  const model = createScriptedAgentModel({ contextWindow: WINDOW });
  const agent = createAgent({
    model,
    tools: [createReadFileTool(SEED, { minChars: 500, maxChars: 1500 })],
    systemPrompt: SYSTEM_PROMPT,
    middleware: [middleware],
    checkpointer: new MemorySaver(),
  });
  await runTurns(agent, 'manual', 0, 6);
  const before = await readState(agent, 'manual');
  expect(before.values[COMPACTION_STATE_KEY]).toBeUndefined();
  // Measured against a smaller window than the model's, so that part of the thread is "older".
  const compacted = await middleware.compact({
    messages: before.values.messages,
    threadId: 'manual',
    contextWindow: 4000,
  });
  expect(compacted.compacted).toBe(true);
  expect(compacted.coveredCount).toBeGreaterThan(0);
  expect(compacted.newlyCoveredCount).toBe(compacted.coveredCount);
  expect(compacted.tokensAfter).toBeLessThan(compacted.tokensBefore);
  expect(compacted.messages[0]!.text).toContain('Summary of the earlier conversation');
  // The thread's messages are untouched; the next turn applies the summary and checkpoints it.
  expect((await readState(agent, 'manual')).values.messages).toHaveLength(24);
  await runTurns(agent, 'manual', 6, 7);
  expect(model.calls.at(-2)!.messages[0]!.text).toContain('Summary of the earlier conversation');
  const after = await readState(agent, 'manual');
  expect(after.values.messages).toHaveLength(28);
  expect(after.values[COMPACTION_STATE_KEY]?.coveredCount).toBe(compacted.coveredCount);
});

test("without model or summarizer, the agent's own model writes the summary, out of the run's callbacks", async () => {
  const model = fakeModel();
  for (let index = 0; index < 10; index++) {
    model.respond((messages: BaseMessage[]) =>
      messages[0]?.text.startsWith('You are compacting the earlier part') && messages.length === 2
        ? new AIMessage('SUMMARY: the user asked about topics 0 to 9.')
        : new AIMessage('Here is my answer.'),
    );
  }
  const history = Array.from({ length: 10 }, (_, turn) => [
    new HumanMessage(`Topic ${turn}: ${'background material '.repeat(150)}`),
    new AIMessage(`Noted topic ${turn}.`),
  ]).flat();
  const agent = createAgent({
    model,
    tools: [],
    middleware: [compactionMiddleware({ contextWindow: 4000 })],
  });
  let modelStarts = 0;
  const callbacks = [{ handleChatModelStart: () => void modelStarts++ }];
  const result = await agent.invoke(
    { messages: [...history, new HumanMessage('Summarize our talk.')] },
    { callbacks },
  );
  expect(result.messages.at(-1)!.text).toBe('Here is my answer.');
  const final = model.calls.at(-1)!.messages;
  expect(final[0]!.text).toContain('SUMMARY: the user asked about topics 0 to 9.');
  // The agent's model wrote the summary (in chunks) and the answer; the run's callbacks saw the answer only.
  expect(model.callCount).toBeGreaterThan(1);
  expect(modelStarts).toBe(1);
});

test("summaryPlacement 'user' puts the summary in a leading user message and leaves the system prompt alone", async () => {
  const session = setup({ ...SUMMARIES_ONLY, summaryPlacement: 'user', summarizer: extractiveSummarizer });
  await runTurns(session.agent, 'placement', 0, 12);
  const last = session.model.calls.at(-1)!.messages;
  expect(last[0]!.text).toBe(SYSTEM_PROMPT);
  expect(HumanMessage.isInstance(last[1]!)).toBe(true);
  expect(last[1]!.text).toContain('Summary of the earlier conversation');
  expect(promptTokens(last)).toBeLessThan(WINDOW);
});

test('trigger in tokens compacts earlier than the default', async () => {
  const early = setup({ ...SUMMARIES_ONLY, trigger: { tokens: 6000 }, summarizer: extractiveSummarizer });
  await runTurns(early.agent, 'early', 0, 10);
  for (const call of early.model.calls) expect(promptTokens(call.messages)).toBeLessThan(6000 / 0.8);
  expect(early.events.some((event) => event.type === 'compaction-end')).toBe(true);
});

test('a limit stated in the overflow error is learned: later calls fit without another refusal', async () => {
  let overflows = 0;
  // No window known up front (a fake model has no profile or id); the provider states 8,000.
  const model = createScriptedAgentModel({ contextWindow: 8000, onOverflow: () => overflows++ });
  const events: CompactionEvent[] = [];
  const agent = createAgent({
    model,
    tools: [createReadFileTool(SEED)],
    middleware: [
      compactionMiddleware({ summarizer: extractiveSummarizer, onEvent: (event) => events.push(event) }),
    ],
    checkpointer: new MemorySaver(),
  });
  await runTurns(agent, 'learned', 0, 20);
  const state = await readState(agent, 'learned');
  expect(state.values.messages).toHaveLength(80);
  expect(overflows).toBe(1);
  expect(events.filter((event) => event.type === 'overflow-retry')).toHaveLength(1);
  // Every call after the refusal stayed under the stated limit.
  const refused = model.calls.findIndex((call) => promptTokens(call.messages) > 8000);
  for (const call of model.calls.slice(refused + 1))
    expect(promptTokens(call.messages)).toBeLessThanOrEqual(8000);
});

test('structural stages: supersedeToolResults.tools teaches the middleware your own file tools (a stale open_doc becomes a note naming the save_doc)', async () => {
  const doc = Array.from(
    { length: 300 },
    (_, line) => `- step ${line}: review section ${line * 3} of the plan`,
  ).join('\n');
  const history: BaseMessage[] = [
    new HumanMessage('Open the plan.'),
    new AIMessage({
      content: '',
      tool_calls: [{ id: 'o1', name: 'open_doc', args: { path: 'notes/plan.md' } }],
    }),
    new ToolMessage({ tool_call_id: 'o1', name: 'open_doc', content: doc }),
    new AIMessage('It has 300 steps.'),
    new HumanMessage('Save a shorter one.'),
    new AIMessage({
      content: '',
      tool_calls: [{ id: 's1', name: 'save_doc', args: { path: 'notes/plan.md', text: '- one step' } }],
    }),
    new ToolMessage({ tool_call_id: 's1', name: 'save_doc', content: 'saved' }),
    new AIMessage('Saved.'),
    // More output after the save: the history is cleared past it, so the save counts.
    new HumanMessage('Open the old plan too.'),
    new AIMessage({
      content: '',
      tool_calls: [{ id: 'o2', name: 'open_doc', args: { path: 'notes/old-plan.md' } }],
    }),
    new ToolMessage({ tool_call_id: 'o2', name: 'open_doc', content: doc.replaceAll('plan', 'old plan') }),
    new AIMessage('It is the same plan.'),
  ];
  for (let turn = 0; turn < 6; turn++)
    history.push(new HumanMessage(`Question ${turn}?`), new AIMessage(`Answer ${turn}.`));
  const run = async (options: CompactionMiddlewareOptions) => {
    const model = fakeModel().respond(new AIMessage('Done.'));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        compactionMiddleware({ contextWindow: 4_000, summarizer: extractiveSummarizer, ...options }),
      ],
    });
    await agent.invoke({ messages: [...history, new HumanMessage('And now?')] });
    const sent = model.calls[0]!.messages;
    return sent.find((message) => ToolMessage.isInstance(message) && message.tool_call_id === 'o1')!.text;
  };
  const taught = await run({ supersedeToolResults: { tools: { read: ['open_doc'], write: ['save_doc'] } } });
  expect(taught).toMatch(
    /^\[superseded: open_doc of notes\/plan\.md is stale — save_doc wrote it later \(call s1\); read it again if you need its current content\]/,
  );
  // Without the mapping the tools are unknown: the old content is cleared like any old output (a
  // stub naming what it held and where to read it back), never called stale.
  const untaught = await run({});
  expect(untaught).not.toMatch(/superseded/);
  expect(untaught).toMatch(/^\[cleared: open_doc output, [\d,]+ chars.*\] \[ref=t\./);
  // Turned off: the same.
  expect(await run({ supersedeToolResults: false })).not.toMatch(/superseded/);
});

/** A chat turn of about 300 tokens: a 4,000-token window fills over a dozen turns. */
function chatTurnText(turn: number): string {
  return `Turn ${turn}: tell me about /docs/topic-${turn}.md. ${'Some context about the topic. '.repeat(40)}`;
}

test('waitUntil is handed the background summary a model call starts: it settles once the summary is stored', async () => {
  const { summarizer, summaryModel, called, open } = gatedSummarizer();
  const store = new MemoryCompactionStore();
  const kept: Promise<unknown>[] = [];
  const events: CompactionEvent[] = [];
  const model = fakeModel();
  for (let turn = 0; turn < 30; turn++) model.respond(new AIMessage(`Answer ${turn}.`));
  const agent = createAgent({
    model,
    tools: [],
    middleware: [
      compactionMiddleware({
        contextWindow: 4000,
        summarizer,
        store,
        waitUntil: (promise) => void kept.push(promise),
        onEvent: (event) => events.push(event),
      }),
    ],
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: 'serverless' } };
  let turn = 0;
  let summarizing = false;
  while (!summarizing && turn < 30) {
    await agent.invoke({ messages: [new HumanMessage(chatTurnText(turn++))] }, config);
    summarizing = await summaryStartedBy(kept.at(-1), called);
  }
  expect(summarizing).toBe(true);
  // One promise per model call, each handed over before the call returned.
  expect(kept).toHaveLength(model.callCount);
  // The invoke is over; the summary is held, and so is the promise waitUntil was given.
  const work = kept.at(-1)!;
  expect(await stillPendingAfter(work, 50)).toBe(true);
  expect(await store.get('thread:serverless')).toBeUndefined();
  expect(events.some((event) => event.type === 'compaction-end')).toBe(false);

  open();
  await work;
  // Settled: the summary was written and stored.
  expect(summaryModel.callCount).toBeGreaterThan(0);
  expect((await store.get('thread:serverless'))?.coveredCount).toBeGreaterThan(0);
  expect(events.find((event) => event.type === 'compaction-end')).toMatchObject({ reason: 'background' });
  // And the next call applies it.
  await agent.invoke({ messages: [new HumanMessage(chatTurnText(turn))] }, config);
  expect(model.calls.at(-1)!.messages[0]!.text).toContain('The user asked to read');
});

test('a throwing waitUntil never fails the model call: a compaction-failed event instead', async () => {
  const events: CompactionEvent[] = [];
  const model = fakeModel().respond(new AIMessage('first')).respond(new AIMessage('second'));
  const agent = createAgent({
    model,
    tools: [],
    middleware: [
      compactionMiddleware({
        contextWindow: WINDOW,
        summarizer: extractiveSummarizer,
        waitUntil: () => {
          throw new Error('waitUntil called outside a request context');
        },
        onEvent: (event) => {
          events.push(event);
          // A handler that throws too changes nothing.
          throw new Error('handler failed');
        },
      }),
    ],
  });
  const first = await agent.invoke({ messages: [new HumanMessage('hi')] });
  expect(first.messages.at(-1)!.text).toBe('first');
  const second = await agent.invoke({ messages: [new HumanMessage('again')] });
  expect(second.messages.at(-1)!.text).toBe('second');
  const failed = events.filter((event) => event.type === 'compaction-failed');
  expect(failed).toHaveLength(2);
  expect(failed[0]).toMatchObject({ reason: 'background', fallback: 'none' });
  expect(String((failed[0] as { error: unknown }).error)).toContain('outside a request context');
});

import { ContextOverflowError as LangChainContextOverflowError } from '@langchain/core/errors';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { type CompactionEvent, ContextOverflowError, extractiveSummarizer } from '@spillway/core';
import { createAgent, fakeModel } from 'langchain';
import { expect, test } from 'vitest';
import {
  createReadFileTool,
  createScriptedAgentModel,
  fileContent,
  promptTokens,
  toolPairsIntact,
} from '../../test/agent-session';
import { readState, runTurns, SEED, SYSTEM_PROMPT, WINDOW } from '../../test/compaction-agent';
import { compactionMiddleware } from './compaction-middleware';

/**
 * When the provider refuses a prompt as too long: the middleware compacts harder and retries (with
 * the system prompt every time), shrinks the prompt on each retry, surfaces Spillway's
 * ContextOverflowError with the provider's as its cause once the retries run out, learns a limit the
 * error states, and lets every other model error through untouched.
 */

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

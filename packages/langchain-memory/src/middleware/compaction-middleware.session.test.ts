import { AIMessage, type BaseMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { extractiveSummarizer } from '@spillway/core';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, test } from 'vitest';
import {
  createReadFileTool,
  createScriptedAgentModel,
  fileContent,
  promptTokens,
  rolesAlternate,
  toolPairsIntact,
  userMessage,
} from '../../test/agent-session';
import {
  readState,
  runTurns,
  SEED,
  SUMMARIES_ONLY,
  SYSTEM_PROMPT,
  setup,
  WINDOW,
} from '../../test/compaction-agent';
import { compactionMiddleware } from './compaction-middleware';
import { COMPACTION_STATE_KEY } from './compaction-state-schema';

/**
 * Long agent sessions through the compaction middleware: every request fits the window while the
 * checkpointed thread keeps every original message; summaries live in the agent state and survive a
 * new process; the default tiers need no summary; a failing summarizer loses nothing; tool calls
 * without ids stay paired; one thread never sees another's summary.
 */

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

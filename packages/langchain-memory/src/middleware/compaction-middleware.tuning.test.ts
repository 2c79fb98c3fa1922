import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { extractiveSummarizer } from '@spillway/core';
import { createAgent, fakeModel } from 'langchain';
import { expect, test } from 'vitest';
import { promptTokens } from '../../test/agent-session';
import { runTurns, SUMMARIES_ONLY, SYSTEM_PROMPT, setup, WINDOW } from '../../test/compaction-agent';
import { type CompactionMiddlewareOptions, compactionMiddleware } from './compaction-middleware';

/**
 * Options that tune how the middleware compacts: summaryPlacement 'user' leaves the system prompt
 * alone, a trigger in tokens compacts earlier than the default, and supersedeToolResults.tools
 * teaches it which of your tools read and write files.
 */

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

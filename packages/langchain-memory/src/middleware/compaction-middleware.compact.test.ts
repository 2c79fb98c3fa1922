import { MemorySaver } from '@langchain/langgraph';
import { extractiveSummarizer } from '@spillway/core';
import { createAgent } from 'langchain';
import { expect, test } from 'vitest';
import { createReadFileTool, createScriptedAgentModel } from '../../test/agent-session';
import { readState, runTurns, SEED, SYSTEM_PROMPT, WINDOW } from '../../test/compaction-agent';
import { compactionMiddleware } from './compaction-middleware';
import { COMPACTION_STATE_KEY } from './compaction-state-schema';

/**
 * compact(): compacting a thread now, outside a model call. The thread's messages stay as they are;
 * the next call applies the summary and checkpoints it.
 */

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

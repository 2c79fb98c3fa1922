/**
 * A Mastra agent with memory (libsql) whose tool returns big files, kept inside an 8,000-token
 * window by `compactionProcessor` from @spillway/mastra. Per turn it prints how big the request
 * Mastra built was, how big the one that went out was, and what Spillway did. Then it asks for a
 * file that left the request long ago (the agent reads it back with `spillway_recall`), and starts
 * a second processor on the same store, as a restarted server would, to show the summary reused.
 *
 * Offline by default: the AI SDK's `MockLanguageModelV3` scripted as the agent (src/scripted-model.ts).
 * With OPENAI_API_KEY set, a real model (OPENAI_MODEL, default openai/gpt-4.1-mini) plays the agent
 * and writes the summaries.
 *
 * Exits non-zero if a request went over the window, lost the user's latest ask or a tool call of
 * the run in progress, no summary was made, the file read back was not the original byte for byte,
 * or the second processor did not reuse the stored summary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { type CompactionEvent, MemoryCompactionStore } from '@spillway/core';
import { type ContextUsage, compactionProcessor, recallTool } from '@spillway/mastra';
import { z } from 'zod';
import { scriptedModel } from './scripted-model';

const CONTEXT_WINDOW = 8_000;
const TURNS = 12;
const online = Boolean(process.env.OPENAI_API_KEY);

/** A deterministic "file": 3,000 to 9,000 characters of source-like text. */
function fileContent(path: string): string {
  let hash = 7;
  for (const character of path)
    hash = (Math.imul(hash ^ character.charCodeAt(0), 2654435761) >>> 0) % 1_000_003;
  const lines = [`// ${path}`];
  for (let line = 1; lines.join('\n').length < 3_000 + (hash % 6_000); line++) {
    lines.push(`export const value${line} = compute(${(hash * line) % 100_000}, 'item-${line}');`);
  }
  return lines.join('\n');
}

const readFile = createTool({
  id: 'read_file',
  description: 'Reads a file of the project and returns its content.',
  inputSchema: z.object({ path: z.string().describe('Path of the file, e.g. src/billing/invoice.ts') }),
  execute: async ({ path }) => fileContent(path),
});

const folder = mkdtempSync(join(tmpdir(), 'spillway-mastra-example-'));
// Mastra's default memory (it loads the last 10 messages): the processor adds the rest of the thread.
const memory = new Memory({
  storage: new LibSQLStore({ id: 'example', url: `file:${join(folder, 'memory.db')}` }),
});
const offline = scriptedModel({ contextWindow: CONTEXT_WINDOW });
const model = online ? (process.env.OPENAI_MODEL ?? 'openai/gpt-4.1-mini') : offline.model;

// In production: `new RedisCompactionStore(...)` or `new PostgresCompactionStore(...)`, shared by every server.
const store = new MemoryCompactionStore();
function createAgent(usages: ContextUsage[], events: CompactionEvent[]) {
  const spillway = compactionProcessor({
    contextWindow: CONTEXT_WINDOW,
    store,
    onContextUsage: (usage) => usages.push(usage),
    onEvent: (event) => events.push(event),
  });
  const agent = new Agent({
    id: 'coder',
    name: 'Coder',
    instructions: 'You are a careful coding assistant. Read the files the user names and report on them.',
    model: model as never,
    memory,
    tools: { read_file: readFile, spillway_recall: recallTool() },
    inputProcessors: [spillway],
    errorProcessors: [spillway],
  });
  return { agent, spillway };
}

const usages: ContextUsage[] = [];
const events: CompactionEvent[] = [];
const { agent, spillway } = createAgent(usages, events);
const thread = { thread: 'project-review', resource: 'user-42' };
const failures: string[] = [];

console.log(
  `${online ? `Real model (${model})` : 'Offline (scripted MockLanguageModelV3)'}: ${TURNS} turns, window ${CONTEXT_WINDOW.toLocaleString('en-US')} tokens\n`,
);
console.log('turn | requests | built by Mastra | sent (max) | what Spillway did');
console.log('-----|----------|-----------------|------------|------------------');
const areas = ['billing', 'auth', 'search', 'checkout'];
for (let turn = 0; turn < TURNS; turn++) {
  const area = areas[turn % areas.length];
  const ask = `Turn ${turn}: read src/${area}/part-${turn}a.ts and src/${area}/part-${turn}b.ts and tell me what they export.`;
  const [usageStart, eventStart, seenStart] = [usages.length, events.length, offline.seen.length];
  const result = await agent.generate(ask, { memory: thread });
  const mine = usages.slice(usageStart);
  const built = Math.max(...mine.map((usage) => usage.tokensBefore));
  const sent = Math.max(...mine.map((usage) => usage.tokensAfter));
  const did =
    [...new Set(mine.flatMap((usage) => usage.actions))].join(', ') || 'nothing (under the threshold)';
  console.log(
    `${String(turn).padStart(4)} | ${String(mine.length).padStart(8)} | ${built.toLocaleString('en-US').padStart(15)} | ${sent.toLocaleString('en-US').padStart(10)} | ${did}`,
  );
  if (sent > CONTEXT_WINDOW) failures.push(`turn ${turn}: a request of ${sent} tokens`);
  if (!online) {
    for (const request of offline.seen.slice(seenStart)) {
      if (request.ask !== ask) failures.push(`turn ${turn}: a request without the latest ask`);
      if (request.run.some((call) => !call.answered))
        failures.push(`turn ${turn}: a tool call of the run without its result`);
      if (request.tokens > CONTEXT_WINDOW)
        failures.push(`turn ${turn}: the provider rejected ${request.tokens} tokens`);
    }
    if (!result.text.startsWith('Reviewed')) failures.push(`turn ${turn}: no answer (${result.text})`);
  }
  if (events.slice(eventStart).some((event) => event.type === 'compaction-failed'))
    console.log('     | (a summary failed; the request was still brought under the window)');
  await spillway.compactor.idle();
}
const summaries = events.filter((event) => event.type === 'compaction-end').length;
console.log(
  `\n${summaries} ${summaries === 1 ? 'summary' : 'summaries'} made; the thread in Mastra memory keeps every original message.`,
);
if (summaries === 0) failures.push('no summary was made');

// A file that left the request long ago, read back word for word through spillway_recall.
const target = 'src/billing/part-0a.ts';
const recall = await agent.generate(`Tell me exactly what ${target} holds, character for character.`, {
  memory: thread,
  maxSteps: 20,
});
const exact = recall.text === fileContent(target);
console.log(
  `\nRead back ${target} with spillway_recall: ${recall.text.length} characters, ${exact ? 'identical to the original' : 'NOT the original'}.`,
);
if (!online && !exact) failures.push('the file read back was not the original');

// A second processor on the same store, as after a restart: the stored summary applies at once.
const restartUsages: ContextUsage[] = [];
const restarted = createAgent(restartUsages, []);
await restarted.agent.generate(
  'Turn 99: read src/auth/part-99a.ts and src/auth/part-99b.ts and tell me what they export.',
  {
    memory: thread,
  },
);
const first = restartUsages[0];
console.log(
  `After a restart, the first request: ${first?.actions.join(', ') || 'nothing'} (${first?.tokensAfter.toLocaleString('en-US')} tokens).`,
);
if (!first?.actions.includes('apply-summary') || first.actions.includes('summarize')) {
  failures.push('the restarted processor did not reuse the stored summary');
}
await restarted.spillway.compactor.idle();
rmSync(folder, { recursive: true, force: true });

if (failures.length > 0) {
  console.error(`\nFAILED:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
  process.exit(1);
}
console.log('\nEvery request fit the window, with the latest ask and the whole run in progress.');

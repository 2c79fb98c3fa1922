/**
 * `pnpm bench` (this package): one seeded agent session — 40 turns, each one or two rounds of
 * parallel 4–8 KB file reads (a screenshot now and then), at a 16K window — through a real Mastra
 * `Agent` with real Mastra memory (libsql on a file), side by side in one run:
 *
 * - bare: memory hands the whole thread over, nothing trims it;
 * - Mastra memory's default (the last 10 messages of the thread);
 * - Mastra memory's own token budget (`messageHistory.maxTokens` at 85% of the window);
 * - `TokenLimiterProcessor` at 85% of the window;
 * - `ToolCallFilter` + `TokenLimiterProcessor` (older tool traffic filtered first);
 * - Spillway's `compactionProcessor` (its default: the agent's own model writes summaries).
 *
 * The model is the AI SDK's `MockLanguageModelV3`, scripted as an agent (test/session.ts): it
 * rejects a request over the window as a provider would (o200k count), and calls again the tools
 * of its run that a request no longer shows. Printed per contender: requests, rejected requests,
 * largest request as a share of the window, requests missing the latest ask, requests missing a
 * tool call of the run in progress (or its whole result), requests with a call split from its
 * result, repeated tool calls, turns without an answer, and wall time as a ratio to the bare run.
 */
import { TokenLimiterProcessor, ToolCallFilter } from '@mastra/core/processors';
import { compactionProcessor } from '../src/index';
import { scratchDatabase, sessionAgent, threadMemory } from '../test/agent';
import { requestViolations } from '../test/checks';
import { type SessionTurn, toolSession } from '../test/session';

const WINDOW = 16_000;
const TURNS = 40;
const THREAD = { thread: 'bench', resource: 'bench-user' };

interface Contender {
  name: string;
  /** Input processors (and error processors) for a fresh run. */
  processors: () => { input: unknown[]; error?: unknown[]; idle?: () => Promise<void> };
  memory?: { maxTokens?: number; lastMessages?: number | 'default' };
}

interface Row {
  name: string;
  requests: number;
  rejected: number;
  largest: number;
  missingAsk: number;
  missingRunCalls: number;
  cutRunResults: number;
  splitPairs: number;
  repeatedCalls: number;
  unanswered: number;
  summarizerCalls: number;
  ms: number;
}

const SUMMARY =
  'Summary: the user asked for reviews of handler files per ticket; each was reviewed and reported.';

async function run(contender: Contender, session: readonly SessionTurn[]): Promise<Row> {
  const database = scratchDatabase();
  let summarizerCalls = 0;
  const { input, error, idle } = contender.processors();
  const { agent, requests, calls } = sessionAgent({
    session,
    contextWindow: WINDOW,
    memory: threadMemory(database.url, contender.memory ?? {}),
    inputProcessors: input as never,
    ...(error === undefined ? {} : { errorProcessors: error as never }),
    summarize: (prompt) => {
      summarizerCalls++;
      const identifiers = [...new Set(JSON.stringify(prompt).match(/TCK-\d+|src\/[\w./-]+/g) ?? [])];
      return `${SUMMARY}\nIdentifiers: ${identifiers.slice(-40).join(', ')}`;
    },
  });
  const started = performance.now();
  let unanswered = 0;
  let missingAsk = 0;
  let missingRunCalls = 0;
  let splitPairs = 0;
  let cutRunResults = 0;
  const pathsCalled = new Map<number, string[]>();
  for (const [turn, spec] of session.entries()) {
    const before = requests.length;
    try {
      const result = await agent.generate(spec.user, { memory: THREAD });
      if (result.text !== spec.answer) unanswered++;
    } catch {
      unanswered++;
    }
    for (const request of requests.slice(before)) {
      const problems = requestViolations(request, { session, turn, contextWindow: WINDOW });
      if (problems.some((problem) => problem.startsWith('latest ask'))) missingAsk++;
      if (problems.some((problem) => problem.startsWith('run call'))) missingRunCalls++;
      if (problems.some((problem) => problem.startsWith('run result'))) cutRunResults++;
      if (problems.some((problem) => problem.includes('without'))) splitPairs++;
    }
    pathsCalled.set(turn, calls.get(turn) ?? []);
    await idle?.();
  }
  const ms = performance.now() - started;
  // A repeated call: the model asked again for something its run had already read.
  let repeatedCalls = 0;
  for (const [turn, ids] of pathsCalled) {
    const planned = session[turn]!.rounds.flat().length + (session[turn]!.screenshot ? 1 : 0);
    repeatedCalls += Math.max(0, ids.length - planned);
  }
  database.remove();
  return {
    name: contender.name,
    requests: requests.length,
    rejected: requests.filter((request) => request.rejected).length,
    largest: Math.max(...requests.map((request) => request.tokens)) / WINDOW,
    missingAsk,
    missingRunCalls,
    cutRunResults,
    splitPairs,
    repeatedCalls,
    unanswered,
    summarizerCalls,
    ms,
  };
}

const limit = Math.floor(0.85 * WINDOW);
const contenders: Contender[] = [
  { name: 'bare (whole thread)', processors: () => ({ input: [] }) },
  {
    name: 'memory default (last 10 messages)',
    processors: () => ({ input: [] }),
    memory: { lastMessages: 'default' },
  },
  {
    name: 'memory messageHistory.maxTokens 85%',
    processors: () => ({ input: [] }),
    memory: { maxTokens: limit },
  },
  {
    name: 'TokenLimiterProcessor 85%',
    processors: () => ({ input: [new TokenLimiterProcessor({ limit })] }),
  },
  {
    name: 'ToolCallFilter + TokenLimiterProcessor',
    processors: () => ({ input: [new ToolCallFilter(), new TokenLimiterProcessor({ limit })] }),
  },
  {
    name: 'Spillway compactionProcessor',
    processors: () => {
      const spillway = compactionProcessor({ contextWindow: WINDOW });
      return { input: [spillway], error: [spillway], idle: () => spillway.compactor.idle() };
    },
  },
];

const session = toolSession({ turns: TURNS });
const plannedCalls = session.reduce(
  (sum, turn) => sum + turn.rounds.flat().length + (turn.screenshot ? 1 : 0),
  0,
);
console.log(
  `Mastra agent session: ${TURNS} turns, ${plannedCalls} tool calls planned (parallel 4–8 KB reads), ` +
    `${WINDOW.toLocaleString('en-US')}-token window, @mastra/core ${await mastraVersion()}\n`,
);
// Warm-up (module loading, JIT, libsql) on a short session, so the timed runs compare like with like.
for (const contender of contenders) await run(contender, toolSession({ turns: 3, seed: 1 }));
const rows: Row[] = [];
for (const contender of contenders) rows.push(await run(contender, session));
const anchor = rows.find((row) => row.name.startsWith('TokenLimiterProcessor'))!;
const header = [
  'contender',
  'requests',
  'rejected',
  'largest/window',
  'no latest ask',
  'run calls missing',
  'run results cut',
  'split pairs',
  'repeated calls',
  'unanswered turns',
  'summaries',
  'ms/request vs limiter',
];
const table = rows.map((row) => [
  row.name,
  String(row.requests),
  `${row.rejected} (${((100 * row.rejected) / row.requests).toFixed(0)}%)`,
  `${(100 * row.largest).toFixed(0)}%`,
  String(row.missingAsk),
  String(row.missingRunCalls),
  String(row.cutRunResults),
  String(row.splitPairs),
  String(row.repeatedCalls),
  `${row.unanswered}/${TURNS}`,
  String(row.summarizerCalls),
  `${(row.ms / row.requests / (anchor.ms / anchor.requests)).toFixed(2)}×`,
]);
const widths = header.map((title, column) =>
  Math.max(title.length, ...table.map((cells) => cells[column]!.length)),
);
const line = (cells: readonly string[]) =>
  `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
for (const cells of table) console.log(line(cells));
console.log(
  '\nrejected: over the window by the provider-side count (o200k). run calls missing: requests that lost a tool call' +
    ' of the run in progress or its result. run results cut: requests where a result of the run went out shortened' +
    ' although the run alone was under 60% of the window. repeated calls: tool calls made again because a request no' +
    ' longer showed them. ms/request vs limiter: wall time per model request (processors, memory, model) as a ratio' +
    ' to TokenLimiterProcessor in this run.',
);

async function mastraVersion(): Promise<string> {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  return (require('@mastra/core/package.json') as { version: string }).version;
}

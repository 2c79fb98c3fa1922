/**
 * `createCompactor().prepare` on a coding-agent session where every stage acts on every request:
 * the agent reads the same files again and again (reads of about 5.4 KB; edits, listings, greps and
 * test runs between them), and the history stays over the thresholds, so each request runs the
 * request-time reductions (supersede, cluster, previews, stubs, folds) over it — with a stored
 * summary of the oldest 30% applied first, and without one. Messages are fresh objects (a server
 * deserializes every request: `JSON.parse`, untimed) or the same objects again ("reused").
 *
 * Goal (issue 26): linear growth, the per-message cost at 10,000 and 50,000 messages at most 1.5×
 * the per-message cost at 500 (CPU time), against `JSON.parse` / `JSON.stringify` of the same
 * messages measured in the same run.
 *
 * What is timed is the package as it ships, built by tsup at the start of the run (`shippedCore`).
 *
 * Run alone: `pnpm tsx bench/coding-session.bench.ts` (from packages/core); `BENCH_SIZES=500,2000`
 * for some sizes only.
 */
import type { Message } from '../src/message/message.ts';
import { codingSession } from '../test/coding-session.ts';
import { allocatedPerCall } from './shared/allocation.ts';
import { observeCollectorPauses } from './shared/collector-pauses.ts';
import { growthGoals, printGoals, type Timings } from './shared/growth.ts';
import {
  beforeInput,
  beforeTimedCall,
  benchSizes,
  GC_PROTOCOL_NOTE,
  isMainModule,
  median,
  printTable,
  type TimedCall,
  timeCall,
  warmUpRounds,
} from './shared/measure.ts';
import { shippedCore } from './shared/shipped-core.ts';

// The package as it ships (built by tsup), not the sources through tsx: see `shippedCore`.
const { createCompactor } = await shippedCore();

const SIZES = benchSizes([100, 500, 2_000, 10_000, 50_000]);
const GROWTH_GOAL = 1.5;
/** Lines of each file (about 60 characters a line): whole reads of about 5.4 KB. */
const FILE_LINES = 90;

interface Row {
  size: number;
  megabytes: number;
  parse: number;
  stringify: number;
  freshSummary: number;
  freshReducing: number;
  reusedSummary: number;
}

type Measured = Exclude<keyof Row, 'size' | 'megabytes'>;

/** About `size` messages of a coding session (cut after a tool result or an answer). */
export function codingMessages(size: number): Message[] {
  let turns = Math.ceil(size / 5);
  for (;;) {
    const { messages } = codingSession({ seed: 26, turns, fileLines: FILE_LINES });
    if (messages.length >= size) {
      let end = size;
      while (end > 1 && messages[end - 1]!.role === 'assistant') end--;
      return messages.slice(0, end);
    }
    turns = Math.ceil(turns * 1.2);
  }
}

/** Bytes allocated per message of the request, per call (see `allocatedPerCall`). */
interface Allocation {
  size: number;
  parse: number;
  freshSummary: number;
  freshReducing: number;
}

async function measure(size: number): Promise<Timings<Row> & { allocation: Allocation }> {
  const rounds = size >= 50_000 ? 5 : size >= 10_000 ? 11 : 31;
  const messages = codingMessages(size);
  const body = JSON.stringify(messages);
  const fresh = () => JSON.parse(body) as Message[];
  const tokens = createCompactor({ contextWindow: 100_000_000 }).estimator.countMessages(messages);
  // Over the thresholds with the summary applied: the reductions act on every request.
  const summarized = createCompactor({ contextWindow: Math.ceil(tokens / 1.5) });
  const covered = messages.slice(0, Math.floor(messages.length * 0.3));
  if ((await summarized.compact(covered, { conversationId: 'summary' })) === undefined)
    throw new Error('no summary was made');
  // What must act on every request: the summary (when one is stored) and at least one of the
  // request-time reductions (which one depends on the size: superseding repeated reads, or folding
  // and stubbing old turns when that is not enough).
  const REDUCTIONS = [
    'supersede-tool-results',
    'reduce-tool-results',
    'stub-tool-results',
    'fold-tool-steps',
  ];
  const expect = (actions: readonly string[], wanted: readonly string[]) => {
    for (const action of wanted)
      if (!actions.includes(action)) throw new Error(`expected ${action}, got ${actions.join(', ')}`);
    if (!REDUCTIONS.some((action) => actions.includes(action)))
      throw new Error(`expected a reduction (${REDUCTIONS.join(', ')}), got ${actions.join(', ')}`);
  };
  const withSummary = ['apply-summary'];
  expect((await summarized.prepare(messages, { conversationId: 'summary' })).actions, withSummary);
  // No summary: the reductions alone bring it under the window.
  const reducing = createCompactor({ contextWindow: Math.ceil(tokens / 2) });
  const withoutSummary: string[] = [];
  expect((await reducing.prepare(messages, { conversationId: 'reducing' })).actions, withoutSummary);

  const cases: { name: Measured; input: () => unknown; work: (input: never) => unknown }[] = [
    // The anchors too run right after a parse of the same body (see `beforeTimedCall`).
    {
      name: 'parse',
      input: () => ({ body, parsed: fresh() }),
      work: (input: { body: string }) => JSON.parse(input.body),
    },
    { name: 'stringify', input: fresh, work: (input: Message[]) => JSON.stringify(input) },
    {
      name: 'freshSummary',
      input: fresh,
      work: async (input: Message[]) =>
        expect((await summarized.prepare(input, { conversationId: 'summary' })).actions, withSummary),
    },
    {
      name: 'freshReducing',
      input: fresh,
      work: async (input: Message[]) =>
        expect((await reducing.prepare(input, { conversationId: 'reducing' })).actions, withoutSummary),
    },
    {
      name: 'reusedSummary',
      input: () => messages,
      work: (input: Message[]) => summarized.prepare(input, { conversationId: 'summary' }),
    },
  ];
  const calls = new Map<Measured, TimedCall[]>();
  const pauses = observeCollectorPauses();
  for (let round = -warmUpRounds(size); round < rounds; round++) {
    for (const { name, input, work } of cases) {
      beforeInput();
      const value = input() as never;
      beforeTimedCall();
      const timedCall = await timeCall(() => work(value));
      if (round >= 0) calls.set(name, [...(calls.get(name) ?? []), timedCall]);
    }
  }
  await pauses.flush();
  pauses.disconnect();
  const row = (time: (call: TimedCall) => number): Row => {
    const result = (name: Measured) => median(calls.get(name)!.map(time));
    return {
      size: messages.length,
      megabytes: body.length / 1e6,
      parse: result('parse'),
      stringify: result('stringify'),
      freshSummary: result('freshSummary'),
      freshReducing: result('freshReducing'),
      reusedSummary: result('reusedSummary'),
    };
  };
  // What a call allocates, on inputs parsed beforehand (a few: 50,000 messages are 0.1 GB parsed).
  const inputs = () => Array.from({ length: size >= 50_000 ? 2 : 5 }, fresh);
  const perMessage = (bytes: number) => bytes / messages.length;
  const allocation: Allocation = {
    size: messages.length,
    parse: perMessage(await allocatedPerCall([body, body], (text) => JSON.parse(text))),
    freshSummary: perMessage(
      await allocatedPerCall(inputs(), (input) => summarized.prepare(input, { conversationId: 'summary' })),
    ),
    freshReducing: perMessage(
      await allocatedPerCall(inputs(), (input) => reducing.prepare(input, { conversationId: 'reducing' })),
    ),
  };
  return {
    wall: row((call) => call.wall),
    cpu: row((call) => call.cpu),
    own: row((call) => call.wall - pauses.within(call.start, call.end)),
    allocation,
  };
}

function printRows(results: readonly Row[]): void {
  const ms = (milliseconds: number) => `${milliseconds.toFixed(3)} ms`;
  const cell = (milliseconds: number, row: Row) =>
    `${ms(milliseconds)} (${(milliseconds / row.stringify).toFixed(2)}× / ${(milliseconds / row.parse).toFixed(2)}×)`;
  printTable([
    [
      'messages',
      'MB',
      'JSON.parse',
      'JSON.stringify',
      'fresh, summary',
      'fresh, no summary',
      'reused, summary',
    ],
    ...results.map((row) => [
      String(row.size),
      row.megabytes.toFixed(1),
      ms(row.parse),
      ms(row.stringify),
      cell(row.freshSummary, row),
      cell(row.freshReducing, row),
      cell(row.reusedSummary, row),
    ]),
  ]);
}

export async function run(): Promise<void> {
  console.log('\n## prepare() on a coding session, every stage acting on every request\n');
  const measured: (Timings<Row> & { allocation: Allocation })[] = [];
  for (const size of SIZES) measured.push(await measure(size));
  console.log('Wall-clock time:');
  printRows(measured.map(({ wall }) => wall));
  console.log('\nCPU time of the process:');
  printRows(measured.map(({ cpu }) => cpu));
  console.log("\nWall-clock time less the collector's pauses that landed in the call:");
  printRows(measured.map(({ own }) => own));
  console.log('\nAllocated per call, bytes per message of the request (V8 sampling heap profiler):');
  printTable([
    ['messages', 'JSON.parse of the body', 'fresh, summary', 'fresh, no summary'],
    ...measured.map(({ allocation }) => [
      String(allocation.size),
      `${allocation.parse.toFixed(0)} B`,
      `${allocation.freshSummary.toFixed(0)} B (${(allocation.freshSummary / allocation.parse).toFixed(2)}×)`,
      `${allocation.freshReducing.toFixed(0)} B (${(allocation.freshReducing / allocation.parse).toFixed(2)}×)`,
    ]),
  ]);
  console.log(
    '\n(a× / b×) = ratio to JSON.stringify of the messages / to JSON.parse of the request body, same run.\nMedian of 31 interleaved rounds (11 at 10,000, 5 at 50,000) after untimed warm-up rounds (each case through at least 25,000 messages, 3 rounds at least), ' +
      GC_PROTOCOL_NOTE +
      '.',
  );
  console.log('\nGoals (coding session, fresh objects):');
  printGoals(measured, (rows) =>
    growthGoals(rows, {
      cases: { freshSummary: 'fresh, summary', freshReducing: 'fresh, no summary' },
      goal: GROWTH_GOAL,
    }),
  );
}

if (isMainModule(import.meta.url)) await run();

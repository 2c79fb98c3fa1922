/**
 * Per-request overhead of `createCompactor().prepare` — what every adapter adds to every model
 * call — at 100, 500, 2,000, 10,000 and 50,000 messages, in two situations:
 *
 * - reused objects: the application passes the same message objects again (LangChain state, your
 *   own loop), so per-message estimates and hashes are memoised by identity;
 * - fresh objects: a server deserializes every request (`JSON.parse` of the request body, untimed
 *   here), so every message is a new object with the same content as in the previous request.
 *
 * Each is measured under the threshold (nothing to do) and with a stored summary being applied
 * (its covered prefix checked for exact equality with what was summarized). The anchors are the
 * server's own work on the same messages, measured in the same run: `JSON.parse` of the request
 * body and `JSON.stringify` of the messages. "hash, cold" is what hashing every message costs when
 * nothing is memoised (a conversation the process has not seen: the first request after a restart).
 *
 * Goals (issues 17 and 26): fresh ≤ 0.5 ms (median) at 500 messages; fresh ≤ 0.25×
 * `JSON.stringify` at 2,000; and linear growth: the per-message cost at 10,000 and at 50,000
 * messages at most 1.5× the per-message cost at 500 (CPU time; the same growth of `JSON.parse` is
 * printed beside it). The coding-session case (every stage acting) is `coding-session.bench.ts`.
 *
 * What is timed is the package as it ships, built by tsup at the start of the run (`shippedCore`).
 *
 * Run alone: `pnpm tsx bench/compact.bench.ts` (from packages/core); `BENCH_SIZES=500,2000` for a
 * quicker run of some sizes (the goals need 500, 2,000, 10,000 and 50,000).
 */
import type { Message } from '../src/message/message.ts';
import { agentConversation, prose, seededRandom } from '../test/conversation-fixtures.ts';
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
const { createCompactor, hashMessages } = await shippedCore();

const SIZES = benchSizes([100, 500, 2_000, 10_000, 50_000]);
const FRESH_GOAL_MILLISECONDS_AT_500 = 0.5;
const FRESH_GOAL_STRINGIFY_RATIO_AT_2000 = 0.25;
const GROWTH_GOAL = 1.5;

interface Row {
  size: number;
  megabytes: number;
  parse: number;
  stringify: number;
  hashCold: number;
  reusedUnder: number;
  reusedSummary: number;
  freshUnder: number;
  freshSummary: number;
}

type Measured = Exclude<keyof Row, 'size' | 'megabytes'>;

type Measurement = Timings<Row>;

/** A measured case: `prepare` makes the input (untimed) and returns the timed call. */
interface Case {
  name: Measured;
  prepare: () => () => unknown;
}

function timed<T>(name: Measured, input: () => T, work: (input: T) => unknown): Case {
  return {
    name,
    prepare: () => {
      const value = input();
      return () => work(value);
    },
  };
}

/** About `size` messages of a coding-agent session with 4 KB tool results (what the goals are set on). */
function codingAgent(size: number): Message[] {
  return agentConversation({ turns: Math.ceil(size / 6), toolCallsPerTurn: 2, toolResultChars: 4_000 }).slice(
    0,
    size,
  );
}

/**
 * `size` messages of a chat without tools: a system prompt, then short user questions (about 25
 * words) and assistant answers (about 80). Per character, `JSON.stringify` does little here, so
 * the per-message part of a request's cost shows.
 */
function shortChat(size: number): Message[] {
  const random = seededRandom(17);
  const messages: Message[] = [{ role: 'system', content: 'You are a helpful assistant.' }];
  for (let index = 1; index < size; index++)
    messages.push(
      index % 2 === 1
        ? { role: 'user', content: prose(random, 25) }
        : { role: 'assistant', content: prose(random, 80) },
    );
  return messages;
}

/**
 * Every case of one size, measured in interleaved rounds (one call of each per round, each on its
 * own input made untimed), so that a busy machine slows all of them alike; the median per case.
 */
async function measure(size: number, conversation: (size: number) => Message[]): Promise<Measurement> {
  const rounds = size >= 50_000 ? 5 : size >= 10_000 ? 15 : 41;
  const messages = conversation(size);
  const body = JSON.stringify(messages);
  const fresh = () => JSON.parse(body) as Message[];

  const roomy = createCompactor({ contextWindow: 100_000_000 });
  // A window the conversation overflows: compact once, then every call applies the summary.
  const tokens = roomy.estimator.countMessages(messages);
  const tight = createCompactor({ contextWindow: Math.ceil(tokens / 3) });
  // The summary is made on request (the request-time reductions alone may fit the window).
  if ((await tight.compact(messages, { conversationId: 'summary' })) === undefined)
    throw new Error('no summary was made');
  const first = await tight.prepare(messages, { conversationId: 'summary' });
  if (!first.actions.includes('apply-summary')) throw new Error('the stored summary was not applied');

  const freshCases: Case[] = [
    timed(
      'parse',
      // Like every case, right after a parse of the same body (see `beforeTimedCall`).
      () => ({ body, parsed: fresh() }),
      (input) => JSON.parse(input.body),
    ),
    timed('stringify', fresh, (input) => JSON.stringify(input)),
    timed('freshUnder', fresh, (input) => roomy.prepare(input, { conversationId: 'under' })),
    timed('freshSummary', fresh, async (input) => {
      const result = await tight.prepare(input, { conversationId: 'summary' });
      if (!result.actions.includes('apply-summary')) throw new Error('the stored summary was not applied');
    }),
  ];
  // Its own phase: hashing objects never seen leaves thousands of dead weak-map entries per call
  // for the garbage collector, a cost that would otherwise land on the cases beside it.
  const coldCases: Case[] = [timed('hashCold', fresh, (input) => hashMessages(input))];
  const reusedCases: Case[] = [
    timed(
      'reusedUnder',
      () => messages,
      (input) => roomy.prepare(input, { conversationId: 'under' }),
    ),
    timed(
      'reusedSummary',
      () => messages,
      (input) => tight.prepare(input, { conversationId: 'summary' }),
    ),
  ];
  const calls = new Map<Measured, TimedCall[]>();
  const pauses = observeCollectorPauses();
  // Fresh requests (with the anchors), the cold hash, then reused objects (a conversation is served
  // one way or the other), each in interleaved rounds; the first rounds warm up (the JIT, the memos).
  for (const cases of [freshCases, coldCases, reusedCases]) {
    for (let round = -warmUpRounds(size); round < rounds; round++) {
      for (const { name, prepare } of cases) {
        beforeInput();
        const call = prepare();
        beforeTimedCall();
        const timedCall = await timeCall(call);
        if (round >= 0) calls.set(name, [...(calls.get(name) ?? []), timedCall]);
      }
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
      hashCold: result('hashCold'),
      reusedUnder: result('reusedUnder'),
      reusedSummary: result('reusedSummary'),
      freshUnder: result('freshUnder'),
      freshSummary: result('freshSummary'),
    };
  };
  return {
    wall: row((call) => call.wall),
    cpu: row((call) => call.cpu),
    own: row((call) => call.wall - pauses.within(call.start, call.end)),
  };
}

function printRows(results: readonly Row[]): void {
  const ms = (milliseconds: number) => `${milliseconds.toFixed(3)} ms`;
  const cell = (milliseconds: number, row: Row) =>
    `${ms(milliseconds)} (${(milliseconds / row.stringify).toFixed(2)}× / ${(milliseconds / row.parse).toFixed(2)}×)`;
  const rows: string[][] = [
    [
      'messages',
      'MB',
      'JSON.parse',
      'JSON.stringify',
      'hash, cold',
      'reused, under',
      'reused, summary',
      'fresh, under',
      'fresh, summary',
    ],
  ];
  for (const row of results) {
    rows.push([
      String(row.size),
      row.megabytes.toFixed(1),
      ms(row.parse),
      ms(row.stringify),
      cell(row.hashCold, row),
      cell(row.reusedUnder, row),
      cell(row.reusedSummary, row),
      cell(row.freshUnder, row),
      cell(row.freshSummary, row),
    ]);
  }
  printTable(rows);
}

export async function run(): Promise<void> {
  console.log('\n## Per-request overhead of prepare(): reused objects and fresh (deserialized) ones\n');
  const measured: Measurement[] = [];
  for (const size of SIZES) measured.push(await measure(size, codingAgent));
  console.log('Wall-clock time:');
  printRows(measured.map(({ wall }) => wall));
  console.log("\nCPU time of the process (what a busy machine's other processes do not add):");
  printRows(measured.map(({ cpu }) => cpu));
  console.log("\nWall-clock time less the collector's pauses that landed in the call:");
  printRows(measured.map(({ own }) => own));
  console.log(
    '\n(a× / b×) = ratio to JSON.stringify of the messages / to JSON.parse of the request body, same run.\nMedian of 41 interleaved rounds (15 at 10,000, 5 at 50,000) after untimed warm-up rounds (each case through at least 25,000 messages, 3 rounds at least), ' +
      GC_PROTOCOL_NOTE +
      '.',
  );

  const worst = (row: Row) => Math.max(row.freshUnder, row.freshSummary);
  const goals = (results: Row[]) => {
    const at = (size: number) => results.find((row) => row.size === size);
    const fixed = [
      at(500) && {
        name: `≤ ${FRESH_GOAL_MILLISECONDS_AT_500} ms at 500 messages`,
        measured: `${worst(at(500)!).toFixed(3)} ms`,
        passed: worst(at(500)!) <= FRESH_GOAL_MILLISECONDS_AT_500,
      },
      at(2_000) && {
        name: `≤ ${FRESH_GOAL_STRINGIFY_RATIO_AT_2000}× JSON.stringify at 2,000 messages`,
        measured: `${(worst(at(2_000)!) / at(2_000)!.stringify).toFixed(2)}×`,
        passed: worst(at(2_000)!) / at(2_000)!.stringify <= FRESH_GOAL_STRINGIFY_RATIO_AT_2000,
      },
    ];
    const growth = growthGoals(results, {
      cases: { freshUnder: 'under', freshSummary: 'summary' },
      goal: GROWTH_GOAL,
    });
    return [...fixed.filter((goal) => goal !== undefined), ...growth];
  };
  console.log('\nGoals (fresh objects, the slower of "under" and "summary"):');
  printGoals(measured, goals);

  // The same request path on short messages: not what the goals were set on, printed beside them
  // so that a reader sees how the ratio to `JSON.stringify` depends on the conversation's shape.
  const chatSizes = SIZES.filter((size) => size === 500 || size === 2_000);
  if (chatSizes.length === 0) return;
  const chat: Measurement[] = [];
  for (const size of chatSizes) chat.push(await measure(size, shortChat));
  console.log(
    '\n### The same on a chat without tools (short messages: ~25-word questions, ~80-word answers)\n\nCPU time of the process:',
  );
  printRows(chat.map(({ cpu }) => cpu));
  console.log(
    "\nHere `JSON.stringify` does little per message, so the per-message part of a request (comparing each message with the previous request's, lending its memo, the passes over the list) is a larger share of it than on the coding session above.",
  );
}

if (isMainModule(import.meta.url)) await run();

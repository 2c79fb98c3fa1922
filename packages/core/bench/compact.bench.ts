/**
 * Per-request overhead of `createCompactor().prepare` — what every adapter adds to every model
 * call — at 100, 500 and 2,000 messages, in two situations:
 *
 * - reused objects: the application passes the same message objects again (LangChain state, your
 *   own loop), so per-message estimates and hashes are memoised;
 * - fresh objects: every request carries new objects with the same content (the AI SDK converts
 *   the prompt anew on each call), so everything is counted and hashed again.
 *
 * Each is measured under the threshold (nothing to do) and with a stored summary being applied
 * (its covered prefix re-hashed). The anchor is `JSON.stringify` of the same messages: one plain
 * pass over the data, measured in the same run.
 *
 * Run alone: `pnpm tsx bench/compact.bench.ts` (from packages/core).
 */
import { createCompactor } from '../src/compact/create-compactor.ts';
import type { Message } from '../src/message/message.ts';
import { agentConversation } from '../test/conversation-fixtures.ts';
import { isMainModule, median, printTable } from './shared/measure.ts';

const SIZES = [100, 500, 2_000];
const REPETITIONS = 40;

/** Median milliseconds of `work` over fresh inputs made (untimed) by `makeInput`. */
async function timeCalls<T>(
  makeInput: () => T,
  work: (input: T) => Promise<unknown> | unknown,
): Promise<number> {
  for (let warmUp = 0; warmUp < 3; warmUp++) await work(makeInput());
  const times: number[] = [];
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    const input = makeInput();
    const start = performance.now();
    await work(input);
    times.push(performance.now() - start);
  }
  return median(times);
}

export async function run(): Promise<void> {
  console.log('\n## Per-request overhead of prepare()\n');
  const rows: string[][] = [
    [
      'messages',
      'MB',
      'JSON.stringify',
      'reused, under',
      'reused, summary',
      'fresh, under',
      'fresh, summary',
    ],
  ];
  for (const size of SIZES) {
    // About `size` messages of a coding-agent session with 4 KB tool results.
    const messages = agentConversation({
      turns: Math.ceil(size / 6),
      toolCallsPerTurn: 2,
      toolResultChars: 4_000,
    }).slice(0, size);
    const megabytes = JSON.stringify(messages).length / 1e6;
    const fresh = () => structuredClone(messages) as Message[];
    const anchor = await timeCalls(
      () => messages,
      (input) => JSON.stringify(input),
    );

    const roomy = createCompactor({ contextWindow: 100_000_000 });
    const reusedUnder = await timeCalls(
      () => messages,
      (input) => roomy.prepare(input, { conversationId: 'under' }),
    );
    const freshUnder = await timeCalls(fresh, (input) => roomy.prepare(input, { conversationId: 'under' }));

    // A window the conversation overflows: compact once, then every call applies the summary.
    const tokens = roomy.estimator.countMessages(messages);
    const tight = createCompactor({ contextWindow: Math.ceil(tokens / 1.5) });
    await tight.prepare(messages, { conversationId: 'summary' });
    const reusedSummary = await timeCalls(
      () => messages,
      (input) => tight.prepare(input, { conversationId: 'summary' }),
    );
    const freshSummary = await timeCalls(fresh, (input) =>
      tight.prepare(input, { conversationId: 'summary' }),
    );

    const cell = (milliseconds: number) =>
      `${milliseconds.toFixed(3)} ms (${(milliseconds / anchor).toFixed(2)}×)`;
    rows.push([
      String(messages.length),
      megabytes.toFixed(1),
      `${anchor.toFixed(3)} ms`,
      cell(reusedUnder),
      cell(reusedSummary),
      cell(freshUnder),
      cell(freshSummary),
    ]);
  }
  printTable(rows);
  console.log('\n(×) = ratio to JSON.stringify of the same messages in the same run. Median of 40 calls.');
}

if (isMainModule(import.meta.url)) await run();

/**
 * One server instance for the multi-process tests of the shared stores (run by `tsx`, one process
 * each). It builds a real compactor over the store made by the module named in `STORE_MODULE`
 * (which exports `createStore(): Promise<{ store, close }>`), with a deterministic summarizer that
 * appends a line per call to `RUN_LOG`, and answers JSON commands on stdin, one per line:
 *
 * - `{ "cmd": "prepare", "turns": 20, "extra": 1, "count": 50 }`: `count` concurrent `prepare()`
 *   calls on the shared conversation (`turns` agent turns, plus `extra` new user messages);
 * - `{ "cmd": "exit" }`.
 *
 * Each reply is one JSON line. Options in env: `CONVERSATION_ID`, `CONTEXT_WINDOW`,
 * `SUMMARY_DELAY_MS` (the summarizer's work time), `LEASE_TTL_MS`, `STORE_TIMEOUT_MS`.
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type CompactionEvent, type CompactionStore, createCompactor, type Message } from '../../src/index';
import { agentConversation, SUMMARY_ONLY } from '../conversation-fixtures';

const env = (name: string, fallback?: string) => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

const conversationId = env('CONVERSATION_ID');
const contextWindow = Number(env('CONTEXT_WINDOW'));
const summaryDelayMs = Number(env('SUMMARY_DELAY_MS', '200'));
const runLog = env('RUN_LOG');
const storeModule = (await import(env('STORE_MODULE'))) as {
  createStore: () => Promise<{ store: CompactionStore; close: () => Promise<void> }>;
};
const { store, close } = await storeModule.createStore();

const events: CompactionEvent[] = [];
// Only a summary can make room (the tool output is not cleared): the scenarios are about the lease.
const compactor = createCompactor({
  ...SUMMARY_ONLY,
  store,
  contextWindow,
  auditIdentifiers: false,
  summarizerMaxInputTokens: 1_000_000,
  storeTimeoutMs: Number(env('STORE_TIMEOUT_MS', '1000')),
  lease: { ttlMs: Number(env('LEASE_TTL_MS', '30000')), pollIntervalMs: 25 },
  onEvent: (event) => events.push(event),
  summarizer: async ({ messages, previousSummary }) => {
    appendFileSync(
      runLog,
      `${JSON.stringify({ pid: process.pid, phase: 'start', covered: messages.length })}\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, summaryDelayMs));
    appendFileSync(
      runLog,
      `${JSON.stringify({ pid: process.pid, phase: 'end', covered: messages.length })}\n`,
    );
    return `${previousSummary ? `${previousSummary}\n` : ''}Summary by ${process.pid} of ${messages.length} messages about src/module0.ts.`;
  },
});

function conversation(turns: number, extra: number): Message[] {
  const messages = agentConversation({ turns, toolResultChars: 3000 });
  for (let index = 0; index < extra; index++) messages.push({ role: 'user', content: `Follow-up ${index}` });
  return messages;
}

function reply(value: unknown) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

reply({ ready: true, pid: process.pid });
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const command = JSON.parse(line) as { cmd: string; turns?: number; extra?: number; count?: number };
  if (command.cmd === 'exit') break;
  if (command.cmd === 'prepare') {
    const messages = conversation(command.turns ?? 20, command.extra ?? 0);
    const settled = await Promise.allSettled(
      Array.from({ length: command.count ?? 1 }, () => compactor.prepare(messages, { conversationId })),
    );
    const failures = settled.flatMap((outcome) =>
      outcome.status === 'rejected' ? [String((outcome.reason as Error)?.stack ?? outcome.reason)] : [],
    );
    const results = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    reply({
      ok: results.length,
      failures,
      stateChanged: results.filter((result) => result.stateChanged).length,
      applied: results.filter((result) => result.actions.includes('apply-summary')).length,
      states: [...new Set(results.map((result) => JSON.stringify(result.state ?? null)))],
      overWindow: results.filter((result) => result.tokensAfter > contextWindow).length,
      storeErrors: events.filter((event) => event.type === 'store-error').map((event) => event.reason),
    });
    events.length = 0;
  }
}
await compactor.idle();
await close();
process.exit(0);

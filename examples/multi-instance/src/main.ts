/**
 * Three chat server processes behind a (toy) load balancer share one Redis. One conversation of 36
 * turns; every turn reaches all three at once (parallel requests of one conversation: an agent's
 * fan-out, retries, several tabs). The run is made twice: with the lease (the default) and with
 * `lease: false`. Prints how many summaries each process made and applied, and exits non-zero if,
 * with the lease, any threshold crossing was summarized more than once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ModelMessage } from 'ai';
import { Redis } from 'ioredis';
import { redisForExample } from './redis-server';

const PROCESSES = 3;
const TURNS = 36;

interface Stats {
  pid: number;
  requests: number;
  summaries: number;
  applied: number;
  storeErrors: number;
}

async function startServer(env: Record<string, string>): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions=@spillway/source',
      fileURLToPath(new URL('./server.ts', import.meta.url)),
    ],
    { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const [line] = await createInterface({ input: child.stdout! })
    [Symbol.asyncIterator]()
    .next()
    .then((first) => [first.value as string]);
  return { port: Number(line), child };
}

function userTurn(turn: number): ModelMessage {
  const details =
    'We compared trains, hotels near Alfama, day trips to Sintra and Cascais, and museum passes. '.repeat(8);
  return { role: 'user', content: `Turn ${turn}: let's keep planning. ${details}` };
}

async function run(redisUrl: string, lease: 'on' | 'off'): Promise<{ stats: Stats[]; compactions: number }> {
  const runId = `${lease}-${Date.now()}`;
  const servers = await Promise.all(
    Array.from({ length: PROCESSES }, () =>
      startServer({ REDIS_URL: redisUrl, LEASE: lease, RUN_ID: runId }),
    ),
  );
  const conversationId = 'trip-planning';
  const messages: ModelMessage[] = [];
  try {
    for (let turn = 1; turn <= TURNS; turn++) {
      messages.push(userTurn(turn));
      const answers = await Promise.all(
        servers.map(async ({ port }) => {
          const response = await fetch(`http://127.0.0.1:${port}/chat`, {
            method: 'POST',
            body: JSON.stringify({ conversationId, messages }),
          });
          if (!response.ok) throw new Error(`request failed: ${await response.text()}`);
          return ((await response.json()) as { text: string }).text;
        }),
      );
      messages.push({ role: 'assistant', content: answers[0]! });
    }
    const stats = await Promise.all(
      servers.map(
        async ({ port }) => (await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as Stats,
      ),
    );
    const client = new Redis(redisUrl);
    const raw = await client.get(`example-${runId}:{${conversationId}}`);
    client.disconnect();
    const compactions = raw
      ? (JSON.parse(raw) as { state: { compactionCount: number } }).state.compactionCount
      : 0;
    return { stats, compactions };
  } finally {
    for (const { child } of servers) child.stdin!.end();
  }
}

function print(title: string, { stats, compactions }: { stats: Stats[]; compactions: number }) {
  console.log(`\n${title}`);
  console.log('process   requests  summaries made  requests with a summary applied');
  for (const row of stats) {
    console.log(
      `${String(row.pid).padEnd(8)}  ${String(row.requests).padStart(8)}  ${String(row.summaries).padStart(14)}  ${String(row.applied).padStart(31)}`,
    );
  }
  const made = stats.reduce((sum, row) => sum + row.summaries, 0);
  console.log(`summaries made in all: ${made}; compactions the conversation needed (stored): ${compactions}`);
  return made;
}

const redis = await redisForExample();
try {
  console.log(
    `${PROCESSES} server processes, one Redis (${redis.url}), one conversation of ${TURNS} turns, every turn sent to all ${PROCESSES}.`,
  );
  const withLease = await run(redis.url, 'on');
  const madeWithLease = print('With the lease (default):', withLease);
  const withoutLease = await run(redis.url, 'off');
  const madeWithout = print('Without it (lease: false, single-flight per process only):', withoutLease);
  if (withLease.compactions < 2 || madeWithLease !== withLease.compactions) {
    console.error(
      `\nFAIL: with the lease, ${madeWithLease} summaries for ${withLease.compactions} compactions.`,
    );
    process.exit(1);
  }
  console.log(
    `\nOK: with the lease every crossing was summarized once (${madeWithLease} summaries); without it, ${madeWithout} summaries were paid for.`,
  );
} finally {
  await redis.stop();
}

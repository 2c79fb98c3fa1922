/**
 * `pnpm bench:quality`: seeded agent conversations through every strategy side by side, scored
 * for what survives compaction, what can be read back, and what it costs. Offline and
 * deterministic (the scores; wall times vary with the machine).
 *
 *   pnpm bench:quality                      the default suite (a few minutes on 2 cores)
 *   pnpm bench:quality --full               the published suite (5 conversations, 50–1,000 turns)
 *   pnpm bench:quality --seed 42 --turns 300
 *   pnpm bench:quality --strategies spillway,sliding --budgets 0.15,0.5 --jobs 4 --out my.json
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GENERATOR_VERSION, generateConversation } from '../src/conversation/generate-conversation';
import { PHRASING_SPLITS, type PhrasingSplit } from '../src/conversation/phrasings/phrasing-split';
import { aggregate, formatDetector, formatReport, formatStrategies } from '../src/report/format-report';
import type { Job, JobResult } from '../src/run/run-job';
import { measureRuleDetector } from '../src/score/measure-rule-detector';
import { defaultStrategies } from '../src/strategies/default-strategies';

const here = dirname(fileURLToPath(import.meta.url));

/** The default suite: three conversations of growing length. */
const DEFAULT_SUITE = [
  { seed: 1, turns: 60 },
  { seed: 2, turns: 150 },
  { seed: 3, turns: 300 },
];
/** The published suite. */
const FULL_SUITE = [
  { seed: 1, turns: 50 },
  { seed: 2, turns: 150 },
  { seed: 3, turns: 300 },
  { seed: 4, turns: 600 },
  { seed: 5, turns: 1000 },
];

const { values } = parseArgs({
  options: {
    full: { type: 'boolean', default: false },
    seed: { type: 'string' },
    turns: { type: 'string' },
    budgets: { type: 'string', default: '0.05,0.15,0.3,0.5' },
    split: { type: 'string', default: 'heldout' },
    strategies: { type: 'string' },
    jobs: { type: 'string' },
    list: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
let suite = values.full ? FULL_SUITE : DEFAULT_SUITE;
if (values.seed !== undefined || values.turns !== undefined) {
  const seeds = values.seed === undefined ? [1] : list(values.seed).map(Number);
  const turns = values.turns === undefined ? [150] : list(values.turns).map(Number);
  suite = seeds.flatMap((seed) => turns.map((count) => ({ seed, turns: count })));
}
const split = values.split as PhrasingSplit;
if (!PHRASING_SPLITS.includes(split))
  throw new Error(`--split: ${split} is not one of ${PHRASING_SPLITS.join(', ')}`);
const budgets = list(values.budgets).map(Number);
for (const budget of budgets) {
  if (!(budget > 0 && budget <= 1)) throw new Error(`--budgets: ${budget} is not a share in (0, 1]`);
}
const allStrategies = defaultStrategies();
const filters =
  values.strategies === undefined ? [] : list(values.strategies).map((item) => item.toLowerCase());
const strategies = allStrategies.filter(
  (strategy) =>
    filters.length === 0 || filters.some((filter) => strategy.name.toLowerCase().includes(filter)),
);
if (strategies.length === 0)
  throw new Error(
    `--strategies ${values.strategies} matches none of: ${allStrategies.map((s) => s.name).join(', ')}`,
  );
if (values.list) {
  console.log(formatStrategies(strategies));
  process.exit(0);
}
const jobCount = Math.max(1, Number(values.jobs ?? Math.min(2, availableParallelism())));
const mode = values.full ? 'full' : 'default';
const out = resolve(values.out ?? resolve(here, '..', 'results', `quality-${mode}.json`));

// The longest jobs first, so the workers finish together.
const cost = (job: Job) =>
  job.turns * job.turns * (job.budget + 0.2) * (job.strategy.startsWith('LangChain') ? 4 : 1);
const jobs: Job[] = suite
  .flatMap(({ seed, turns }) =>
    budgets.flatMap((budget) =>
      strategies.map((strategy) => ({ strategy: strategy.name, seed, turns, budget, split })),
    ),
  )
  .sort((left, right) => cost(right) - cost(left));

console.log(
  `Quality benchmark: ${suite.map(({ seed, turns }) => `seed ${seed} × ${turns} turns`).join(', ')} (${split} phrasings); budgets ${budgets
    .map((budget) => `${budget * 100}%`)
    .join(
      ', ',
    )}; ${strategies.length} strategies; ${jobs.length} jobs on ${jobCount} worker${jobCount === 1 ? '' : 's'}`,
);
const started = performance.now();
const results: JobResult[] = [];
await new Promise<void>((done, fail) => {
  let next = 0;
  let running = 0;
  const startWorker = () => {
    const worker = fork(resolve(here, 'worker.ts'), [], { execArgv: process.execArgv });
    const give = () => {
      if (next >= jobs.length) {
        worker.send('exit');
        return;
      }
      worker.send(jobs[next++]!);
    };
    worker.on(
      'message',
      (message: 'ready' | { ok: true; result: JobResult } | { ok: false; job: Job; error: string }) => {
        if (message === 'ready') return give();
        if (!message.ok) {
          fail(
            new Error(
              `${message.job.strategy}, seed ${message.job.seed}, ${message.job.turns} turns, budget ${message.job.budget}:\n${message.error}`,
            ),
          );
          worker.kill();
          return;
        }
        const { result } = message;
        results.push(result);
        console.log(
          `  [${results.length}/${jobs.length}] ${result.strategy} · seed ${result.seed} · ${result.turns} turns · ${result.budget * 100}% (${result.contextWindow.toLocaleString('en-US')} tokens): ${(result.score.wallMs / 1000).toFixed(1)} s`,
        );
        give();
      },
    );
    worker.on('exit', (code) => {
      running--;
      if (code !== 0 && code !== null) fail(new Error(`a worker exited with code ${code}`));
      else if (running === 0) done();
    });
    running++;
  };
  for (let index = 0; index < Math.min(jobCount, jobs.length); index++) startWorker();
});

const names = strategies.map((strategy) => strategy.name);
const scores = aggregate(results, names, budgets);
const readBack = new Set(
  strategies.filter((strategy) => strategy.readsBack).map((strategy) => strategy.name),
);

const command = `pnpm bench:quality${process.argv.slice(2).length > 0 ? ` ${process.argv.slice(2).join(' ')}` : ''}`;
const conversations = suite.map(({ seed, turns }) => {
  const conversation = generateConversation({ seed, turns, split });
  const counts: Record<string, number> = {};
  for (const needle of conversation.needles) counts[needle.kind] = (counts[needle.kind] ?? 0) + 1;
  const tokens = results.find((result) => result.seed === seed && result.turns === turns)?.conversationTokens;
  return {
    seed,
    turns,
    calls: conversation.calls.length,
    tokens,
    needles: counts,
    attacks: conversation.attackTurns.length,
  };
});
console.log(
  `\n${command} — ${conversations
    .map(
      (c) =>
        `seed ${c.seed}: ${c.turns} turns, ${c.calls} model calls, ${c.tokens?.toLocaleString('en-US')} tokens`,
    )
    .join('; ')}\n`,
);
const headline = new Set(
  strategies.filter((strategy) => strategy.headline !== false).map((strategy) => strategy.name),
);
console.log(formatReport({ scores, budgets, strategies: names, readBack, headline }));
const detector = measureRuleDetector({ split });
console.log(`\n${formatDetector(detector)}`);
console.log(
  "\nkept: the needle is verbatim in the request; found: kept, or returned by the strategy's own read-back tool within 2 calls (shown for strategies that have one)." +
    "\nCounts: o200k_base (js-tiktoken) for text, OpenAI's tile formula for images. Wall time: framework + strategy + summarizer, per run, summed.",
);
console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s in all. Results: ${out}`);

mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify(
    {
      command,
      generatorVersion: GENERATOR_VERSION,
      split,
      budgets,
      strategies: strategies.map((strategy) => ({
        name: strategy.name,
        headline: strategy.headline !== false,
        readsBack: strategy.readsBack,
        summarizes: strategy.summarizes,
        configuration: strategy.configuration ?? '',
      })),
      readBack: [...readBack],
      conversations,
      detector,
      scores,
      runs: results.sort(
        (left, right) =>
          left.seed - right.seed ||
          left.budget - right.budget ||
          names.indexOf(left.strategy) - names.indexOf(right.strategy),
      ),
    },
    null,
    2,
  )}\n`,
);

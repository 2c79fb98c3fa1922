/**
 * `pnpm bench:quality`: seeded agent conversations through every strategy side by side, scored
 * for what survives compaction, what can be read back, and what it costs. Offline and
 * deterministic in the scripted mode (the scores; wall times vary with the machine).
 *
 *   pnpm bench:quality                      the default suite
 *   pnpm bench:quality --full               the published suite (6 conversations, 50–400 turns)
 *   pnpm bench:quality --seed 42 --turns 300
 *   pnpm bench:quality --strategies spillway,sliding --budgets 0.15,0.5 --jobs 4 --out my.json
 *   pnpm bench:quality --model openai-compatible:http://127.0.0.1:11434/v1#llama3.2   real-model mode
 *   pnpm bench:quality --help                every option
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GENERATOR_VERSION, generateConversation } from '../src/conversation/generate-conversation';
import { PHRASING_SPLITS, type PhrasingSplit } from '../src/conversation/phrasings/phrasing-split';
import { modelFromSpec } from '../src/models/model-from-spec';
import { formatProbes } from '../src/report/format-probes';
import { aggregate, formatDetector, formatReport, formatStrategies } from '../src/report/format-report';
import { formatTokenFloor } from '../src/report/format-token-floor';
import { resultsJson } from '../src/report/results-json';
import { updateReadme } from '../src/report/update-readme';
import { loadConversation } from '../src/run/conversation-cache';
import type { Job } from '../src/run/run-job';
import { runJobs } from '../src/run/run-jobs';
import { measureRuleDetector } from '../src/score/measure-rule-detector';
import { callTokens, suiteTokenFloor, tokenFloors } from '../src/score/token-floor';
import { defaultStrategies } from '../src/strategies/default-strategies';
import { createTokenCounter } from '../src/tokens/token-counter';

const here = dirname(fileURLToPath(import.meta.url));

/** The default suite: three conversations of growing length. */
const DEFAULT_SUITE = [
  { seed: 1, turns: 60 },
  { seed: 2, turns: 150 },
  { seed: 3, turns: 300 },
];
/**
 * The published suite: six conversations, seeds 1–6, 50 to 400 turns (two shared with the default
 * suite, so their cache entries serve both). Sized to finish within 30 minutes on 2 cores: the cost
 * of a job grows faster than the square of its length (the engine's per-call work grows with the
 * history), so a 1,000-turn conversation would cost more than this whole suite; run one with
 * `--seed 5 --turns 1000`.
 */
const FULL_SUITE = [
  { seed: 1, turns: 50 },
  { seed: 2, turns: 150 },
  { seed: 3, turns: 300 },
  { seed: 4, turns: 100 },
  { seed: 5, turns: 200 },
  { seed: 6, turns: 400 },
];
/** The real-model suite: several short conversations (every probe is a model call). */
const REAL_MODEL_SUITE = [1, 2, 3, 4, 5].map((seed) => ({ seed, turns: 40 }));

const USAGE = `pnpm bench:quality [options]

  --full                 the published suite (seeds 1–6, 50–400 turns); default: seeds 1–3, 60–300 turns
  --seed N[,N…]          these seeds instead (with --turns: every pair)
  --turns N[,N…]         these lengths instead (default 150 with --seed)
  --budgets S[,S…]       windows as shares of each conversation (default 0.05,0.15,0.3,0.5)
  --split heldout|tune   phrasings: heldout is published, tune is what the engine may be tuned on (default heldout)
  --strategies A[,B…]    rows whose name contains these words (a whole row name: that row alone)
  --list                 list the rows selected and exit
  --jobs N               workers (default: 2, or fewer cores)
  --out FILE             the JSON results (default results/quality-<mode>.json)
  --no-cache             generate conversations afresh (the scores are the same)
  --update-readme        write the tables into README.md
  --model SPEC           real-model mode (probes answered by the model; see README)
  --summarizer SPEC      the summarizer in real-model mode (default: the model)
  --judge SPEC           a model that judges free answers in real-model mode
  --help                 this text`;

let parsed: ReturnType<typeof parseOptions>;
try {
  parsed = parseOptions();
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
if (parsed.values.help) {
  console.log(USAGE);
  process.exit(0);
}
const { values } = parsed;

function parseOptions() {
  return parseArgs({
    options: {
      help: { type: 'boolean', default: false },
      full: { type: 'boolean', default: false },
      seed: { type: 'string' },
      turns: { type: 'string' },
      budgets: { type: 'string' },
      split: { type: 'string', default: 'heldout' },
      strategies: { type: 'string' },
      jobs: { type: 'string' },
      list: { type: 'boolean', default: false },
      model: { type: 'string' },
      summarizer: { type: 'string' },
      judge: { type: 'string' },
      out: { type: 'string' },
      cache: { type: 'boolean', default: true },
      'update-readme': { type: 'boolean', default: false },
    },
    allowNegative: true,
  });
}

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
const realModel = values.model !== undefined;
let suite = values.full ? FULL_SUITE : realModel ? REAL_MODEL_SUITE : DEFAULT_SUITE;
if (values.seed !== undefined || values.turns !== undefined) {
  const seeds = values.seed === undefined ? [1] : list(values.seed).map(Number);
  const turns = values.turns === undefined ? [150] : list(values.turns).map(Number);
  suite = seeds.flatMap((seed) => turns.map((count) => ({ seed, turns: count })));
}
const split = values.split as PhrasingSplit;
if (!PHRASING_SPLITS.includes(split))
  throw new Error(`--split: ${split} is not one of ${PHRASING_SPLITS.join(', ')}`);
const budgets = list(values.budgets ?? (realModel ? '0.15,0.3' : '0.05,0.15,0.3,0.5')).map(Number);
for (const budget of budgets) {
  if (!(budget > 0 && budget <= 1)) throw new Error(`--budgets: ${budget} is not a share in (0, 1]`);
}
// Real-model mode: the summarizer is the model unless another is named.
const summarizer = values.summarizer ?? values.model;
for (const [option, spec] of [
  ['--model', values.model],
  ['--summarizer', summarizer],
  ['--judge', values.judge],
] as const) {
  if (spec !== undefined) modelFromSpec({ spec, option }); // fails early, naming the option
}

const allStrategies = defaultStrategies();
const filters =
  values.strategies === undefined ? [] : list(values.strategies).map((item) => item.toLowerCase());
// A filter that is a whole row name selects that row alone; any other, every row containing it.
const strategies = allStrategies.filter((strategy) => {
  if (filters.length === 0) return strategy.optIn !== true;
  const name = strategy.name.toLowerCase();
  return filters.some((filter) =>
    allStrategies.some((other) => other.name.toLowerCase() === filter)
      ? name === filter
      : name.includes(filter),
  );
});
if (strategies.length === 0) {
  throw new Error(
    `--strategies ${values.strategies} matches none of: ${allStrategies.map((s) => s.name).join(', ')}`,
  );
}
if (values.list) {
  console.log(formatStrategies(strategies));
  process.exit(0);
}
const jobCount = Math.max(1, Number(values.jobs ?? Math.min(2, availableParallelism())));
const mode = values.full ? 'full' : realModel ? 'real' : 'default';
const out = resolve(values.out ?? resolve(here, '..', 'results', `quality-${mode}.json`));

// The longest jobs first, so the workers finish together: a job's CPU time grows about as the square
// of its length, and per row as measured on the default suite (Spillway rows the heaviest).
const weight = (strategy: string) =>
  strategy.startsWith('Spillway')
    ? 3
    : strategy.startsWith('@context-chef')
      ? 1.5
      : strategy.startsWith('LangChain')
        ? 1
        : 0.2;
const cost = (job: Job) => job.turns * job.turns * (job.budget + 0.5) * weight(job.strategy);
const jobs: Job[] = suite
  .flatMap(({ seed, turns }) =>
    budgets.flatMap((budget) =>
      strategies.map(
        (strategy): Job => ({
          strategy: strategy.name,
          seed,
          turns,
          budget,
          split,
          ...(values.model === undefined ? {} : { model: values.model }),
          ...(summarizer === undefined ? {} : { summarizer }),
          ...(values.judge === undefined ? {} : { judge: values.judge }),
          ...(values.cache ? {} : { cache: false as const }),
        }),
      ),
    ),
  )
  .sort((left, right) => cost(right) - cost(left));

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
console.log(
  `Quality benchmark${realModel ? ` (real model: ${values.model}, summarizer ${summarizer}${values.judge ? `, judge ${values.judge}` : ''})` : ''}: ${suite
    .map(({ seed, turns }) => `seed ${seed} × ${turns} turns`)
    .join(', ')} (${split} phrasings); budgets ${budgets.map((budget) => `${budget * 100}%`).join(', ')}; ${
    strategies.length
  } ${strategies.length === 1 ? 'strategy' : 'strategies'}; ${plural(jobs.length, 'job')} on ${plural(jobCount, 'worker')}`,
);
const started = performance.now();
// Generate and count each conversation once, here, before the workers read it from the cache.
const counter = createTokenCounter();
const loaded = suite.map(({ seed, turns }) => {
  const entry = loadConversation({
    seed,
    turns,
    split,
    counter,
    ...(values.cache ? {} : { dir: false }),
  });
  if (!entry.cached && values.cache) console.log(`  cached seed ${seed} × ${turns} turns (${split})`);
  return entry;
});
const results = await runJobs({
  jobs,
  workers: jobCount,
  workerFile: resolve(here, 'worker.ts'),
  onResult: (result, done) =>
    console.log(
      `  [${done}/${jobs.length}] ${result.strategy} · seed ${result.seed} · ${result.turns} turns · ${result.budget * 100}% (${result.contextWindow.toLocaleString('en-US')} tokens): ${(result.score.wallMs / 1000).toFixed(1)} s`,
    ),
});
const seconds = (performance.now() - started) / 1000;

const names = strategies.map((strategy) => strategy.name);
const scores = aggregate(results, names, budgets);
const readBack = new Set(
  strategies.filter((strategy) => strategy.readsBack).map((strategy) => strategy.name),
);
const headline = new Set(
  strategies.filter((strategy) => strategy.headline !== false).map((strategy) => strategy.name),
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
const printed: string[] = [];
const print = (text: string) => {
  printed.push(text);
  console.log(text);
};
print(
  `\n${command} — ${conversations
    .map(
      (c) =>
        `seed ${c.seed}: ${c.turns} turns, ${c.calls} model calls, ${c.tokens?.toLocaleString('en-US')} tokens`,
    )
    .join('; ')}\n`,
);
print(formatReport({ scores, budgets, strategies: names, readBack, headline }));
// The token floor of each budget, for every number of breaks a row made (see `tokenFloors`).
const floors = new Map<number, number[][]>();
for (const { conversation, tokens } of loaded) {
  const perCall = callTokens(conversation, counter);
  for (const budget of budgets) {
    const mostBreaks = Math.max(
      0,
      ...scores.filter((score) => score.budget === budget).map((score) => score.prefixBreaks),
    );
    const list = floors.get(budget) ?? [];
    list.push(tokenFloors(perCall, Math.floor(tokens * budget), mostBreaks));
    floors.set(budget, list);
  }
}
const floorAt = (budget: number, breaks: number) => suiteTokenFloor(floors.get(budget) ?? [], breaks);
const floorSection = formatTokenFloor({
  scores,
  budgets,
  strategies: names.filter((name) => headline.has(name)),
  floorAt,
});
if (floorSection !== '') print(`\n${floorSection}`);
if (realModel) print(`\n${formatProbes({ scores, budgets, strategies: names })}`);
const detector = measureRuleDetector({ split });
print(`\n${formatDetector(detector)}`);
console.log(
  "\nkept: the needle is verbatim in the request; found: kept, or returned by the strategy's own read-back tool, asked the needle's question, within 2 calls (shown for strategies that have one)." +
    '\nCounts: o200k_base (js-tiktoken) for text, OpenAI’s tile formula for images. Tokens sent: every model request, summarizer prompt and read-back request, each whole. Wall time: framework + strategy + summarizer, per run, summed.',
);
console.log(`\n${seconds.toFixed(0)} s in all. Results: ${out}`);
if (values['update-readme']) {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  // Any uncommitted change in the repository but what the bench writes itself (this README, the
  // results, the root README's hand-written paragraph) makes a run's code dirty.
  const dirty =
    execFileSync(
      'git',
      [
        'status',
        '--porcelain',
        '--',
        ':(top)',
        ':(top,exclude)README.md',
        ':(top,exclude)packages/quality-bench/README.md',
        ':(top,exclude)packages/quality-bench/results',
      ],
      { encoding: 'utf8' },
    ).trim() !== '';
  updateReadme({
    file: resolve(here, '..', 'README.md'),
    name: mode,
    body: [
      '```sh',
      command.replace(/ --update-readme\b/, ''),
      '```',
      '',
      `Made at ${commit}${dirty ? ' (with uncommitted changes)' : ''} on ${availableParallelism()} cores with ${plural(jobCount, 'worker')}, ${Math.round(seconds)} s; the JSON is \`${relative(resolve(here, '..'), out)}\`.`,
      ...printed,
    ].join('\n'),
  });
  console.log(`README block "${mode}" updated.`);
}

mkdirSync(dirname(out), { recursive: true });
const document = resultsJson({
  command,
  generatorVersion: GENERATOR_VERSION,
  split,
  mode: realModel ? 'real-model' : 'scripted',
  models: {
    ...(values.model === undefined ? {} : { model: values.model }),
    summarizer: summarizer ?? 'lossy model (scripted)',
    ...(values.judge === undefined ? {} : { judge: values.judge }),
  },
  budgets,
  strategies,
  conversations,
  detector,
  scores,
  tokenFloor: floorAt,
  runs: results.sort(
    (left, right) =>
      left.seed - right.seed ||
      left.budget - right.budget ||
      names.indexOf(left.strategy) - names.indexOf(right.strategy),
  ),
  seconds,
});
writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);

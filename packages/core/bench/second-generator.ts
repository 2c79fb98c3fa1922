import { parseArgs } from 'node:util';
import { extractiveSummarizer } from '../src/summarize/extractive-summarizer.ts';
import type { Summarizer } from '../src/summarize/summarizer.ts';
import {
  FACT_KINDS,
  keptShare,
  lossySummarizer,
  type OperationsRun,
  runOperationsSession,
} from '../test/operations-runs.ts';

/**
 * `pnpm --filter @spillway/core bench:second-generator`: Spillway against the naive baseline (every
 * tool result older than the latest user message a stub, all text kept, the oldest turns dropped
 * while over the window) on the second conversation generator (`test/operations-session.ts`: long
 * user messages, facts said once in passing, standing instructions phrased freely), which the
 * quality bench does not use. Per seed, window and summarizer: the share of each kind of fact found
 * verbatim in the request at every tenth turn, cache breaks per 100 turns, tokens sent and the
 * part of them a prompt cache could not serve, the baseline's beside each. Not part of `pnpm bench` (it measures what is kept, not time).
 *
 *   --seeds 26,27,28      sessions (default 26–28)
 *   --windows 0.05,0.15   windows as shares of each session's tokens (default 0.05, 0.15)
 *   --turns 160           turns per session (default 160)
 */
const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '26,27,28' },
    windows: { type: 'string', default: '0.05,0.15' },
    turns: { type: 'string', default: '160' },
  },
});
const numbers = (text: string, name: string) =>
  text.split(',').map((item) => {
    const value = Number(item);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name}: ${item} is not a positive number`);
    return value;
  });
const seeds = numbers(values.seeds, 'seeds');
const windows = numbers(values.windows, 'windows');
const [turns] = numbers(values.turns, 'turns');
const summarizers: [string, Summarizer][] = [
  ['extractive', extractiveSummarizer],
  ['stock sentence', lossySummarizer],
];

const percent = (share: number) => `${Math.round(share * 100)}%`;
const perHundred = (run: OperationsRun) => ((run.prefixBreaks / run.turns) * 100).toFixed(1);
const millions = (tokens: number) => `${(tokens / 1e6).toFixed(2)} M`;

console.log(
  `# Spillway against the naive baseline on the second generator (${turns} turns; the baseline's figure in parentheses)\n`,
);
const LABELS = {
  'user-id': 'user ids',
  path: 'paths',
  decision: 'decisions',
  rule: 'rules',
  'tool-id': 'ids in tool output',
} as const;
const header = [
  'window',
  'seed',
  'summarizer',
  ...FACT_KINDS.map((kind) => LABELS[kind]),
  'cache breaks / 100 turns',
  'tokens sent',
  'of which uncached',
  'summarizer calls',
];
console.log(`| ${header.join(' | ')} |`);
console.log(`| ${header.map(() => '---').join(' | ')} |`);
const below: string[] = [];
for (const share of windows) {
  for (const seed of seeds) {
    const naive = await runOperationsSession({
      strategy: 'naive',
      seed,
      share,
      summarizer: lossySummarizer,
      turns,
    });
    for (const [name, summarizer] of summarizers) {
      const run = await runOperationsSession({ strategy: 'spillway', seed, share, summarizer, turns });
      const cells = FACT_KINDS.map((kind) => {
        const mine = keptShare(run, kind);
        const theirs = keptShare(naive, kind);
        if (mine < theirs) below.push(`${percent(share)} seed ${seed} ${name}: ${LABELS[kind]}`);
        return `${percent(mine)} (${percent(theirs)})`;
      });
      console.log(
        `| ${percent(share)} | ${seed} | ${name} | ${cells.join(' | ')} | ${perHundred(run)} (${perHundred(naive)}) | ${millions(run.tokensSent)} (${millions(naive.tokensSent)}) | ${millions(run.uncachedTokens)} (${millions(naive.uncachedTokens)}) | ${run.summarizerCalls} |`,
      );
      if (run.turnsOverWindow > 0)
        below.push(`${percent(share)} seed ${seed} ${name}: ${run.turnsOverWindow} turns over the window`);
    }
  }
}
console.log(
  below.length === 0
    ? '\nEvery kind at or above the baseline in every run, no request over the window.'
    : `\nBelow the baseline or over the window:\n${below.map((line) => `- ${line}`).join('\n')}`,
);

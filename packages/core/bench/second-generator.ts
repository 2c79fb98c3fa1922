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
 * part of them a prompt cache could not serve, the baseline's beside each. Not part of
 * `pnpm bench` (it measures what is kept, not time).
 *
 *   --seeds 26,27,28      sessions, whole numbers (default 26–28)
 *   --windows 0.05,0.15   windows as shares of each session's tokens, over 0 and at most 1
 *                         (default 0.05, 0.15)
 *   --turns 160           turns per session, at least 10: facts are checked every tenth turn
 *                         (default 160)
 */
const USAGE =
  'usage: pnpm --filter @spillway/core bench:second-generator [--seeds 26,27,28] [--windows 0.05,0.15] [--turns 160]';

/** The options, checked; a bad one prints what is wrong and the usage, and exits with 2. */
function parseOptions(): { seeds: number[]; windows: number[]; turns: number } {
  try {
    const { values } = parseArgs({
      options: {
        seeds: { type: 'string', default: '26,27,28' },
        windows: { type: 'string', default: '0.05,0.15' },
        turns: { type: 'string', default: '160' },
      },
    });
    const list = (name: string, text: string, valid: (value: number) => boolean, expected: string) =>
      text.split(',').map((item) => {
        const value = Number(item);
        if (item.trim() === '' || !valid(value)) throw new Error(`--${name}: ${item} is not ${expected}`);
        return value;
      });
    if (values.turns.includes(',')) throw new Error(`--turns: ${values.turns} is not one number`);
    const [turns] = list(
      'turns',
      values.turns,
      (value) => Number.isInteger(value) && value >= 10,
      'a whole number ≥ 10',
    );
    return {
      seeds: list('seeds', values.seeds, Number.isInteger, 'a whole number'),
      windows: list(
        'windows',
        values.windows,
        (value) => value > 0 && value <= 1,
        'a share over 0, at most 1',
      ),
      turns: turns!,
    };
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}
const { seeds, windows, turns } = parseOptions();
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
    const naive = await runOperationsSession({ strategy: 'naive', seed, share, turns });
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

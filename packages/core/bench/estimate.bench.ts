/**
 * Token estimation: accuracy against OpenAI's o200k_base (js-tiktoken) per content class, and
 * throughput, for Spillway's default estimator and the anchors tokenx and chars/4, all measured in
 * this run on the same corpus.
 *
 * Run alone: `pnpm tsx bench/estimate.bench.ts` (from packages/core).
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { estimateTokenCount } from 'tokenx';
import { CHARS_PER_TOKEN_ESTIMATE } from '../src/estimate/chars-per-token.ts';
import { createEstimator } from '../src/estimate/create-estimator.ts';
import { CONTENT_CLASSES } from './corpus/generate-corpus.ts';
import { loadCorpus } from './corpus/load-corpus.ts';
import { isMainModule, printTable, timeRounds, verdict } from './shared/measure.ts';

/** Mean absolute relative error per sample that counts as close enough. */
const ACCURACY_GOAL = 0.1;
/** Spillway must be at least this many times faster than js-tiktoken… */
const TIKTOKEN_SPEED_GOAL = 50;
/** …and at least as fast as tokenx. */
const TOKENX_SPEED_GOAL = 1;

interface Contender {
  readonly name: string;
  readonly count: (text: string) => number;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** Prints the accuracy table and the throughput ratios of token estimation. */
export async function run(): Promise<void> {
  console.log('\n## Token estimation vs o200k_base (js-tiktoken)\n');
  const corpus = loadCorpus({ samplesPerClass: 50 });
  const encoding = new Tiktoken(o200kBase);
  const exact = (text: string) => encoding.encode(text).length;
  // The text cache is off: the bench counts the same corpus over and over, and a cache hit would
  // measure a lookup, not the estimator.
  const spillway = createEstimator({ textCacheChars: 0 });
  const contenders: Contender[] = [
    { name: 'Spillway', count: (text) => spillway.countText(text) },
    { name: 'tokenx', count: (text) => estimateTokenCount(text) },
    { name: 'chars/4', count: (text) => Math.ceil(text.length / CHARS_PER_TOKEN_ESTIMATE) },
  ];

  const rows: string[][] = [
    ['class', 'samples', 'chars', 'o200k tokens', ...contenders.map(({ name }) => name), 'goal', 'Spillway'],
  ];
  let allPassed = true;
  for (const contentClass of CONTENT_CLASSES) {
    const samples = corpus[contentClass];
    if (samples.length === 0) continue;
    const exactCounts = samples.map(exact);
    const errors = contenders.map(({ count }) => {
      let total = 0;
      samples.forEach((sample, index) => {
        total += Math.abs(count(sample) - exactCounts[index]!) / exactCounts[index]!;
      });
      return total / samples.length;
    });
    const passed = errors[0]! <= ACCURACY_GOAL;
    allPassed &&= passed;
    rows.push([
      contentClass,
      String(samples.length),
      String(samples.reduce((sum, sample) => sum + sample.length, 0)),
      String(exactCounts.reduce((sum, tokens) => sum + tokens, 0)),
      ...errors.map(percent),
      `≤${percent(ACCURACY_GOAL)}`,
      verdict(passed),
    ]);
  }
  console.log('Mean absolute relative error per sample (samples of 200–8,000 characters):\n');
  printTable(rows);
  console.log(`\nAccuracy goal (≤${percent(ACCURACY_GOAL)} on every class): ${verdict(allPassed)}`);

  // Throughput on the whole corpus, every contender in this run.
  const texts = Object.values(corpus).flat();
  const megabytes = texts.reduce((sum, text) => sum + new TextEncoder().encode(text).length, 0) / 1e6;
  const timed: Contender[] = [{ name: 'js-tiktoken', count: exact }, ...contenders];
  const throughput = new Map<string, number>();
  let sink = 0;
  for (const { name, count } of timed) {
    const slow = name === 'js-tiktoken';
    const milliseconds = timeRounds(
      () => {
        for (const text of texts) sink += count(text);
      },
      // One pass of js-tiktoken over the corpus already takes seconds: fewer rounds, no warm-up pass.
      slow
        ? { rounds: 3, minimumMilliseconds: 300, warmUpCalls: 0 }
        : { rounds: 7, minimumMilliseconds: 300 },
    );
    throughput.set(name, megabytes / (milliseconds / 1000));
  }
  if (sink < 0) console.log(sink);
  console.log(
    `\nThroughput on the whole corpus (${megabytes.toFixed(2)} MB of UTF-8, median of timed rounds):\n`,
  );
  printTable([
    ['contender', 'MB/s'],
    ...timed.map(({ name }) => [name, throughput.get(name)!.toFixed(name === 'js-tiktoken' ? 2 : 1)]),
  ]);
  const versusTiktoken = throughput.get('Spillway')! / throughput.get('js-tiktoken')!;
  const versusTokenx = throughput.get('Spillway')! / throughput.get('tokenx')!;
  console.log('');
  printTable([
    ['ratio', 'measured', 'goal', 'result'],
    [
      'Spillway / js-tiktoken',
      `${versusTiktoken.toFixed(0)}×`,
      `≥${TIKTOKEN_SPEED_GOAL}×`,
      verdict(versusTiktoken >= TIKTOKEN_SPEED_GOAL),
    ],
    [
      'Spillway / tokenx',
      `${versusTokenx.toFixed(1)}×`,
      `≥${TOKENX_SPEED_GOAL}×`,
      verdict(versusTokenx >= TOKENX_SPEED_GOAL),
    ],
  ]);
}

if (isMainModule(import.meta.url)) await run();

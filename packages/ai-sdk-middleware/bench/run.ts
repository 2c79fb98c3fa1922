/**
 * `pnpm bench`: one seeded 200-turn agent session through three contenders side by side, in one
 * run — no middleware, `@context-chef/ai-sdk-middleware` (the nearest peer) and Spillway — and
 * each middleware's own overhead per call at 100 / 500 / 2,000 / 10,000 messages, warm, on prompts
 * made three ways: the same objects, rebuilt as the SDK does, and parsed from JSON as a server gets them;
 * then `spillway_recall`'s cost per call, normal and adversarial inputs (`bench/recall.ts`).
 * `SPILLWAY_BENCH=session|overhead|recall` runs one part.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createMiddleware } from '@context-chef/ai-sdk-middleware';
import { isContextOverflowError } from '@spillway/core';
import { MockLanguageModelV3 } from 'ai/test';
import { generateText, type LanguageModelMiddleware, wrapLanguageModel } from 'ai7';
import { MockLanguageModelV4 } from 'ai7/test';
import { compactionMiddleware } from '../src/index';
import { recallBench } from './recall';
import { fakeProvider, promptTokens, SUMMARY_TEXT, seededRandom, sessionTurn } from './session';

const SEED = 20_261_122;
const TURNS = 200;
const WINDOW = 128_000;
const SYSTEM = 'You are a coding agent working on a web service. Never delete user files.';

interface Contender {
  name: string;
  wrap: (model: MockLanguageModelV4) => Parameters<typeof generateText>[0]['model'];
  summarizerCalls: () => number;
  summarizerTokens: () => number;
  idle?: () => Promise<void>;
}

/** A summarizer model that answers with the fixed summary and counts what it was sent. */
function summaryModel<M extends { doGenerateCalls: { prompt: unknown[] }[] }>(model: M) {
  return {
    model,
    calls: () => model.doGenerateCalls.length,
    tokens: () => model.doGenerateCalls.reduce((sum, call) => sum + promptTokens(call.prompt), 0),
  };
}

/**
 * What a summarizing model answers: a fixed summary plus the identifiers (paths, URLs) of the
 * transcript it was sent, as a real model asked to keep them would. The same for every contender.
 */
function summaryResult(prompt: readonly unknown[]) {
  const identifiers = [
    ...new Set(JSON.stringify(prompt).match(/(?:https?:\/\/[\w./-]+|src\/[\w./-]+)/g) ?? []),
  ];
  return {
    content: [
      { type: 'text' as const, text: `${SUMMARY_TEXT}\nIdentifiers: ${identifiers.slice(-60).join(', ')}` },
    ],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage: {
      inputTokens: { total: 1000, noCache: 1000, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 300, text: 300, reasoning: undefined },
    },
    warnings: [],
  };
}

function contenders(): Contender[] {
  // The peer summarizes through its own `ai` (resolved to ai 6 here), so its summary model is V3.
  const peerSummarizer = summaryModel(
    new MockLanguageModelV3({ doGenerate: async (options) => summaryResult(options.prompt) }),
  );
  const peer = createMiddleware({
    contextWindow: WINDOW,
    compress: { model: peerSummarizer.model as never },
    truncate: { threshold: 5000, headChars: 500, tailChars: 1000 },
  });
  const spillwaySummarizer = summaryModel(
    new MockLanguageModelV4({ doGenerate: async (options) => summaryResult(options.prompt) }),
  );
  const spillway = compactionMiddleware({ contextWindow: WINDOW, summarizer: spillwaySummarizer.model });
  // The same tool-output budget as the peer's `truncate.threshold` (5,000 characters).
  const matchedSummarizer = summaryModel(
    new MockLanguageModelV4({ doGenerate: async (options) => summaryResult(options.prompt) }),
  );
  const matched = compactionMiddleware({
    contextWindow: WINDOW,
    summarizer: matchedSummarizer.model,
    toolResultMaxChars: 5_000,
  });
  return [
    { name: 'no middleware', wrap: (model) => model, summarizerCalls: () => 0, summarizerTokens: () => 0 },
    {
      name: '@context-chef/ai-sdk-middleware',
      wrap: (model) => wrapLanguageModel({ model, middleware: peer as LanguageModelMiddleware }),
      summarizerCalls: peerSummarizer.calls,
      summarizerTokens: peerSummarizer.tokens,
    },
    {
      name: 'spillway',
      wrap: (model) => wrapLanguageModel({ model, middleware: spillway }),
      summarizerCalls: spillwaySummarizer.calls,
      summarizerTokens: spillwaySummarizer.tokens,
      idle: () => spillway.compactor.idle(),
    },
    {
      name: 'spillway, tool results capped at 5,000 chars',
      wrap: (model) => wrapLanguageModel({ model, middleware: matched }),
      summarizerCalls: matchedSummarizer.calls,
      summarizerTokens: matchedSummarizer.tokens,
      idle: () => matched.compactor.idle(),
    },
  ];
}

function messageKey(message: unknown): string {
  return JSON.stringify(message, (_key, value) => (value instanceof URL ? value.href : value));
}

async function session(contender: Contender) {
  const random = seededRandom(SEED);
  const provider = fakeProvider(WINDOW);
  const model = contender.wrap(provider.model);
  const messages: unknown[] = [];
  let failedTurns = 0;
  const thresholdCrossings = { count: 0, above: false };
  for (let turn = 1; turn <= TURNS; turn++) {
    messages.push(...sessionTurn(random, turn));
    try {
      const result = await generateText({
        model,
        system: SYSTEM,
        messages: messages as never,
        maxRetries: 0,
      });
      messages.push(...result.response.messages);
    } catch (error) {
      if (!isContextOverflowError(error)) throw error;
      failedTurns++;
      messages.push({ role: 'assistant', content: 'The request failed: the conversation is too long.' });
    }
    const last = provider.sizes.at(-1) ?? 0;
    const above = last >= WINDOW * 0.8;
    if (above && !thresholdCrossings.above) thresholdCrossings.count++;
    thresholdCrossings.above = above;
    await contender.idle?.();
  }
  // Prefix stability: the previous prompt is a prefix of this one (what provider prompt caches need).
  let stable = 0;
  let grew = 0;
  let stableWhenGrew = 0;
  const keys = provider.prompts.map((prompt) => prompt.map(messageKey));
  for (let index = 1; index < keys.length; index++) {
    const previous = keys[index - 1]!;
    const current = keys[index]!;
    const isPrefix =
      previous.length <= current.length && previous.every((key, position) => key === current[position]);
    if (isPrefix) stable++;
    // "Between compactions": the first message (system prompt or summary) did not change.
    if (previous[0] === current[0]) {
      grew++;
      if (isPrefix) stableWhenGrew++;
    }
  }
  const totalTokens = provider.sizes.reduce((sum, size) => sum + size, 0);
  // With provider prompt caching, the prefix shared with the previous call is billed at ~10%.
  let cachedEquivalent = 0;
  for (let index = 0; index < keys.length; index++) {
    let shared = 0;
    const previous = keys[index - 1];
    if (previous !== undefined) {
      while (
        shared < previous.length &&
        shared < keys[index]!.length &&
        previous[shared] === keys[index]![shared]
      )
        shared++;
    }
    const sharedTokens = shared === 0 ? 0 : promptTokens(provider.prompts[index]!.slice(0, shared));
    cachedEquivalent += provider.sizes[index]! - sharedTokens * 0.9;
  }
  return {
    name: contender.name,
    calls: provider.sizes.length,
    overflowErrors: provider.overflows(),
    failedTurns,
    summarizerCalls: contender.summarizerCalls(),
    summarizerTokens: contender.summarizerTokens(),
    thresholdCrossings: thresholdCrossings.count,
    totalInputTokens: totalTokens,
    cachedEquivalent,
    largestPromptShare: Math.max(...provider.sizes) / WINDOW,
    prefixStable: stable / Math.max(1, keys.length - 1),
    prefixStableBetweenCompactions: stableWhenGrew / Math.max(1, grew),
  };
}

/** A prompt of `count` messages in the V4 shape, as the SDK hands it to a middleware. */
function promptOf(count: number): unknown[] {
  const random = seededRandom(7);
  const prompt: unknown[] = [{ role: 'system', content: SYSTEM }];
  for (let turn = 1; prompt.length < count; turn++) {
    const id = `c${turn}`;
    prompt.push({
      role: 'user',
      content: [{ type: 'text', text: `Turn ${turn}: look at module ${turn} and fix the failing test.` }],
    });
    prompt.push({
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: `src/${turn}.ts` } },
      ],
    });
    prompt.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'read_file',
          output: { type: 'text', value: `${'x'.repeat(1500)} ${random()}` },
        },
      ],
    });
    prompt.push({
      role: 'assistant',
      content: [{ type: 'text', text: `Module ${turn} is fixed; the test passes now.` }],
    });
  }
  return prompt.slice(0, count);
}

/** The SDK rebuilds prompt objects on every call; so does the benchmark (same strings, new objects). */
function rebuilt(prompt: readonly unknown[]): unknown[] {
  return prompt.map((message) => {
    const { content, ...rest } = message as { content: unknown };
    return { ...rest, content: Array.isArray(content) ? content.map((part) => ({ ...part })) : content };
  });
}

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

/** How each call's prompt objects are made from the conversation (untimed). */
type PromptKind = 'reused' | 'rebuilt' | 'fresh';

const promptMakers: Record<PromptKind, (messages: readonly unknown[]) => () => unknown[]> = {
  // The same objects every call (an application that keeps its own prompt objects).
  reused: (messages) => () => messages.slice(),
  // New message and part objects around the same strings (what the SDK's conversion does).
  rebuilt: (messages) => () => rebuilt(messages),
  // New objects and new strings (a server that parses every request from JSON).
  fresh: (messages) => {
    const body = JSON.stringify(messages);
    return () => JSON.parse(body) as unknown[];
  },
};

interface OverheadContender {
  middleware: LanguageModelMiddleware;
  kind: PromptKind | 'parse';
}

/**
 * Milliseconds per call for each contender on a conversation of `count` messages that grows by one
 * message per call: a middleware's `transformParams` on prompts made the contender's way, or (kind
 * `parse`) the server's own `JSON.parse` of that prompt, the anchor. Warm: each has seen the
 * conversation before. The machine may be shared, so contenders are measured in alternating rounds
 * and the median round is reported.
 */
async function overhead(contenders: OverheadContender[], count: number): Promise<number[]> {
  const model = new MockLanguageModelV4({ modelId: 'bench-model' });
  const rounds = 9;
  const perRound = count >= 10_000 ? 4 : count >= 2000 ? 20 : 60;
  const base = promptOf(count + rounds * perRound + 1);
  const run = (middleware: LanguageModelMiddleware, prompt: unknown[]) =>
    middleware.transformParams!({ type: 'generate', params: { prompt: prompt as never }, model });
  /** One timed call of `contender` on the first `length` messages; the input is made untimed. */
  const call = (contender: OverheadContender, length: number): (() => unknown) => {
    const messages = base.slice(0, length);
    if (contender.kind === 'parse') {
      const body = JSON.stringify(messages);
      return () => JSON.parse(body);
    }
    const prompt = promptMakers[contender.kind](messages)();
    return () => run(contender.middleware, prompt);
  };
  for (const contender of contenders) {
    for (let index = 0; index < (count >= 10_000 ? 20 : 200); index++) {
      await call(contender, Math.max(2, count - 200 + index))();
    }
  }
  const samples: number[][] = contenders.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order =
      round % 2 === 0
        ? contenders.map((_, index) => index)
        : contenders.map((_, index) => contenders.length - 1 - index);
    for (const which of order) {
      let elapsed = 0;
      for (let index = 0; index < perRound; index++) {
        const timed = call(contenders[which]!, count + round * perRound + index);
        // Each call starts from an empty young generation: copying the input just made is not its cost.
        collect({ type: 'minor' });
        const start = performance.now();
        await timed();
        elapsed += performance.now() - start;
      }
      samples[which]!.push(elapsed / perRound);
    }
  }
  return samples.map((values) => values.sort((left, right) => left - right)[Math.floor(values.length / 2)]!);
}

function format(value: number, digits = 2): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

const only = process.env.SPILLWAY_BENCH; // 'session', 'overhead' or 'recall' to run one part
const results = [];
if (only !== 'overhead' && only !== 'recall')
  for (const contender of contenders()) results.push(await session(contender));
if (only !== 'overhead' && only !== 'recall') {
  console.log(
    `\nSimulated agent session: ${TURNS} turns, seed ${SEED}, window ${WINDOW.toLocaleString('en-US')} tokens`,
  );
  console.table(
    Object.fromEntries(
      results.map((result) => [
        result.name,
        {
          'overflow errors': result.overflowErrors,
          'failed turns': result.failedTurns,
          'summarizer calls': result.summarizerCalls,
          'input tokens, agent model': result.totalInputTokens.toLocaleString('en-US'),
          'input tokens, summarizer': result.summarizerTokens.toLocaleString('en-US'),
          'input tokens, total': (result.totalInputTokens + result.summarizerTokens).toLocaleString('en-US'),
          'same, billed with prompt caching': Math.round(
            result.cachedEquivalent + result.summarizerTokens,
          ).toLocaleString('en-US'),
          'largest prompt / window': `${format(result.largestPromptShare * 100, 1)}%`,
          'prefix = previous prompt': `${format(result.prefixStable * 100, 1)}%`,
          'same, between compactions': `${format(result.prefixStableBetweenCompactions * 100, 1)}%`,
        },
      ]),
    ),
  );
  const peerResult = results[1]!;
  for (const spillwayResult of results.slice(2)) {
    console.log(
      `${spillwayResult.name} / peer: total input tokens ${format((spillwayResult.totalInputTokens + spillwayResult.summarizerTokens) / (peerResult.totalInputTokens + peerResult.summarizerTokens))}x (agent model alone ${format(spillwayResult.totalInputTokens / peerResult.totalInputTokens)}x); summarizer calls ${spillwayResult.summarizerCalls} vs ${peerResult.summarizerCalls}; times the prompt crossed 80% of the window: ${spillwayResult.thresholdCrossings}`,
    );
  }
}

const peerOptions = { contextWindow: 1e9, truncate: { threshold: 5000, headChars: 500, tailChars: 1000 } };
const rows: Record<string, Record<string, string>> = {};
for (const count of only === 'session' || only === 'recall' ? [] : [100, 500, 2000, 10_000]) {
  // A middleware per contender, so that one's memory of the conversation does not help another.
  const spillway = () =>
    compactionMiddleware({ contextWindow: 1e9, summarizer: 'extractive' }) as LanguageModelMiddleware;
  const peer = () => createMiddleware(peerOptions) as LanguageModelMiddleware;
  const [parseMs, reusedMs, rebuiltMs, freshMs, peerRebuiltMs, peerFreshMs] = (await overhead(
    [
      { middleware: spillway(), kind: 'parse' },
      { middleware: spillway(), kind: 'reused' },
      { middleware: spillway(), kind: 'rebuilt' },
      { middleware: spillway(), kind: 'fresh' },
      { middleware: peer(), kind: 'rebuilt' },
      { middleware: peer(), kind: 'fresh' },
    ],
    count,
  )) as [number, number, number, number, number, number];
  rows[`${count.toLocaleString('en-US')} messages`] = {
    'JSON.parse of the prompt': `${format(parseMs, 3)} ms`,
    'spillway, reused objects': `${format(reusedMs, 3)} ms`,
    'spillway, rebuilt (SDK)': `${format(rebuiltMs, 3)} ms`,
    'spillway, fresh (JSON)': `${format(freshMs, 3)} ms (${format(freshMs / parseMs)}x parse)`,
    'context-chef, rebuilt (SDK)': `${format(peerRebuiltMs, 3)} ms`,
    'context-chef, fresh (JSON)': `${format(peerFreshMs, 3)} ms`,
    'spillway / context-chef, fresh': `${format(freshMs / peerFreshMs)}x`,
  };
}
if (Object.keys(rows).length > 0) {
  console.log(
    '\nMiddleware overhead per call (transformParams, warm, conversation growing by one message per call; median of 9 alternating rounds).' +
      '\nreused = the same prompt objects; rebuilt = new objects around the same strings, as the SDK converts a prompt; fresh = parsed from JSON, as a server receives it (parse untimed, shown as the anchor).',
  );
  console.table(rows);
}

if (only === undefined || only === 'recall') await recallBench();

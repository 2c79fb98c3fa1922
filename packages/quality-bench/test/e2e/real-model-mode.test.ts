import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { InvalidConfigError } from '@spillway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateConversation } from '../../src/conversation/generate-conversation';
import { modelFromSpec } from '../../src/models/model-from-spec';
import { createProber } from '../../src/probes/create-prober';
import { conversationTokens } from '../../src/run/conversation-tokens';
import { runSummarizer } from '../../src/run/run-job';
import { runStrategy } from '../../src/run/run-strategy';
import { allProbes } from '../../src/score/run-score';
import { langchainStrategy } from '../../src/strategies/langchain-strategy';
import { sendNothingStrategy } from '../../src/strategies/send-nothing-strategy';
import { slidingWindowStrategy } from '../../src/strategies/sliding-window-strategy';
import { spillwayStrategy } from '../../src/strategies/spillway-strategy';
import type { Strategy } from '../../src/strategies/strategy';
import { createTokenCounter } from '../../src/tokens/token-counter';
import { type LoopbackChatServer, startLoopbackChatServer } from './loopback-chat-server';

const packageDir = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
let server: LoopbackChatServer;
let spec: string;
beforeAll(async () => {
  server = await startLoopbackChatServer();
  spec = `openai-compatible:${server.baseURL}#loopback`;
});
afterAll(() => server.close());

const conversation = generateConversation({ seed: 6, turns: 16 });
const counter = createTokenCounter();
const total = conversationTokens(conversation, counter);

async function run(strategy: Strategy, budget: number, summarizerSpec?: string, judge = false) {
  const model = modelFromSpec({ spec });
  return runStrategy({
    strategy,
    conversation,
    budget,
    contextWindow: Math.floor(total * budget),
    summarizer: await runSummarizer(conversation, summarizerSpec),
    counter,
    prober: createProber({ model, ...(judge ? { judge: model } : {}), counter }),
  });
}

describe('modelFromSpec', () => {
  it('builds openai-compatible, openai and anthropic models, and names the option in every error', () => {
    expect(modelFromSpec({ spec: 'openai-compatible:http://127.0.0.1:1/v1#m' }).modelId).toBe('m');
    expect(modelFromSpec({ spec: 'openai:gpt-5-mini', env: { OPENAI_API_KEY: 'k' } }).modelId).toBe(
      'gpt-5-mini',
    );
    expect(
      modelFromSpec({ spec: 'anthropic:claude-haiku-4-5', env: { ANTHROPIC_API_KEY: 'k' } }).provider,
    ).toContain('anthropic');
    for (const [bad, env] of [
      ['gpt-4o', {}],
      ['mystery:model', {}],
      ['openai-compatible:not a url#m', {}],
      ['openai-compatible:http://127.0.0.1:1/v1', {}],
      ['openai:gpt-5-mini', {}],
    ] as const) {
      let caught: unknown;
      try {
        modelFromSpec({ spec: bad, option: '--summarizer', env });
      } catch (error) {
        caught = error;
      }
      expect(InvalidConfigError.isInstance(caught), bad).toBe(true);
      expect((caught as InvalidConfigError).option).toBe('--summarizer');
    }
  });
});

describe('the real-model mode against a loopback OpenAI-compatible server', () => {
  it('asks the model about every needle at every checkpoint, from the request each strategy sent', async () => {
    const keeping = await run(slidingWindowStrategy(), 2, undefined, true);
    const nothing = await run(sendNothingStrategy(), 2);
    const kept = allProbes(keeping);
    const lost = allProbes(nothing);
    expect(kept.total).toBeGreaterThan(10);
    expect(lost.total).toBe(kept.total);
    // A request that holds the facts lets the model answer; one that holds nothing does not.
    expect(kept.correct).toBeGreaterThan(kept.total * 0.6);
    expect(lost.correct).toBeLessThan(kept.correct / 3);
    // The judge graded every probe; the loopback judge agrees with exact match here.
    expect(kept.judged).toBe(kept.correct);
    expect(keeping.probeCalls).toBe(2 * kept.total);
    expect(server.counts.probes).toBeGreaterThanOrEqual(2 * kept.total);
    expect(server.counts.grades).toBeGreaterThanOrEqual(kept.total);
  });

  it('gives the real model to every framework as its summarizer (AI SDK and LangChain)', async () => {
    // At 5% the dialogue itself no longer fits once old tool output is cleared: Spillway summarizes.
    const before = server.counts.other;
    const spillway = await run(spillwayStrategy(), 0.05, spec);
    expect(spillway.summarizerCalls).toBeGreaterThan(0);
    expect(spillway.failedCalls).toBe(0);
    const langchain = await run(langchainStrategy(), 0.3, spec);
    expect(langchain.summarizerCalls).toBeGreaterThan(0);
    expect(server.counts.other - before).toBe(spillway.summarizerCalls + langchain.summarizerCalls);
    expect(allProbes(spillway).total).toBeGreaterThan(0);
  });

  it('runs end to end from the command line: several seeds, probes with 95% intervals in the JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quality-bench-'));
    const out = join(dir, 'real.json');
    try {
      await promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          '--conditions=@spillway/source',
          'bench/run.ts',
          '--model',
          spec,
          '--seed',
          '1,2',
          '--turns',
          '12',
          '--budgets',
          '0.3',
          '--strategies',
          'sliding window,send nothing (control)',
          '--jobs',
          '2',
          '--out',
          out,
        ],
        { cwd: packageDir, timeout: 240_000 },
      );
      const json = JSON.parse(readFileSync(out, 'utf8'));
      expect(json.mode).toBe('real-model');
      expect(json.models).toMatchObject({ model: spec, summarizer: spec });
      expect(json.conversations.map((item: { seed: number }) => item.seed)).toEqual([1, 2]);
      const rows = json.rows as {
        strategy: string;
        probes: { all: { total: number; share: number; low: number; high: number } };
      }[];
      expect(rows.map((row) => row.strategy)).toEqual(['sliding window', 'send nothing (control)']);
      for (const row of rows) {
        expect(row.probes.all.total).toBeGreaterThan(0);
        expect(row.probes.all.low).toBeLessThanOrEqual(row.probes.all.share);
        expect(row.probes.all.high).toBeGreaterThanOrEqual(row.probes.all.share);
      }
      expect(rows[0]!.probes.all.share).toBeGreaterThan(rows[1]!.probes.all.share);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

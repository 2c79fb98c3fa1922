import { describe, expect, it } from 'vitest';
import { generateConversation } from '../conversation/generate-conversation';
import { conversationTokens } from '../run/conversation-tokens';
import { runSummarizer } from '../run/run-job';
import { runStrategy } from '../run/run-strategy';
import { allClasses, type RunScore } from '../score/run-score';
import { createTokenCounter } from '../tokens/token-counter';
import { clearToolOutputStrategy } from './clear-tool-output-strategy';
import { contextChefStrategy } from './context-chef-strategy';
import { defaultStrategies } from './default-strategies';
import { langchainStrategy } from './langchain-strategy';
import { pruneMessagesStrategy } from './prune-messages-strategy';
import { sendNothingStrategy } from './send-nothing-strategy';
import { slidingWindowStrategy } from './sliding-window-strategy';
import { spillwayStrategy } from './spillway-strategy';
import type { Strategy } from './strategy';

// Every strategy through its real framework on one small conversation.
const conversation = generateConversation({ seed: 5, turns: 30 });
const counter = createTokenCounter();
const total = conversationTokens(conversation, counter);

async function run(strategy: Strategy, budget: number): Promise<RunScore> {
  return runStrategy({
    strategy,
    conversation,
    budget,
    contextWindow: Math.floor(total * budget),
    summarizer: await runSummarizer(conversation),
    counter,
  });
}

/** The score without the times, which are the only thing allowed to differ between runs. */
const untimed = ({ wallMs: _wall, cpuMs: _cpu, ...rest }: RunScore) => rest;

describe('the strategies, through their real frameworks', () => {
  it('Spillway keeps every call within the window and the latest ask in every request, and is deterministic', async () => {
    const first = await run(spillwayStrategy(), 0.3);
    expect(first.failedCalls).toBe(0);
    expect(first.largestShare).toBeLessThanOrEqual(1);
    expect(first.latestAskPresent).toBe(conversation.calls.length);
    expect(untimed(await run(spillwayStrategy(), 0.3))).toEqual(untimed(first));
  });

  it('Spillway with a window twice the conversation never summarizes and never breaks the prefix', async () => {
    const score = await run(spillwayStrategy(), 2);
    expect(score.summarizerCalls).toBe(0);
    expect(score.prefixBreaks).toBe(0);
  });

  it('Spillway with spillway_recall reads back some of what the request lost, asked the question, and pays for it', async () => {
    const score = await run(spillwayStrategy({ recall: true }), 0.15);
    const all = allClasses(score);
    expect(all.survived).toBeLessThan(all.total);
    expect(all.recovered).toBeGreaterThan(all.survived);
    expect(score.readBackCalls).toBeGreaterThan(0);
    // Every read-back request holds at least the checkpoint's request: tokens on top of the model's.
    expect(score.readBackTokens).toBeGreaterThan(score.readBackCalls * 1000);
  });

  it('search alone (send nothing + read-back) finds far less than a strategy that keeps the facts', async () => {
    const control = allClasses(await run(sendNothingStrategy({ readBack: true }), 2));
    const keeping = allClasses(await run(slidingWindowStrategy(), 2));
    expect(keeping.survived).toBe(keeping.total);
    expect(control.survived).toBe(0);
    expect(control.recovered).toBeGreaterThan(0);
    expect(control.recovered).toBeLessThan(control.total * 0.6);
  });

  it('context-chef summarizes, and its own context tool finds cut needles the request no longer holds', async () => {
    const score = await run(contextChefStrategy(), 0.3);
    expect(score.summarizerCalls).toBeGreaterThan(0);
    const all = allClasses(score);
    expect(all.recovered).toBeGreaterThan(all.survived);
  });

  it('LangChain summarizes through summarizationMiddleware in a real createAgent', async () => {
    const score = await run(langchainStrategy(), 0.3);
    expect(score.summarizerCalls).toBeGreaterThan(0);
    expect(score.calls).toBe(conversation.calls.length);
    expect(score.failedCalls + score.latestAskPresent).toBeLessThanOrEqual(conversation.calls.length);
    expect(score.latestAskPresent).toBeGreaterThan(0);
  });

  it('LangChain gives the same requests whether a MemorySaver or the application carries the state', async () => {
    const carried = await run(langchainStrategy({ clearToolUsesAt: 0.5 }), 0.15);
    const saved = await run(langchainStrategy({ clearToolUsesAt: 0.5, checkpointer: true }), 0.15);
    expect(carried.failedCalls).toBeGreaterThan(0);
    expect(untimed(saved)).toEqual(untimed(carried));
  });

  it('LangChain with trimTokensToSummarize sized to the window sends its summarizer more of the span', async () => {
    const defaults = await run(langchainStrategy(), 0.3);
    const sized = await run(langchainStrategy({ trimRatio: 0.75 }), 0.3);
    expect(sized.summarizerCalls).toBeGreaterThan(0);
    expect(sized.summarizerTokens / sized.summarizerCalls).toBeGreaterThan(
      (defaults.summarizerTokens / defaults.summarizerCalls) * 1.5,
    );
    expect(sized.failedCalls).toBe(0);
  });

  it('context-chef with its tool-session knobs clears old tool results and stubs them for its summarizer', async () => {
    const durable = await run(contextChefStrategy(), 0.3);
    const tuned = await run(contextChefStrategy({ toolResultStubThreshold: 5000, clearKeepRecent: 5 }), 0.3);
    expect(tuned.tokensSent).toBeLessThan(durable.tokensSent);
    expect(tuned.classes['identifier-tool'].survived).toBeLessThanOrEqual(
      durable.classes['identifier-tool'].survived,
    );
    expect(tuned.failedCalls).toBe(0);
  });

  it('lists every row once, with its configuration, the quick start and the variants out of the headline', () => {
    const rows = defaultStrategies();
    expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length);
    for (const row of rows) expect(row.configuration?.length ?? 0).toBeGreaterThan(20);
    const secondary = rows.filter((row) => row.headline === false).map((row) => row.name);
    expect(secondary).toContain('@context-chef, in-flight (quick start)');
    expect(rows.filter((row) => row.headline !== false).map((row) => row.name)).toEqual(
      expect.arrayContaining([
        'Spillway',
        'clear old tool output (naive)',
        'send nothing + read-back (control)',
        'LangChain summarization, trim sized to the window',
        '@context-chef, durable + tool-session knobs',
      ]),
    );
  });

  it('pruneMessages drops old tool results and keeps every word of the dialogue', async () => {
    const score = await run(pruneMessagesStrategy(), 2);
    expect(score.classes['identifier-tool'].total).toBeGreaterThan(0);
    expect(score.classes['identifier-tool'].survived).toBe(0);
    expect(score.classes['identifier-user'].survived).toBe(score.classes['identifier-user'].total);
    expect(score.classes.constraint.survived).toBe(score.classes.constraint.total);
  });

  it('the naive baseline (clear old tool output) keeps every fact of the dialogue at 15%, and no old tool output', async () => {
    // A conversation whose dialogue (everything but tool results) is well under 15% of it.
    const short = generateConversation({ seed: 1, turns: 60 });
    const score = await runStrategy({
      strategy: clearToolOutputStrategy(),
      conversation: short,
      budget: 0.15,
      contextWindow: Math.floor(conversationTokens(short, counter) * 0.15),
      summarizer: await runSummarizer(short),
      counter,
    });
    expect(score.failedCalls).toBe(0);
    for (const kind of ['identifier-user', 'decision', 'superseded', 'implicit', 'constraint'] as const) {
      expect(score.classes[kind].total, kind).toBeGreaterThan(0);
      expect(score.classes[kind].survived, kind).toBe(score.classes[kind].total);
    }
    expect(score.classes['identifier-tool'].survived).toBe(0);
    expect(score.largestShare).toBeLessThanOrEqual(1);
  });

  it('the naive baseline drops the oldest whole turns when the stubs are not enough', async () => {
    const score = await run(clearToolOutputStrategy(), 0.03);
    const all = allClasses(score);
    expect(all.survived).toBeGreaterThan(0);
    expect(all.survived).toBeLessThan(all.total);
    expect(score.largestShare).toBeLessThanOrEqual(1);
  });

  it('the send-nothing control keeps nothing older than the current turn, and every ask', async () => {
    const score = await run(sendNothingStrategy(), 2);
    expect(allClasses(score).survived).toBe(0);
    expect(score.latestAskPresent).toBe(conversation.calls.length);
    expect(score.summarizerCalls).toBe(0);
  });

  it('the sliding window fills the window and no more', async () => {
    const score = await run(slidingWindowStrategy(), 0.3);
    expect(score.largestShare).toBeLessThanOrEqual(1);
    expect(score.largestShare).toBeGreaterThan(0.8);
    expect(score.summarizerCalls).toBe(0);
  });
});

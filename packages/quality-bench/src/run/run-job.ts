import type { Conversation } from '../conversation/conversation';
import type { PhrasingSplit } from '../conversation/phrasings/phrasing-split';
import { modelFromSpec } from '../models/model-from-spec';
import { createProber } from '../probes/create-prober';
import type { RunScore } from '../score/run-score';
import { defaultStrategies } from '../strategies/default-strategies';
import type { Strategy } from '../strategies/strategy';
import type { BenchSummarizer } from '../summarizer/bench-summarizer';
import { createLossySummarizer } from '../summarizer/lossy-summarizer';
import { summaryInstructions } from '../summarizer/summary-instructions';
import { createTokenCounter } from '../tokens/token-counter';
import { loadConversation } from './conversation-cache';
import { runStrategy } from './run-strategy';

/** One unit of work: one strategy, one conversation, one budget. */
export interface Job {
  strategy: string;
  seed: number;
  turns: number;
  budget: number;
  /** The phrasings the conversation is written with. */
  split: PhrasingSplit;
  /** Real-model mode: the model spec that answers the probes (`--model`). */
  model?: string;
  /** The summarizer's model spec (`--summarizer`); the scripted lossy model when absent. */
  summarizer?: string;
  /** A model spec that grades the probes' answers (`--judge`). */
  judge?: string;
  /** The conversation cache folder (`false`: none); `DEFAULT_CACHE_DIR` when absent. */
  cache?: string | false;
}

/** A job's result. */
export interface JobResult extends Job {
  /** Tokens of the whole conversation, system prompt included (o200k). */
  conversationTokens: number;
  contextWindow: number;
  score: RunScore;
  /**
   * CPU time of the whole job in its worker (milliseconds): the strategy, the summarizer and the
   * scoring with its read-backs and probes (`score.cpuMs` is the strategy and summarizer alone).
   */
  jobCpuMs: number;
}

/**
 * The run's summarizer for a conversation: the lossy model, seeded by the conversation's seed,
 * knowing the conversation's rules (so an eviction attack removes them however they are phrased).
 */
export async function runSummarizer(conversation: Conversation, spec?: string): Promise<BenchSummarizer> {
  if (spec !== undefined) return { name: spec, model: modelFromSpec({ spec, option: '--summarizer' }) };
  const summarize = createLossySummarizer({
    seed: conversation.seed,
    instructions: await summaryInstructions(),
    rules: conversation.needles
      .filter((needle) => needle.kind === 'constraint')
      .flatMap((needle) => needle.placements.flatMap((placement) => placement.values)),
  });
  return { name: 'lossy model', summarize };
}

/**
 * Runs jobs in this process. Conversations (read from the on-disk cache, see `loadConversation`),
 * the token counter and the strategies list are shared between jobs (counting is memoised by text,
 * so later jobs on the same conversation are cheaper).
 */
export function createJobRunner(strategies: () => Strategy[] = defaultStrategies) {
  const counter = createTokenCounter();
  const conversations = new Map<string, { conversation: Conversation; tokens: number }>();
  const byName = new Map(strategies().map((strategy) => [strategy.name, strategy]));
  return async (job: Job): Promise<JobResult> => {
    const strategy = byName.get(job.strategy);
    if (strategy === undefined) throw new Error(`unknown strategy ${job.strategy}`);
    const cpu = process.cpuUsage();
    const key = `${job.seed}:${job.turns}:${job.split}`;
    let entry = conversations.get(key);
    if (entry === undefined) {
      entry = loadConversation({
        seed: job.seed,
        turns: job.turns,
        split: job.split,
        counter,
        ...(job.cache === undefined ? {} : { dir: job.cache }),
      });
      conversations.set(key, entry);
    }
    const contextWindow = Math.floor(entry.tokens * job.budget);
    const prober =
      job.model === undefined
        ? undefined
        : createProber({
            model: modelFromSpec({ spec: job.model, option: '--model' }),
            ...(job.judge === undefined
              ? {}
              : { judge: modelFromSpec({ spec: job.judge, option: '--judge' }) }),
            counter,
          });
    const score = await runStrategy({
      strategy,
      conversation: entry.conversation,
      budget: job.budget,
      contextWindow,
      summarizer: await runSummarizer(entry.conversation, job.summarizer),
      counter,
      ...(prober ? { prober } : {}),
    });
    const used = process.cpuUsage(cpu);
    return {
      ...job,
      conversationTokens: entry.tokens,
      contextWindow,
      score,
      jobCpuMs: (used.user + used.system) / 1000,
    };
  };
}

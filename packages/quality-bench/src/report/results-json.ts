import { NEEDLE_KINDS, type NeedleKind } from '../conversation/conversation';
import { PROBE_TYPES, type ProbeType } from '../probes/create-prober';
import { wilsonInterval } from '../probes/wilson-interval';
import type { JobResult } from '../run/run-job';
import type { DetectorRates } from '../score/measure-rule-detector';
import { allClasses, allProbes, type ClassCount, type ProbeCount, type RunScore } from '../score/run-score';
import type { Strategy } from '../strategies/strategy';

/** A needle class's checks: how many, how many the request kept, how many were found (kept or read back). */
export interface KeptFound {
  total: number;
  kept: number;
  found: number;
  /** `kept / total` and `found / total` (0 when `total` is 0). */
  keptShare: number;
  foundShare: number;
}

/** A count of real-model probes with its share and 95% Wilson interval. */
export interface ProbeShare {
  total: number;
  correct: number;
  share: number;
  low: number;
  high: number;
  /** Judged right by the judge model (0 without a judge), and its share. */
  judged: number;
  judgedShare: number;
}

/** One row at one budget: every figure of the tables, summed over the suite's conversations. */
export interface ResultRow {
  strategy: string;
  budget: number;
  headline: boolean;
  readsBack: boolean;
  conversations: number;
  turns: number;
  calls: number;
  classes: Record<NeedleKind, KeptFound>;
  all: KeptFound;
  rulesAfterAttack: KeptFound;
  supersededLatestRight: { count: number; total: number; share: number };
  latestAsk: { count: number; total: number; share: number };
  turnInProgressIntact: { count: number; total: number; share: number };
  /**
   * `uncached`: of `total`, what a prompt cache could not serve (each request after the messages
   * it shares from the start with the one before it; summarizer prompts whole).
   */
  tokensSent: { model: number; summarizer: number; readBack: number; total: number; uncached: number };
  summarizerCalls: number;
  readBackCalls: number;
  cacheBreaks: { total: number; readBack: number; per100Turns: number };
  failedCalls: number;
  rejectedRequests: number;
  largestShareOfWindow: number;
  /**
   * The suite's token floor at this budget with no more prefix breaks than the row made: the fewest
   * tokens a strategy keeping every word of the dialogue could send (see `tokenFloors`); `null`
   * when none fits the window at so few breaks, or when not computed.
   */
  tokenFloorAtBreaks: number | null;
  wallSeconds: number;
  cpuSeconds: number;
  /** Real-model mode only: the probes, overall, per type and per class. */
  probes?: {
    all: ProbeShare;
    types: Record<ProbeType, ProbeShare>;
    classes: Record<NeedleKind, ProbeShare>;
    calls: number;
    tokens: number;
  };
}

const share = (count: number, total: number) => (total === 0 ? 0 : count / total);
const keptFound = (count: ClassCount): KeptFound => ({
  total: count.total,
  kept: count.survived,
  found: count.recovered,
  keptShare: share(count.survived, count.total),
  foundShare: share(count.recovered, count.total),
});
const probeShare = (count: ProbeCount): ProbeShare => {
  const interval = wilsonInterval(count.correct, count.total);
  return {
    total: count.total,
    correct: count.correct,
    share: interval.share,
    low: interval.low,
    high: interval.high,
    judged: count.judged,
    judgedShare: share(count.judged, count.total),
  };
};

/** The friendly view of one summed score (see {@link ResultRow}). */
export function resultRow(
  score: RunScore,
  strategy: Pick<Strategy, 'headline' | 'readsBack'>,
  probed: boolean,
  tokenFloor?: (budget: number, breaks: number) => number,
): ResultRow {
  const floor = tokenFloor?.(score.budget, score.prefixBreaks);
  const ratio = (count: number, total: number) => ({ count, total, share: share(count, total) });
  return {
    strategy: score.strategy,
    budget: score.budget,
    headline: strategy.headline !== false,
    readsBack: strategy.readsBack,
    conversations: score.conversations,
    turns: score.turns,
    calls: score.calls,
    classes: Object.fromEntries(NEEDLE_KINDS.map((kind) => [kind, keptFound(score.classes[kind])])) as Record<
      NeedleKind,
      KeptFound
    >,
    all: keptFound(allClasses(score)),
    rulesAfterAttack: keptFound(score.attackedConstraints),
    supersededLatestRight: ratio(score.supersededCorrect, score.classes.superseded.total),
    latestAsk: ratio(score.latestAskPresent, score.calls),
    turnInProgressIntact: ratio(score.currentTurnIntact, score.calls),
    tokensSent: {
      model: score.tokensSent,
      summarizer: score.summarizerTokens,
      readBack: score.readBackTokens,
      total: score.tokensSent + score.summarizerTokens + score.readBackTokens,
      uncached: score.uncachedTokens,
    },
    summarizerCalls: score.summarizerCalls,
    readBackCalls: score.readBackCalls,
    cacheBreaks: {
      total: score.prefixBreaks,
      readBack: score.readBackPrefixBreaks,
      per100Turns: score.turns === 0 ? 0 : (score.prefixBreaks / score.turns) * 100,
    },
    failedCalls: score.failedCalls,
    rejectedRequests: score.rejectedRequests,
    largestShareOfWindow: score.largestShare,
    tokenFloorAtBreaks: floor === undefined || !Number.isFinite(floor) ? null : floor,
    wallSeconds: score.wallMs / 1000,
    cpuSeconds: score.cpuMs / 1000,
    ...(probed
      ? {
          probes: {
            all: probeShare(allProbes(score)),
            types: Object.fromEntries(
              PROBE_TYPES.map((type) => [type, probeShare(score.probeTypes[type])]),
            ) as Record<ProbeType, ProbeShare>,
            classes: Object.fromEntries(
              NEEDLE_KINDS.map((kind) => [kind, probeShare(score.probes[kind])]),
            ) as Record<NeedleKind, ProbeShare>,
            calls: score.probeCalls,
            tokens: score.probeTokens,
          },
        }
      : {}),
  };
}

/** Options of {@link resultsJson}. */
export interface ResultsJsonOptions {
  command: string;
  generatorVersion: number;
  split: string;
  mode: 'scripted' | 'real-model';
  models: { model?: string; summarizer: string; judge?: string };
  budgets: readonly number[];
  strategies: readonly Strategy[];
  conversations: readonly unknown[];
  detector: DetectorRates;
  scores: readonly RunScore[];
  /** The suite's token floor at a budget and a number of prefix breaks (see `suiteTokenFloor`). */
  tokenFloor?: (budget: number, breaks: number) => number;
  runs: readonly JobResult[];
  seconds: number;
}

/**
 * The results file (`results/quality-<mode>.json`): the run's settings, every row's configuration,
 * the conversations, the rule detector's rates, `rows` (one per row and budget: the figures of the
 * tables, see {@link ResultRow}), and the raw sums (`scores`) and per-job scores (`runs`).
 */
export function resultsJson(options: ResultsJsonOptions) {
  const byName = new Map(options.strategies.map((strategy) => [strategy.name, strategy]));
  const probed = options.mode === 'real-model';
  return {
    command: options.command,
    generatorVersion: options.generatorVersion,
    split: options.split,
    mode: options.mode,
    models: options.models,
    budgets: options.budgets,
    seconds: options.seconds,
    strategies: options.strategies.map((strategy) => ({
      name: strategy.name,
      headline: strategy.headline !== false,
      readsBack: strategy.readsBack,
      summarizes: strategy.summarizes,
      configuration: strategy.configuration ?? '',
    })),
    conversations: options.conversations,
    detector: options.detector,
    rows: options.scores.map((score) =>
      resultRow(score, byName.get(score.strategy) ?? { readsBack: false }, probed, options.tokenFloor),
    ),
    scores: options.scores,
    runs: options.runs,
  };
}

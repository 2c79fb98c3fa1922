import { NEEDLE_KINDS, type NeedleKind } from '../conversation/conversation';
import { PROBE_TYPES, type ProbeType } from '../probes/create-prober';

/** Counts for one class of needle. `recovered` includes the survivors. */
export interface ClassCount {
  total: number;
  survived: number;
  recovered: number;
}

/** Probes of one class or type (real-model mode): asked, answered right by exact match, by the judge. */
export interface ProbeCount {
  total: number;
  correct: number;
  /** Judged right (0 without a judge). */
  judged: number;
}

/** Everything measured for one strategy at one budget (summed over the run's conversations). */
export interface RunScore {
  strategy: string;
  /** The budget as a share of the final conversation size (0.15, 0.3, 0.5). */
  budget: number;
  conversations: number;
  turns: number;
  calls: number;
  /** Needle checks at the checkpoints, per class. */
  classes: Record<NeedleKind, ClassCount>;
  /** Constraints checked after an eviction attack (a subset of `classes.constraint`). */
  attackedConstraints: ClassCount;
  /** Superseded settings whose latest value is present and read last. */
  supersededCorrect: number;
  /** Model calls whose request carried the latest user message verbatim. */
  latestAskPresent: number;
  /**
   * Model calls whose request carried every text of the turn in progress verbatim: the ask, the
   * assistant's text and every tool result so far (what the model is acting on).
   */
  currentTurnIntact: number;
  /** Model calls the provider rejected in the end (over the window): nothing reached the model. */
  failedCalls: number;
  /** Requests the provider rejected, retries included. */
  rejectedRequests: number;
  /** Tokens of every request the model answered (o200k), read-back requests not included. */
  tokensSent: number;
  /**
   * Read-back tool calls the simulated model made at the checkpoints (one more request each: the
   * checkpoint's request, the calls so far and their results).
   */
  readBackCalls: number;
  /** Tokens of those read-back requests, each counted whole (o200k). */
  readBackTokens: number;
  summarizerCalls: number;
  /** Tokens sent to the summarizer (o200k). */
  summarizerTokens: number;
  /**
   * Tokens a provider's prompt cache could not serve: of every model and read-back request, the
   * tokens after the messages it shares from the start with the request before it (the first
   * request whole), plus every summarizer prompt whole. What a cached input bills at full price;
   * a prefix break near the end of a request costs little here, one at its start costs it all.
   */
  uncachedTokens: number;
  /**
   * Requests that do not start with the previous request, byte for byte: model calls of the script
   * and read-back requests alike (see `readBackPrefixBreaks`).
   */
  prefixBreaks: number;
  /**
   * The part of `prefixBreaks` read-back causes: read-back requests that do not extend the request
   * before them, and script calls that extend the previous script call but not the read-back
   * request between them.
   */
  readBackPrefixBreaks: number;
  /** Largest request the model answered, in tokens, as a share of the window. */
  largestShare: number;
  /** Real-model probes per needle class (all zero in the scripted mode). */
  probes: Record<NeedleKind, ProbeCount>;
  /** The same per probe type (recall, artifact, continuation, decision). */
  probeTypes: Record<ProbeType, ProbeCount>;
  /** Calls to the probe model (and the judge), and the tokens of their prompts (not in tokens sent). */
  probeCalls: number;
  probeTokens: number;
  /** Time spent in the framework and strategy (summarizer included), milliseconds. */
  wallMs: number;
  /** CPU time of the same (user + system), milliseconds: steadier than wall time on a busy machine. */
  cpuMs: number;
}

/** A zeroed {@link RunScore}. */
export function emptyRunScore(strategy: string, budget: number): RunScore {
  const zero = (): ClassCount => ({ total: 0, survived: 0, recovered: 0 });
  const none = (): ProbeCount => ({ total: 0, correct: 0, judged: 0 });
  return {
    strategy,
    budget,
    conversations: 0,
    turns: 0,
    calls: 0,
    classes: Object.fromEntries(NEEDLE_KINDS.map((kind) => [kind, zero()])) as Record<NeedleKind, ClassCount>,
    attackedConstraints: zero(),
    supersededCorrect: 0,
    latestAskPresent: 0,
    currentTurnIntact: 0,
    failedCalls: 0,
    rejectedRequests: 0,
    tokensSent: 0,
    readBackCalls: 0,
    readBackTokens: 0,
    summarizerCalls: 0,
    summarizerTokens: 0,
    uncachedTokens: 0,
    prefixBreaks: 0,
    readBackPrefixBreaks: 0,
    largestShare: 0,
    probes: Object.fromEntries(NEEDLE_KINDS.map((kind) => [kind, none()])) as Record<NeedleKind, ProbeCount>,
    probeTypes: Object.fromEntries(PROBE_TYPES.map((type) => [type, none()])) as Record<
      ProbeType,
      ProbeCount
    >,
    probeCalls: 0,
    probeTokens: 0,
    wallMs: 0,
    cpuMs: 0,
  };
}

/** Adds `other` into `into` (same strategy and budget, another conversation). */
export function addRunScore(into: RunScore, other: RunScore): RunScore {
  const add = (left: ClassCount, right: ClassCount) => {
    left.total += right.total;
    left.survived += right.survived;
    left.recovered += right.recovered;
  };
  into.conversations += other.conversations;
  into.turns += other.turns;
  into.calls += other.calls;
  for (const kind of NEEDLE_KINDS) add(into.classes[kind], other.classes[kind]);
  add(into.attackedConstraints, other.attackedConstraints);
  into.supersededCorrect += other.supersededCorrect;
  into.latestAskPresent += other.latestAskPresent;
  into.currentTurnIntact += other.currentTurnIntact;
  into.failedCalls += other.failedCalls;
  into.rejectedRequests += other.rejectedRequests;
  into.tokensSent += other.tokensSent;
  into.readBackCalls += other.readBackCalls;
  into.readBackTokens += other.readBackTokens;
  into.summarizerCalls += other.summarizerCalls;
  into.summarizerTokens += other.summarizerTokens;
  into.uncachedTokens += other.uncachedTokens;
  into.prefixBreaks += other.prefixBreaks;
  into.readBackPrefixBreaks += other.readBackPrefixBreaks;
  into.largestShare = Math.max(into.largestShare, other.largestShare);
  const addProbe = (left: ProbeCount, right: ProbeCount) => {
    left.total += right.total;
    left.correct += right.correct;
    left.judged += right.judged;
  };
  for (const kind of NEEDLE_KINDS) addProbe(into.probes[kind], other.probes[kind]);
  for (const type of PROBE_TYPES) addProbe(into.probeTypes[type], other.probeTypes[type]);
  into.probeCalls += other.probeCalls;
  into.probeTokens += other.probeTokens;
  into.wallMs += other.wallMs;
  into.cpuMs += other.cpuMs;
  return into;
}

/** All needle checks of a score, every class together. */
export function allClasses(score: RunScore): ClassCount {
  const total: ClassCount = { total: 0, survived: 0, recovered: 0 };
  for (const kind of NEEDLE_KINDS) {
    total.total += score.classes[kind].total;
    total.survived += score.classes[kind].survived;
    total.recovered += score.classes[kind].recovered;
  }
  return total;
}

/** All probes of a score, every class together. */
export function allProbes(score: RunScore): ProbeCount {
  const total: ProbeCount = { total: 0, correct: 0, judged: 0 };
  for (const kind of NEEDLE_KINDS) {
    total.total += score.probes[kind].total;
    total.correct += score.probes[kind].correct;
    total.judged += score.probes[kind].judged;
  }
  return total;
}

import type { Estimator } from '../estimate/estimator';
import type { StatedDecision } from './decision-sentences';
import { fitSummaryToBound } from './fit-summary-to-bound';
import { seriesMembers } from './salient-identifiers';

/** The line that carries the identifiers of the user's words a summary left out. */
export const IDENTIFIERS_LINE_PREFIX = 'Identifiers the user gave:';
/** The line that carries the identifiers of the tool results a summary left out. */
export const TOOL_IDENTIFIERS_LINE_PREFIX = 'Identifiers the tools returned:';
/** The prefix of a line that carries a decision the assistant stated that a summary left out. */
export const DECISION_LINE_PREFIX = 'Decision stated:';
/** The prefix of a line that carries a decision the user stated that a summary left out. */
export const USER_DECISION_LINE_PREFIX = 'Decision stated by the user:';
/** The most of the bound the decisions' lines may take (the summary's middle gives way). */
const DECISION_SHARE = 0.15;
/** The most of the bound the user's identifiers line may take (the summary's middle gives way). */
const USER_SHARE = 0.25;
/** The room of the bound the tools' identifiers line has in any case (the summary's middle gives way). */
const TOOL_RESERVED_SHARE = 0.1;
/** The most of the bound the tools' identifiers line may take, the rest from room the summary left. */
const TOOL_SHARE = 0.15;
/** Rounds of shortening the summary and listing again what the shortening cut out. */
const FIT_ROUNDS = 4;

/** What {@link withIdentifiers} checks a summary against, each list oldest first. */
export interface IdentifierSources {
  /** Identifiers of the user's words. */
  user: readonly string[];
  /** Identifiers the tool results mentioned (see `toolIdentifiersOf`: read from the end, best first). */
  tools: readonly string[];
  /** Sentences that state a choice, oldest first (see `decisionsOf`). */
  decisions?: readonly StatedDecision[];
}

/**
 * `summary` with the identifiers it left out appended, the whole within `maxTokens`:
 * - the user's, on an `Identifiers the user gave:` line of at most a quarter of the bound (the
 *   latest first);
 * - the tools', on an `Identifiers the tools returned:` line of at least a tenth of the bound when
 *   it has that many, and up to 15% from room the summary and the other lines leave (the latest
 *   first);
 * - the decisions stated (`decisions`), verbatim, one line each (`Decision stated:`, or
 *   `Decision stated by the user:`), within 15% of the bound (the latest first), before the
 *   identifier lines.
 *
 * The summary's middle is shortened to make room for the lines when it must, and what that cut
 * out is listed again (within the same shares). The summary is the only place an old tool result's
 * identifiers survive once the result is summarized, so their line does not wait for room a full
 * summary never leaves.
 *
 * Identifier lines the summary already has (a summarizer that copied the previous summary's) are
 * taken out and their identifiers listed again, as the oldest: what one summary carried, the next
 * carries on, whether or not the summarizer kept the line.
 */
export function withIdentifiers(
  summary: string,
  sources: IdentifierSources,
  maxTokens: number,
  estimator: Estimator,
  previousSummary?: string,
): string {
  const carried: CarriedLines = { user: [], tools: [], decisions: [] };
  for (const text of [previousSummary ?? '', summary]) collectLines(text, carried);
  const body = withoutLines(summary);
  const userPool = weakFirst([...carried.user, ...sources.user]);
  const toolPool = weakFirst([...carried.tools, ...sources.tools]);
  const decisionPool = [...carried.decisions, ...(sources.decisions ?? [])];
  const decisionTexts = decisionPool.map((decision) => decision.text);
  const byText = new Map(decisionPool.map((decision) => [decision.text, decision]));
  const lineTokens = (line: string | undefined) => (line === undefined ? 0 : estimator.countText(line) + 2);
  const userLineOf = (text: string) =>
    latestLine(
      IDENTIFIERS_LINE_PREFIX,
      missingFrom(text, userPool),
      Math.floor(maxTokens * USER_SHARE),
      estimator,
    );

  const decisionLinesOf = (text: string) =>
    latestLines(
      missingFrom(text, decisionTexts).map((sentence) => decisionLine(byText.get(sentence)!)),
      Math.floor(maxTokens * DECISION_SHARE),
      estimator,
    );

  let fitted = body;
  let userLine = userLineOf(fitted);
  let decisionLines = decisionLinesOf(fitted);
  for (let round = 0; round < FIT_ROUNDS; round++) {
    const reserved = latestLine(
      TOOL_IDENTIFIERS_LINE_PREFIX,
      missingFrom(fitted, toolPool),
      Math.floor(maxTokens * TOOL_RESERVED_SHARE),
      estimator,
    );
    const room = maxTokens - lineTokens(userLine) - lineTokens(decisionLines) - lineTokens(reserved);
    if (estimator.countText(fitted) <= room) break;
    const shortened = fitSummaryToBound(body, Math.max(1, room), estimator, Number.POSITIVE_INFINITY);
    if (typeof shortened !== 'string') return summary;
    fitted = shortened;
    userLine = userLineOf(fitted);
    decisionLines = decisionLinesOf(fitted);
  }
  // Rounds used up (identifiers cut out faster than the lines' shares fill): the user's and the
  // decisions' lines stay whole and the summary gives way once more; what this last cut takes is
  // not listed again.
  const kept = lineTokens(userLine) + lineTokens(decisionLines);
  if (estimator.countText(fitted) + kept > maxTokens) {
    const shortened = fitSummaryToBound(
      body,
      Math.max(1, maxTokens - kept),
      estimator,
      Number.POSITIVE_INFINITY,
    );
    if (typeof shortened !== 'string') return summary;
    fitted = shortened;
  }
  const toolRoom = Math.min(
    Math.floor(maxTokens * TOOL_SHARE),
    maxTokens - estimator.countText(fitted) - kept - 2,
  );
  const toolLine = latestLine(
    TOOL_IDENTIFIERS_LINE_PREFIX,
    missingFrom(fitted, toolPool),
    toolRoom,
    estimator,
  );
  return [fitted, decisionLines, userLine, toolLine].filter((part) => part !== undefined).join('\n\n');
}

/** A bare number (a count, a line number, a port): weak beside a name. */
const BARE_NUMBER = /^\d+(?:\.\d+)?$/;

/**
 * `pool` (read from the end, best last) with its weak identifiers moved to the front, each part in
 * its order: bare numbers, and the members of a series across the pool (`ledger-1` … `ledger-9`,
 * see `seriesMembers`) are listed only when every other identifier has room.
 */
function weakFirst(pool: readonly string[]): string[] {
  const series = seriesMembers(pool);
  const weak = (identifier: string) => BARE_NUMBER.test(identifier) || series.has(identifier);
  return [...pool.filter(weak), ...pool.filter((identifier) => !weak(identifier))];
}

/**
 * The identifiers of `pool` (oldest first) that `text` does not mention, each once, where it was
 * named last (a carried one named again moves up).
 */
function missingFrom(text: string, pool: readonly string[]): string[] {
  const seen = new Set<string>();
  const left: string[] = [];
  for (let index = pool.length - 1; index >= 0; index--) {
    const identifier = pool[index]!;
    if (identifier === '' || seen.has(identifier) || text.includes(identifier)) continue;
    seen.add(identifier);
    left.push(identifier);
  }
  return left.reverse();
}

/** `prefix` and the latest of `identifiers` (kept in order) that fit `maxTokens`; none: `undefined`. */
function latestLine(
  prefix: string,
  identifiers: readonly string[],
  maxTokens: number,
  estimator: Estimator,
): string | undefined {
  if (maxTokens <= 0) return undefined;
  const taken: string[] = [];
  for (let index = identifiers.length - 1; index >= 0; index--) {
    const line = `${prefix} ${[identifiers[index], ...taken].join(', ')}`;
    if (estimator.countText(line) > maxTokens) break;
    taken.unshift(identifiers[index]!);
  }
  return taken.length === 0 ? undefined : `${prefix} ${taken.join(', ')}`;
}

/** The prefix of the line that carries a decision, by who stated it. */
const DECISION_PREFIX_BY = { user: USER_DECISION_LINE_PREFIX, assistant: DECISION_LINE_PREFIX } as const;

/** The line that carries `decision`. */
function decisionLine(decision: StatedDecision): string {
  return `${DECISION_PREFIX_BY[decision.by]} ${decision.text}`;
}

/** The latest of `lines` (kept in order) that fit `maxTokens` together; none: `undefined`. */
function latestLines(lines: readonly string[], maxTokens: number, estimator: Estimator): string | undefined {
  if (maxTokens <= 0) return undefined;
  const taken: string[] = [];
  let tokens = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]!;
    const cost = estimator.countText(line) + 1;
    if (tokens + cost > maxTokens) break;
    tokens += cost;
    taken.unshift(line);
  }
  return taken.length === 0 ? undefined : taken.join('\n');
}

/** The prefixes of the lines {@link withIdentifiers} writes. */
const LINE_PREFIXES = [
  IDENTIFIERS_LINE_PREFIX,
  TOOL_IDENTIFIERS_LINE_PREFIX,
  ...Object.values(DECISION_PREFIX_BY),
];

/** What the identifier and decision lines of a summary carry. */
interface CarriedLines {
  user: string[];
  tools: string[];
  decisions: StatedDecision[];
}

/** Adds what `text`'s identifier and decision lines carry to `into`. */
function collectLines(text: string, into: CarriedLines): void {
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith(IDENTIFIERS_LINE_PREFIX)) {
      into.user.push(...splitList(trimmed.slice(IDENTIFIERS_LINE_PREFIX.length)));
    } else if (trimmed.startsWith(TOOL_IDENTIFIERS_LINE_PREFIX)) {
      into.tools.push(...splitList(trimmed.slice(TOOL_IDENTIFIERS_LINE_PREFIX.length)));
    } else {
      for (const by of ['user', 'assistant'] as const) {
        if (!trimmed.startsWith(DECISION_PREFIX_BY[by])) continue;
        const decision = trimmed.slice(DECISION_PREFIX_BY[by].length).trim();
        if (decision !== '') into.decisions.push({ text: decision, by });
      }
    }
  }
}

function splitList(list: string): string[] {
  return list
    .split(', ')
    .map((identifier) => identifier.trim())
    .filter((identifier) => identifier !== '');
}

/** `text` without its identifier and decision lines. */
function withoutLines(text: string): string {
  if (!LINE_PREFIXES.some((prefix) => text.includes(prefix))) return text;
  return text
    .split('\n')
    .filter((line) => !LINE_PREFIXES.some((prefix) => line.trim().startsWith(prefix)))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

import type { Estimator } from '../estimate/estimator';
import { fitSummaryToBound } from './fit-summary-to-bound';

/** The line that carries the identifiers of the user's words a summary left out. */
export const IDENTIFIERS_LINE_PREFIX = 'Identifiers the user gave:';
/** The line that carries the identifiers of the tool results a summary left out. */
export const TOOL_IDENTIFIERS_LINE_PREFIX = 'Identifiers the tools returned:';
/** The most of the bound the user's identifiers line may take (the summary's middle gives way). */
const USER_SHARE = 0.25;
/** The most of the bound the tools' identifiers line may take (only from room the summary left). */
const TOOL_SHARE = 0.15;

/** The identifiers {@link withIdentifiers} checks a summary against, each list oldest first. */
export interface IdentifierSources {
  /** Identifiers of the user's words. */
  user: readonly string[];
  /** Identifiers the tool results mentioned (see `salientIdentifiers`). */
  tools: readonly string[];
}

/**
 * `summary` with the identifiers it left out appended, the whole within `maxTokens`:
 * - the user's, on an `Identifiers the user gave:` line of at most a quarter of the bound (the
 *   latest first; the summary's middle is shortened to make room when it must);
 * - the tools', on an `Identifiers the tools returned:` line of at most 15% of the bound, and only
 *   from the room the summary and the user's line leave (the latest first).
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
  const carried = { user: [] as string[], tools: [] as string[] };
  for (const text of [previousSummary ?? '', summary]) collectLines(text, carried);
  const body = withoutLines(summary);
  const missing = (identifiers: readonly string[]) =>
    [...new Set(identifiers)].filter((identifier) => identifier !== '' && !body.includes(identifier));
  const user = missing([...carried.user, ...sources.user]);
  const tools = missing([...carried.tools, ...sources.tools]);
  if (user.length === 0 && tools.length === 0) return body;

  const userLine = latestLine(IDENTIFIERS_LINE_PREFIX, user, Math.floor(maxTokens * USER_SHARE), estimator);
  const lineTokens = (line: string | undefined) => (line === undefined ? 0 : estimator.countText(line) + 2);
  let fitted = body;
  if (userLine !== undefined) {
    const room = maxTokens - lineTokens(userLine);
    const shortened = fitSummaryToBound(body, Math.max(1, room), estimator, Number.POSITIVE_INFINITY);
    if (typeof shortened !== 'string') return summary;
    fitted = shortened;
  }
  const toolRoom = Math.min(
    Math.floor(maxTokens * TOOL_SHARE),
    maxTokens - estimator.countText(fitted) - lineTokens(userLine) - 2,
  );
  const toolLine = latestLine(TOOL_IDENTIFIERS_LINE_PREFIX, tools, toolRoom, estimator);
  return [fitted, userLine, toolLine].filter((part) => part !== undefined).join('\n\n');
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

/** Adds the identifiers of `text`'s identifier lines to `into`. */
function collectLines(text: string, into: { user: string[]; tools: string[] }): void {
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    for (const [prefix, list] of [
      [IDENTIFIERS_LINE_PREFIX, into.user],
      [TOOL_IDENTIFIERS_LINE_PREFIX, into.tools],
    ] as const) {
      if (trimmed.startsWith(prefix)) list.push(...splitList(trimmed.slice(prefix.length)));
    }
  }
}

function splitList(list: string): string[] {
  return list
    .split(', ')
    .map((identifier) => identifier.trim())
    .filter((identifier) => identifier !== '');
}

/** `text` without its identifier lines. */
function withoutLines(text: string): string {
  if (!text.includes(IDENTIFIERS_LINE_PREFIX) && !text.includes(TOOL_IDENTIFIERS_LINE_PREFIX)) return text;
  return text
    .split('\n')
    .filter((line) => {
      const trimmed = line.trim();
      return (
        !trimmed.startsWith(IDENTIFIERS_LINE_PREFIX) && !trimmed.startsWith(TOOL_IDENTIFIERS_LINE_PREFIX)
      );
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

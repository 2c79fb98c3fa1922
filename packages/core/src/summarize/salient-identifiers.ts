/** Options of {@link salientIdentifiers}. */
export interface SalientIdentifiersOptions {
  /**
   * The most identifiers returned.
   * @default 12
   */
  maxCount?: number;
  /**
   * The most characters the identifiers may take together (joined with `, `).
   * @default 240
   */
  maxChars?: number;
  /** Identifiers not to return (e.g. what the tool call's arguments already show). */
  exclude?: ReadonlySet<string>;
}

/**
 * The kinds of identifier, most telling first. Each pattern is global; a token is classed by the
 * first pattern that matches it.
 */
const KINDS: readonly RegExp[] = [
  /\bhttps?:\/\/[^\s<>"'`)\]]+/g, // URLs
  /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, // e-mail addresses
  /(?:~|\.{1,2})?(?:\/[\w.@+-]+){2,}\/?|\b[A-Za-z]:\\[^\s"'<>|]+/g, // paths
  // ids: letters and digits joined by - or _ (dep-7f3a9c2e, req_91x2), UUIDs, long hex (commits)
  /\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+\b|\b[0-9a-f]{8,}\b/g,
  /\b[A-Z][A-Z0-9]{1,9}-\d+\b/g, // tickets (ABC-123)
  // (errno-style codes, not log levels and capitalised words: ERROR, EXIT, EVENT…)
  /\b(?:(?!(?:ERRORS?|EXCEPTIONS?|EVENTS?|EXIT|EXPORT|EMPTY|ENABLED|END|ENTRY|ENV)\b)E[A-Z]{3,}|ERR_[A-Z0-9_]+|[A-Z][A-Za-z]*(?:Error|Exception)|E\d{3,5})\b/g, // error codes and classes
  /\b[\w-]{2,}(?:\/[\w.-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}\b/g, // file names
  // numbers with a unit, and version numbers
  /\b\d+(?:\.\d+)?\s?(?:ms|s|sec|min|h|KB|MB|GB|TB|KiB|MiB|GiB|kb|mb|gb|%|px|rps|qps)\b|(?<![\w.])v?\d+(?:\.\d+){1,3}\b/g,
  /\b\d{3,}\b/g, // numbers of three or more digits (ports, counts, status codes)
];

/** The index in `KINDS` of numbers with units and versions. */
const VERSION_KIND = KINDS.length - 2;
/** A number with one decimal point and nothing else. */
const BARE_DECIMAL = /^\d+\.\d+$/;
/** An ISO date, with or without the hour that follows it (`2026-03-02T10`). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:T\d{2})?$/;

/** Lines that report something going wrong: their identifiers come first. */
const SALIENT_LINE =
  /\b(?:error|errors|fail(?:ed|ure|ing)?|exception|warn(?:ing)?|fatal|panic|denied|refused|timed? ?out|invalid|missing|not found|unexpected|critical|rejected|abort(?:ed)?)\b/i;

/**
 * The identifiers a reader of `text` would most want kept when the text itself is cleared: URLs,
 * e-mail addresses, paths, ids (letters and digits joined by `-`/`_`, UUIDs, hashes), tickets, error
 * codes, file names, numbers with units and versions, numbers of three or more digits. Those on lines
 * that report a problem come first, then by kind in that order, then by first appearance; repeats
 * and identifiers contained in one already taken are skipped. Deterministic and linear in the text.
 */
export function salientIdentifiers(
  text: string,
  { maxCount = 12, maxChars = 240, exclude }: SalientIdentifiersOptions = {},
): string[] {
  if (typeof text !== 'string' || text.length === 0 || maxCount <= 0) return [];
  const candidates: { identifier: string; rank: number; at: number }[] = [];
  const seen = new Set<string>();
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const salient = line.length < 2_000 && SALIENT_LINE.test(line);
    KINDS.forEach((pattern, kind) => {
      pattern.lastIndex = 0;
      for (const match of line.matchAll(pattern)) {
        const identifier = match[0].replace(/[.,;:!?)]+$/, '');
        if (identifier.length < 3 || identifier.length > 120 || seen.has(identifier)) continue;
        // A timestamp (or the date-and-hour piece of one) tells nothing a reader would look up.
        if (TIMESTAMP.test(identifier)) continue;
        if (exclude?.has(identifier)) continue;
        seen.add(identifier);
        // A bare decimal (887.63) is a number, not a version: ranked with the plain numbers.
        const rankedAs = kind === VERSION_KIND && BARE_DECIMAL.test(identifier) ? KINDS.length - 1 : kind;
        candidates.push({
          identifier,
          rank: (salient ? 0 : KINDS.length) + rankedAs,
          at: lineStart + match.index,
        });
      }
    });
    lineStart += line.length + 1;
  }
  candidates.sort((left, right) => left.rank - right.rank || left.at - right.at);
  const chosen: string[] = [];
  let chars = 0;
  for (const { identifier } of candidates) {
    if (chosen.length >= maxCount) break;
    if (chosen.some((taken) => taken.includes(identifier))) continue;
    const cost = identifier.length + (chosen.length > 0 ? 2 : 0);
    if (chars + cost > maxChars) continue;
    chosen.push(identifier);
    chars += cost;
  }
  return chosen;
}

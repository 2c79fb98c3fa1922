import type { Needle } from '../conversation/conversation';

/** What a needle requires of a request at a given point of the conversation. */
export interface NeedleExpectation {
  needle: Needle;
  /** Strings that must all be present (the latest value for a superseded setting). */
  values: string[];
  /** Earlier values of a superseded setting, now wrong. */
  stale: string[];
  /** For a constraint: whether an eviction attack came between the rule and this point. */
  attacked: boolean;
}

/**
 * What `needle` requires of a request sent during turn `turn`; undefined when it was not planted
 * yet (only placements in earlier turns count).
 */
export function expectationAt(needle: Needle, turn: number): NeedleExpectation | undefined {
  const placed = needle.placements.filter((placement) => placement.turn < turn);
  const latest = placed.at(-1);
  if (latest === undefined) return undefined;
  return {
    needle,
    values: latest.values,
    stale: placed.slice(0, -1).flatMap((placement) => placement.values),
    attacked: needle.attackedAtTurn !== undefined && needle.attackedAtTurn < turn,
  };
}

/** Whether every value is in `text` verbatim. */
export function allPresent(text: string, values: readonly string[]): boolean {
  return values.every((value) => text.includes(value));
}

/**
 * Whether a superseded setting reads right: its latest value is present, and no earlier value is
 * mentioned after the last mention of the latest one (a model reading top to bottom ends on the
 * right value).
 */
export function latestValueCorrect(
  text: string,
  values: readonly string[],
  stale: readonly string[],
): boolean {
  if (!allPresent(text, values)) return false;
  const latestAt = Math.min(...values.map((value) => text.lastIndexOf(value)));
  return stale.every((value) => text.lastIndexOf(value) < latestAt);
}

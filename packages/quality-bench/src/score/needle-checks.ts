import type { Needle } from '../conversation/conversation';

/** What a needle requires of a request at a given point of the conversation. */
export interface NeedleExpectation {
  needle: Needle;
  /** Strings that must all be present (the latest value for a superseded setting). */
  values: string[];
  /** Earlier values of a superseded setting, now wrong. */
  stale: string[];
  /** Words an answer must hold (the latest placement's `answers`). */
  answers: string[];
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
    answers: latest.answers,
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

/** A line that marks the value on it as no longer in force. */
const MARKED_OLD = /\b(?:superseded|outdated|stale|replaced|old value|no longer)\b/i;
/** A line that marks the value on it as the one in force. */
const MARKED_NEWEST = /\b(?:newest|latest|current)\b/i;

/** The line of `text` around `index`. */
function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? text.length : end);
}

/**
 * Whether what a read-back returned (`found`) answers a superseded setting rightly: its latest
 * value is there, and every earlier value it also returned is either marked as old on its line
 * (superseded, outdated, stale, replaced, old value, no longer) or the latest value is marked as
 * the one in force on its line (newest, latest, current). An old value returned unmarked next to
 * the newest is wrong: the model cannot tell which one holds.
 */
export function readBackCorrect(found: string, values: readonly string[], stale: readonly string[]): boolean {
  if (!allPresent(found, values)) return false;
  const staleShown = stale.filter((value) => found.includes(value));
  if (staleShown.length === 0) return true;
  const newestMarked = values.every((value) => MARKED_NEWEST.test(lineAt(found, found.indexOf(value))));
  if (newestMarked) return true;
  return staleShown.every((value) => {
    for (let at = found.indexOf(value); at !== -1; at = found.indexOf(value, at + 1)) {
      if (!MARKED_OLD.test(lineAt(found, at))) return false;
    }
    return true;
  });
}

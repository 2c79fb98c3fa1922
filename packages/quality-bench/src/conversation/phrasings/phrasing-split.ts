import { hashUnit } from '../../random/hash-text';

/**
 * Which half of the phrasings a conversation is written with. `tune`: the phrasings an engine may
 * be tuned on (about 40% of each class). `heldout`: the rest (about 60%), which the published
 * numbers use and which no engine change may be tuned on.
 */
export type PhrasingSplit = 'tune' | 'heldout';

/** Every split, in the order the command line lists them. */
export const PHRASING_SPLITS: readonly PhrasingSplit[] = ['tune', 'heldout'];

/** The share of each class's phrasings in the `tune` split (the rest is `heldout`). */
export const TUNE_SHARE = 0.4;

/**
 * Fixed once, before any engine was tuned on a split: the salt (of 1–200,000) whose split comes
 * closest to 40% in every class (within 2 points) with 1–2 of each superseded stage's four in `tune`.
 * Changing it reshuffles every split (and voids any tuning done on `tune`).
 */
const SPLIT_SALT = 185_093;

/**
 * The split a phrasing belongs to: `tune` when the hash of its template text (FNV-1a, salted) falls
 * under {@link TUNE_SHARE}, else `heldout`. A phrasing's split depends on its own text only, so
 * adding or removing other phrasings never moves it across the line (editing its text may).
 */
export function splitOf(template: string): PhrasingSplit {
  return hashUnit(template, SPLIT_SALT) < TUNE_SHARE ? 'tune' : 'heldout';
}

/** The phrasings of `list` in `split` (by `key`, the template text), in their original order. */
export function phrasingsIn<T>(list: readonly T[], split: PhrasingSplit, key: (item: T) => string): T[] {
  return list.filter((item) => splitOf(key(item)) === split);
}

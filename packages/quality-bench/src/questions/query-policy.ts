/**
 * The one query policy every strategy's read-back tool is driven by: how the simulated model turns
 * a question into searches, and which hit it reads. Nothing in it knows the needle's value or cue.
 *
 * 1. Terms: the question's words, lower-cased, split at anything but letters and digits; words of
 *    fewer than 3 characters, stop words and the words that ask rather than name (interrogatives,
 *    auxiliaries, pronouns, verbs of saying, deciding, owning and approving: {@link ASKING_WORDS})
 *    left out; a crude stem (a trailing `s`, `es`, `ed`, `ing` removed) so a term matches as a
 *    word prefix; the {@link MAX_TERMS} longest kept (the most specific words), in question order.
 * 2. First call: a search for the two longest terms. A tool that takes a regular expression gets a
 *    line that holds both, in either order ({@link linePattern}: RE2 syntax, as `spillway_recall`
 *    takes it, which has no lookaround); a tool that takes one literal string gets the longest term.
 * 3. Second call: when the search listed hits, a read of the hit whose line shares most terms with
 *    the question (ties: the later one, the newest); when it listed none, a read of the reference
 *    shown in the request whose preceding text shares most terms with the question, or, when none
 *    does, a second search for the longest term alone (a literal tool: the second-longest).
 */

/** How many terms a search uses, at most. */
export const MAX_TERMS = 3;

/** Words that ask rather than name: never search terms. */
export const ASKING_WORDS: ReadonlySet<string> = new Set(
  // Stop words, interrogatives, auxiliaries, pronouns.
  (
    'the a an and or but of to in on at for from by with into about over under this that these those ' +
    'it its is are was were be been being do does did done not no so than then there here before after ' +
    'what which where who whom whose why how when can could may might must shall should will would ' +
    'you your yours i me my we our us they them their he she his her any all each every some such ' +
    'other more most only just now again also first last ' +
    // Verbs and nouns of asking, saying, deciding, owning and approving.
    'give gave given say said mention mentioned share shared tell told remind know think find show ' +
    'showed shown list listed use uses used using defined define configured according current currently ' +
    'end ended pick picked chose chosen choose option alternative decide decided decision go went ' +
    'approve approves approval sign signs off own owns owner wrote written built originally place ' +
    'paged page call warn touching touch belong belongs person team told want wants need needs ' +
    'changes change have has had get gets allowed fine ok okay yourself own'
  ).split(' '),
);

/** A crude stem: a trailing `s`, `es`, `ed` or `ing` removed from longer words. */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es') && !word.endsWith('ses')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The search terms of a question (see the module comment, step 1). */
export function queryTerms(question: string): string[] {
  const terms: string[] = [];
  for (const word of question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (word.length < 3 || ASKING_WORDS.has(word)) continue;
    const term = stem(word);
    if (!terms.includes(term)) terms.push(term);
  }
  const kept = new Set(
    terms
      .map((term, order) => ({ term, order }))
      .sort((left, right) => right.term.length - left.term.length || left.order - right.order)
      .slice(0, MAX_TERMS)
      .map((item) => item.term),
  );
  return terms.filter((term) => kept.has(term));
}

/** The longest terms, longest first (ties: question order). */
export function longestTerms(terms: readonly string[], count: number): string[] {
  return terms
    .map((term, order) => ({ term, order }))
    .sort((left, right) => right.term.length - left.term.length || left.order - right.order)
    .slice(0, count)
    .map((item) => item.term);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A regular expression in RE2 syntax (matched case-insensitively, line by line) for a line that
 * holds every term as a word prefix, in any order: one term, or two (`\bA[^\n]*\bB|\bB[^\n]*\bA`).
 * More than two terms would need lookaround (which RE2 lacks) or every order spelled out (over
 * `spillway_recall`'s size limit for a pattern), so only the first two are used.
 */
export function linePattern(terms: readonly string[]): string {
  const [first, second] = terms.map((term) => `\\b${escapeRegExp(term)}`);
  if (first === undefined) return '';
  return second === undefined ? first : `${first}[^\\n]*${second}|${second}[^\\n]*${first}`;
}

/**
 * One search of the policy, for tools of either kind: `terms` for a tool that takes a regular
 * expression (it searches `linePattern(terms)`), `literal` for one that takes a literal string.
 */
export interface SearchQuery {
  readonly terms: readonly string[];
  readonly literal: string;
}

/** The first search: the two longest terms in one line (a literal tool: the longest term). */
export function firstQuery(terms: readonly string[]): SearchQuery {
  const longest = longestTerms(terms, 2);
  return { terms: longest, literal: longest[0] ?? '' };
}

/** The second search, when the first listed nothing: the longest term alone (a literal tool: the second-longest). */
export function secondQuery(terms: readonly string[]): SearchQuery {
  const longest = longestTerms(terms, 2);
  return { terms: longest.slice(0, 1), literal: longest[1] ?? longest[0] ?? '' };
}

/** How many of `terms` a line holds (as word prefixes, case-insensitively). */
export function termOverlap(line: string, terms: readonly string[]): number {
  const lower = line.toLowerCase();
  return terms.filter((term) => new RegExp(`\\b${escapeRegExp(term)}`).test(lower)).length;
}

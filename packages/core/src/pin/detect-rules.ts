/**
 * Deterministic, rule-based detection of standing rules in what a user wrote (English). The pattern
 * tables are in `rule-patterns.ts`. A sentence is a **rule** when, after leading filler ("please",
 * "also", "remember:", "heads-up:", "just so you know,", a list bullet), it
 *
 * - starts with `never`, `always`, `do not` / `don't`, `must`, `make sure`, `ensure`, `avoid`,
 *   `refrain from`, `under no circumstances`, `at no point`, `from now on`, `going forward`,
 *   `no matter what`, `whatever you do`, `at all times`, `be sure to`, or `only` followed by a
 *   verb (`only use …`, `only answer …`); or
 * - contains `you must`, `you should always/never`, `you (may|must|should|can) not`, `you're not
 *   allowed to`, `never ever`, `is forbidden` / `is prohibited` / `is not allowed`, `I want you to
 *   always/never`, `at all times`, `without exception`
 *
 * (also after a short lead-in ending with a colon or a dash: "Please remember this for everything we
 * do here: never …"). Otherwise, unless it hedges ("maybe", "I think") or is anchored to a moment
 * (`now`, `today`, `this time`, `for this run`, `again`, `later`, a past tense: a one-off request or a
 * report), it is a rule when it
 *
 * - states a lasting policy (`… is not to be shared`, `no exceptions`, `until further notice`, `keep
 *   X out of Y`, `X stays free of Y`, `stick to X`, `X is read-only`, `X is a no-go`); or
 * - has a standing shape, at the start of the sentence or of a clause (after `;`, after "When you
 *   …," / "For all future …," / "Whichever X …,"): quitting a habit (`stop/quit` + -ing), a
 *   verbless ban (`no emojis in …`, `no more than three …`), `hands off X`, `leave X alone`, `treat
 *   X as read-only`, `keep X concise/compatible/…`, `X only`, an announced convention (`the
 *   convention here is …`, `our house style is …`, `we're a tabs shop`), a negative wish (`I'd
 *   rather you didn't …`), a preference between two (`I prefer X over Y`), where generic things go
 *   or how they are written (`commit messages go in …`, `dates are written as …`, `function names
 *   use …`), a universal negative (`nothing gets merged without …`, `nobody touches X but me`), a
 *   contrast with never (`…, never in the repo`), a quantified subject with a need (`every change
 *   to the schema needs …`), a habit that goes on (`keep using X`), who alone may (`only the
 *   on-call engineer may …`), a class treated as something (`treat customer IDs as personal data`),
 *   where new things go (`put new tests under …`), a rule named as one (`rule of thumb`), a fact to
 *   keep in mind (`remember that …`), a requirement on a class of what the assistant hands over
 *   (`timestamps I get from you should …`, `tables you produce for me need …`, `whatever report you
 *   draft ends with …`), a convention verb on a bare class (`round percentages to one decimal`,
 *   `sort imports alphabetically`; not `sort the imports in this file`); or
 * - directs (an imperative verb first, `let's`, a modal of obligation, `I'd like` / `I want` / `I'd
 *   rather`, `you'll want to`) or declares how things are (a generic subject with `is/are` — not a
 *   status adjective like "flaky" —, `we use …`, `anything you write … stays`) **and** says it
 *   lasts: `from now on`, `unless I ask`, `every time`, `whenever`, `whichever X you …`, `if you
 *   ever`, `when the ticket is …`, `what I get from you`, `on Fridays`, `for anything new`, `in
 *   this repo/project/team`, `throughout`, `everywhere`, `by default`, `even if`, `per X`, `for
 *   every X you write`, `the code you hand me`, `when you summarize …`, `before installing …`, `in
 *   all your answers`, `all future …`, `X, not Y`, `instead of`, `only on …`, `here` (declarations
 *   only), an open object (`write all docs …`, not `check every file …`), or a quantifier with an
 *   obligation.
 *
 * A rule is not a question, has at least three words and at most 400 characters. Common non-rules are
 * left out (`never mind`, `don't worry`, `always the same`, `no idea`, `no luck`, `no tests cover …`).
 *
 * A sentence is a **revocation** when it contains `you may now`, `you can now`, `you're now allowed
 * to`, `it's (now) ok/fine to`, `feel free to`, `no longer need/have to`, `don't need to … anymore`,
 * `forget/ignore/disregard/drop/lift the (earlier) rule/instruction/constraint/restriction`, or
 * `no longer applies`. A revocation replaces the rule it is about (see `collectPinnedRules`).
 */
import {
  CONTAINS,
  DECLARATIVE,
  FILLER,
  HEDGE,
  HERE,
  IMPERATIVE,
  NOUN_START,
  OBLIGATION,
  ONE_OFF,
  OPEN_OBJECT,
  QUANTIFIED,
  REVOKES,
  SCOPE,
  SHAPES,
  STANDING,
  STARTS,
  TRAILER,
  VERBLESS_SCOPE,
} from './rule-patterns';

export interface DetectedRules {
  /** Rule sentences, verbatim (trimmed; a leading list bullet removed), in order. */
  readonly rules: readonly string[];
  /** Revocation sentences, verbatim, in order. */
  readonly revocations: readonly string[];
}

/** Longest sentence taken as a rule, in characters. */
export const RULE_MAX_CHARS = 400;

/**
 * What follows a short lead-in phrase (three words or more) that ends with a colon or a dash
 * ("Please remember this for everything we do here: never …", "One rule for this repo — always …"),
 * filler removed; the sentence itself when it has none.
 */
function afterLeadIn(body: string): string {
  const match = /^([^:–—]{1,120}?)(?::|\s[–—-])\s+(\S.*)$/s.exec(body);
  // A lead-in is a phrase (three words or more), not a label ("Status: always green").
  if (match === null || match[1]!.trim().split(/\s+/).length < 3) return body;
  return match[2]!.replace(FILLER, '');
}

/**
 * Where a sentence's directive can start: after filler, after a lead-in ending in a colon or dash,
 * after a leading subordinate or prepositional phrase ("When you summarize a meeting, lead with …",
 * "Any time you open a pull request, link …", "As a rule, we …",
 * "For all future reports, put …"), and each clause after a semicolon; trailing filler removed.
 */
function heads(body: string, lead: string): string[] {
  const found = new Set<string>();
  for (const start of [body, lead]) {
    for (const clause of start.split(/;\s*/)) {
      const head = clause.replace(FILLER, '').replace(TRAILER, '');
      found.add(head);
      const rest =
        /^(?:when|whenever|if|once|before|after|for|in|on|with|across|any ?time|every time|each time|as a rule|whatever|whichever)\b[^,]{0,60},\s*(\S.*)$/i.exec(
          head,
        );
      if (rest !== null) found.add(rest[1]!);
    }
  }
  return [...found];
}

/** Whether a sentence (not a one-off, see `ONE_OFF`) states a standing rule by its shape and scope. */
function isStandingShape(starts: readonly string[], sentence: string): boolean {
  const any = (pattern: RegExp) => starts.some((start) => pattern.test(start));
  if (any(SHAPES) || any(VERBLESS_SCOPE)) return true;
  const imperative = starts.some((start) => IMPERATIVE.test(start) && !NOUN_START.test(start));
  const obliges = any(OBLIGATION);
  const scoped = SCOPE.test(sentence);
  if ((imperative || obliges) && (scoped || any(OPEN_OBJECT))) return true;
  if (any(DECLARATIVE) && (scoped || HERE.test(sentence))) return true;
  return obliges && QUANTIFIED.test(sentence);
}

const SENTENCE_END = /(?<!\b(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|vs|approx|cf|Fig|e\.g|i\.e)\.)(?<=[.!?])\s+(?=\S)/;

/**
 * Splits text into sentences: at line breaks, and after `.`, `!` or `?` followed by a space — not after
 * a title or an abbreviation that is rarely a sentence's end ("Dr. Okafor", "e.g. a", "vs. b").
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const item = line.trim().replace(/^(?:[-*•>]+|\d{1,3}[.)])\s+/, '');
    for (const piece of item.split(SENTENCE_END)) {
      const sentence = piece.trim();
      if (sentence.length > 0) sentences.push(sentence);
    }
  }
  return sentences;
}

/** The standing rules and revocations in a user's text (see the module comment for the patterns). */
export function detectRules(text: string): DetectedRules {
  if (typeof text !== 'string' || text.length === 0) return { rules: [], revocations: [] };
  const rules: string[] = [];
  const revocations: string[] = [];
  for (const sentence of splitSentences(text)) {
    if (sentence.length > RULE_MAX_CHARS || sentence.endsWith('?')) continue;
    if (sentence.split(/\s+/).length < 3) continue;
    if (REVOKES.test(sentence)) {
      revocations.push(sentence);
      continue;
    }
    const body = sentence.replace(FILLER, '');
    const lead = afterLeadIn(body);
    if (STARTS.test(body) || STARTS.test(lead) || CONTAINS.test(sentence)) {
      rules.push(sentence);
      continue;
    }
    if (HEDGE.test(sentence) || ONE_OFF.test(sentence)) continue;
    if (STANDING.test(sentence) || isStandingShape(heads(body, lead), sentence)) rules.push(sentence);
  }
  return { rules, revocations };
}

const STOPWORDS = new Set(
  (
    'the a an and or but of to in on at for from by with without into onto about against over under ' +
    'this that these those it its is are was were be been being do does did done not no nor so than ' +
    'then too very can could may might must shall should will would you your yours i me my we our us ' +
    'they them their he she his her any all each every some such own same other more most only just ' +
    'now ever never always again anymore longer free feel allowed permitted okay ok fine please also ' +
    'make sure ensure avoid going forward here there when where what which who whom why how if else ' +
    "dont don't need have has had want rule rules instruction instructions constraint constraints"
  ).split(' '),
);

/** The content words of a sentence (lowercase, stop words and rule words removed, crude stems). */
export function topicWords(sentence: string): Set<string> {
  const words = new Set<string>();
  for (const word of sentence.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
    if ((word.length < 2 && !/\d/.test(word)) || STOPWORDS.has(word)) continue;
    words.add(stem(word));
  }
  return words;
}

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * How much two topics overlap: shared words over the smaller topic's size (0 to 1); 0 when fewer
 * than two words are shared (one, when a topic has a single word).
 */
export function topicOverlap(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  const smaller = Math.min(left.size, right.size);
  if (smaller === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  if (shared < Math.min(2, smaller)) return 0;
  return shared / smaller;
}

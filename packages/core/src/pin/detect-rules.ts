/**
 * Deterministic, rule-based detection of standing rules in what a user wrote (English). A sentence
 * is a **rule** when, after leading filler ("please", "also", "remember:", "important:", a list
 * bullet), it
 *
 * - starts with `never`, `always`, `do not` / `don't`, `must`, `make sure`, `ensure`, `avoid`,
 *   `refrain from`, `under no circumstances`, `at no point`, `from now on`, `going forward`,
 *   `no matter what`, `whatever you do`, `at all times`, `be sure to`, or `only` followed by a
 *   verb (`only use …`, `only answer …`); or
 * - contains `you must`, `you should always/never`, `you (may|must|should|can) not`, `you're not
 *   allowed to`, `never ever`, `is forbidden` / `is prohibited` / `is not allowed`, `I want you to
 *   always/never`, `at all times`, `without exception`;
 *
 * (also after a short lead-in ending with a colon or a dash: "Please remember this for everything we
 * do here: never …"), and is not a question, has at least three words and at most 400 characters. Common non-rules
 * are left out (`never mind`, `don't worry`, `always the same`).
 *
 * A sentence is a **revocation** when it contains `you may now`, `you can now`, `you're now allowed
 * to`, `it's (now) ok/fine to`, `feel free to`, `no longer need/have to`, `don't need to … anymore`,
 * `forget/ignore/disregard/drop/lift the (earlier) rule/instruction/constraint/restriction`, or
 * `no longer applies`. A revocation replaces the rule it is about (see `collectPinnedRules`).
 */
export interface DetectedRules {
  /** Rule sentences, verbatim (trimmed; a leading list bullet removed), in order. */
  readonly rules: readonly string[];
  /** Revocation sentences, verbatim, in order. */
  readonly revocations: readonly string[];
}

/** Longest sentence taken as a rule, in characters. */
export const RULE_MAX_CHARS = 400;

const FILLER =
  /^(?:(?:please|pls|also|and|but|so|oh|ok|okay|remember|important|note|rule|reminder|ps|p\.s\.|btw|one more thing|oh and|and also|again|seriously|just|hey|fyi|nb|n\.b\.)\s*[,:!.\-–—]?\s+)*/i;

const STARTS = new RegExp(
  '^(?:' +
    [
      'never(?! mind\\b| seen\\b| been\\b| heard\\b| had\\b| thought\\b| knew\\b)',
      'always(?! the\\b| a\\b| an\\b| been\\b| was\\b| is\\b)',
      'do not',
      "don'?t(?! worry\\b| know\\b| think\\b| understand\\b| see\\b| get\\b| remember\\b| care\\b| mind\\b)",
      'dont(?! worry\\b| know\\b| think\\b)',
      'must',
      'make sure',
      'ensure',
      'avoid',
      'refrain from',
      'under no circumstances',
      'at no point',
      'from now on',
      'going forward',
      'from here on',
      'no matter what',
      'whatever you do',
      'at all times',
      'be sure to',
      'only (?:ever )?(?:use|run|edit|write|modify|change|touch|deploy|commit|push|answer|reply|respond|call|read|work|speak|talk|output|return|install|import|merge|ask|send|make|create|delete|access|query|connect|suggest|recommend|cite|quote|format|print|log)',
    ].join('|') +
    ')\\b',
  'i',
);

const CONTAINS = new RegExp(
  [
    '\\byou must\\b',
    '\\byou (?:should|shall|have to|need to) (?:always|never)\\b',
    '\\byou (?:may|must|should|shall|can) not\\b',
    "\\byou (?:mustn'?t|shouldn'?t|can'?t|cannot)\\b(?! (?:see|find|know|tell|really|actually|easily|simply|just|quite|even|always)\\b)",
    "\\byou(?:'re| are) not (?:allowed|permitted|supposed) to\\b",
    '\\bnever,? ever\\b',
    '\\b(?:is|are) (?:strictly |absolutely )?(?:forbidden|prohibited|not allowed|not permitted|off[- ]limits)\\b',
    '\\bi (?:want|need) you to (?:always|never)\\b',
    '\\bat all times\\b',
    '\\bwithout exception\\b',
  ].join('|'),
  'i',
);

/**
 * Constructs that state a standing rule by themselves: a policy that lasts ("… is not to be shared",
 * "keep it that way", "no exceptions", "until further notice"), or an instruction to keep something
 * out of, away from or within something ("keep customer names out of the logs", "stick to pnpm",
 * "secrets stay out of your answers").
 */
const STANDING = new RegExp(
  [
    '\\b(?:is|are) (?:not )?to be (?:\\w+ed|\\w+en|shared|kept|used|run|made|sent|done|left|put|written|shown)\\b',
    '\\bno exceptions?\\b',
    '\\bkeep (?:it|them|things) (?:that way|like that|as (?:is|they are))\\b',
    '\\buntil (?:further notice|I say otherwise|we say otherwise|I tell you otherwise)\\b',
    '\\b(?:keep|keeps|kept)\\b[^.;!?]{1,80}?\\b(?:out of|away from|off)\\b',
    '\\b(?:stay|stays|remain|remains) (?:well )?(?:out of|away from|clear of|off)\\b',
    '\\bstick (?:to|with)\\b',
    '\\b(?:is|are) (?:strictly |still )?(?:frozen|locked) (?:until|for now|for the time being|indefinitely)\\b',
    '\\b(?:is|are) (?:strictly |still )?(?:read-only|hands-off|untouchable)\\b',
    '\\b(?:is|are|gets?|get) (?:always|never)\\b',
  ].join('|'),
  'i',
);

/**
 * Where a sentence says it holds beyond the moment: from now on, for the rest of the session, in
 * this repository, unless I ask, until something lands, every time, for every X you write, for
 * anything that touches Y.
 */
const SCOPE = new RegExp(
  [
    '\\bfrom (?:now|here|today|this point)(?: on| onwards?)?\\b',
    '\\b(?:going|moving) forward\\b',
    '\\bhenceforth\\b',
    '\\bfor the rest of\\b',
    '\\b(?:every|each|any) time\\b',
    '\\b(?:whenever|wherever)\\b',
    '\\bunless (?:I|we|you|someone)\\b',
    '\\buntil (?:the \\w+(?: \\w+)? (?:lands|ends|ships|is (?:done|over|merged|finished))|further|I|we)\\b',
    '\\bin (?:this|the|our) (?:repo|repository|project|codebase|code base|team|conversation|chat|session)\\b',
    // a habit: every X you write, anything that touches Y, anything package-related
    '\\b(?:every|each|any|all)\\b[^.;!?]{0,40}\\b(?:you|we) (?:write|add|make|create|open|send|produce|touch|use|run|give|deploy|commit|push|generate|answer|reply|print|log)\\b',
    '\\b(?:anything|everything) (?:that|which|related|to do with)\\b|\\b(?:anything|everything) [\\w-]+-related\\b',
    '\\b(?:in|for|to) (?:any|every|all) (?:output|answers?|replies|responses|commits?)\\b',
  ].join('|'),
  'i',
);

/** Quantifiers that make a wish or an obligation a standing one ("all code comments in English"). */
const QUANTIFIED = /\b(?:every|each|all|any|anything|everything)\b/i;

/**
 * How a user directs the assistant: an imperative verb first or `let's`; or (stronger, enough with a
 * quantifier) a modal of obligation, a wish for how things are done, a rule of the form "every X
 * gets / needs …", "X are shown in Y", "that is the order …".
 */
const IMPERATIVE =
  /^(?:let'?s |let us )?(?:use|keep|stay|stick|tag|cc|ping|avoid|prefer|write|answer|reply|respond|put|add|include|leave|send|ask|check|run|format|name|call|mention|cite|quote|show|log|print|commit|push|deploy|test|document|comment|mark|label|route|store|save|treat|default|pin|lock|wrap|sign|review|squash|rebase|branch|prefix|suffix|end|start|begin|open|close|report|notify|flag|cap|limit|round|convert|express|spell|refer|address|reference|stage|merge|release|ship|bump|version|translate|respect|follow|obey|honor|honour|remember)\b/i;
const OBLIGATION = new RegExp(
  [
    '\\b(?:should|must|shall|ought to|needs? to|has to|have to)\\b',
    "\\b(?:I'?d like|I would like|I want|I prefer|I'?d prefer|I expect|we want|we prefer|we expect)\\b(?! to (?:know|understand|see|look|check|ask))",
    '^(?:every|each|all|any) (?:new |single )?[\\w-]+(?: [\\w-]+)? (?:gets?|needs?|requires?|must|should|has to|have to|goes|go|is to|are to)\\b',
    '\\b(?:is|are) (?:always |only )?(?:shown|written|kept|given|formatted|named|stored|logged|reported|quoted|expressed|rounded|sent|done)\\b',
    '\\bthat is the (?:order|rule|way|process|convention|policy)\\b',
  ].join('|'),
  'i',
);

/** Words that make a sentence a musing rather than an instruction. */
const HEDGE =
  /\b(?:probably|maybe|perhaps|at some point|I think|I guess|I wonder|sadly|apparently|I suppose|might|could we|would be nice)\b/i;

const REVOKES = new RegExp(
  [
    '\\byou (?:may|can|could) now\\b',
    "\\byou(?:'re| are) now (?:allowed|permitted|free) to\\b",
    "\\b(?:it'?s|it is) (?:now )?(?:ok|okay|fine|alright|allowed) (?:now )?(?:to|for you to)\\b",
    '\\bfeel free to\\b',
    '\\bno longer (?:need|have) to\\b',
    "\\b(?:don'?t|do not) (?:need|have) to\\b.*\\b(?:anymore|any more|any longer)\\b",
    '\\b(?:forget|ignore|disregard|drop|lift|remove|cancel|scrap) (?:about )?(?:the|my|that|this|your) (?:earlier |previous |old |last )?(?:rule|instruction|constraint|restriction|requirement)\\b',
    '\\bno longer (?:applies|required|necessary|needed|in force)\\b',
  ].join('|'),
  'i',
);

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

/** Splits text into sentences: at line breaks, and after `.`, `!` or `?` followed by a space. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const item = line.trim().replace(/^(?:[-*•>]+|\d{1,3}[.)])\s+/, '');
    for (const piece of item.split(/(?<=[.!?])\s+(?=\S)/)) {
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
    if (HEDGE.test(sentence)) continue;
    const imperative = IMPERATIVE.test(body) || IMPERATIVE.test(lead);
    const obliges = OBLIGATION.test(body) || OBLIGATION.test(lead);
    if (
      STANDING.test(sentence) ||
      ((imperative || obliges) && SCOPE.test(sentence)) ||
      (obliges && QUANTIFIED.test(sentence))
    ) {
      rules.push(sentence);
    }
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

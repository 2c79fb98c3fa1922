import { detectRules, splitSentences } from '../pin/detect-rules';
import { FILLER, IMPERATIVE } from '../pin/rule-patterns';
import { salientIdentifiers } from './salient-identifiers';

/**
 * Words that state a choice taken or made between options ("went with", "rather than",
 * "decided"): shared by the user's salient sentences (below) and the decisions a summary must not
 * lose (`decisionsOf`). A regular-expression alternation.
 */
export const CHOICE_WORDS =
  'go(?:ing)? with|went with|rather than|instead of|decid(?:e|ed|ing)|decision|chose|chosen|choose|settled? on|switch(?:ed)? to';

/**
 * Words that make a sentence carry a choice or a direction: a decision ({@link CHOICE_WORDS}, "pick",
 * "prefer", "agreed", "we'll"), an obligation or a wish ("should", "need", "I'd like"), a limit
 * ("only", "never"), or anything said to the assistant about what it does ("you", "your").
 * Wider than the rule detector on purpose: a sentence kept by mistake costs a few tokens, a
 * sentence left out is gone from the request.
 */
const CUES = new RegExp(
  `\\b(?:${CHOICE_WORDS}|pick(?:ed)?|prefer(?:red|s)?|agreed?|let'?s|we'?ll|we will|should|shouldn'?t|must|mustn'?t|need(?:s|ed)?|have to|has to|make sure|ensure|never|always|only|don'?t|do not|doesn'?t|does not|won'?t|can'?t|cannot|please|avoid|keep|stop|no longer|from now on|going forward|want(?:s|ed)?|would like|i'?d like|i'?d rather|every|each|any|per|nobody|no one|nothing|none|whenever|unless|until|without|owns?|owner|responsible|in charge|approves?|sign[- ]off|on call|pager|you|your)\\b`,
  'i',
);

/**
 * A capitalized word after the first one (a person, a team, a product, a place), or an acronym
 * anywhere (`UTC`, `SQL`, `TL;DR`): a name.
 */
const NAME = /\s(?!I\b|I'[a-z]+\b)[A-Z][\w-]*[a-z0-9][\w-]*|\b[A-Z]{2,}\b/;

/** A correction: "…, not Y" (what it is instead of what it is not). */
const CONTRAST = /,\s*not\b/i;

/** A digit anywhere: an amount, a date, a port, a count, a version. */
const DIGIT = /\d/;

/** A salient sentence of a user's message (see {@link salientSentenceParts}). */
export interface SalientSentence {
  /** The sentence, verbatim. */
  readonly text: string;
  /** Whether it carries a choice, a direction or a rule (not only a name). */
  readonly directs: boolean;
}

/**
 * The sentences of a user's message worth keeping when the message itself no longer fits: those
 * that name something (an identifier, a number, a name) or carry a choice, a direction (an
 * imperative first, a modal, a limit) or a standing instruction (every rule and revocation
 * `detectRules` finds is among them), each marked with whether it carries more than a name.
 * Questions are left out unless they name something (and then count as names only): a question asks
 * for the moment. In order, verbatim (as `splitSentences` cuts them); empty when none qualifies.
 * Deterministic and linear in the text.
 */
export function salientSentenceParts(text: string): SalientSentence[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  const detected = detectRules(text);
  const rules = new Set([...detected.rules, ...detected.revocations]);
  const parts: SalientSentence[] = [];
  for (const sentence of splitSentences(text)) {
    if (rules.has(sentence)) {
      parts.push({ text: sentence, directs: true });
      continue;
    }
    const names =
      DIGIT.test(sentence) || NAME.test(sentence) || salientIdentifiers(sentence, { maxCount: 1 }).length > 0;
    // A direction: a clause that opens with an imperative ("…, so skip the colours"), as the rule
    // detector reads one.
    const directs =
      !sentence.endsWith('?') &&
      (CUES.test(sentence) ||
        CONTRAST.test(sentence) ||
        clauses(sentence).some((clause) => IMPERATIVE.test(clause)));
    if (names || directs) parts.push({ text: sentence, directs });
  }
  return parts;
}

/**
 * The text of salient sentences (see {@link salientSentenceParts}): every one, or (`names: false`)
 * only those that carry a choice, a direction or a rule.
 */
export function sentenceTexts(
  parts: readonly SalientSentence[],
  {
    names = true,
  }: {
    /**
     * Whether a sentence that only names something (no choice, direction or rule in it) is kept.
     * @default true
     */
    names?: boolean;
  } = {},
): string[] {
  return parts.filter((part) => names || part.directs).map((part) => part.text);
}

/** The sentence and its clauses after `;` or a comma and a joining word, filler removed. */
function clauses(sentence: string): string[] {
  return sentence.split(/;\s*|,\s*(?:so|and|but|then|or)\s+/i).map((clause) => clause.replace(FILLER, ''));
}

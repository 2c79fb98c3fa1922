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

/**
 * The sentences of a user's message worth keeping when the message itself no longer fits: those
 * that name something (an identifier, a number, a name) or carry a choice, a direction (an
 * imperative first, a modal, a limit) or a standing instruction (every rule and revocation
 * `detectRules` finds is among them). Questions are left out
 * unless they name something: a question asks for the moment. In order, verbatim (as
 * `splitSentences` cuts them); empty when none qualifies. Deterministic and linear in the text.
 */
export function salientSentences(
  text: string,
  {
    names: keepNames = true,
  }: {
    /**
     * Whether a sentence that only names something (no choice, direction or rule in it) is kept.
     * @default true
     */
    names?: boolean;
  } = {},
): string[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  const detected = detectRules(text);
  const rules = new Set([...detected.rules, ...detected.revocations]);
  return splitSentences(text).filter((sentence) => {
    if (rules.has(sentence)) return true;
    const names =
      keepNames &&
      (DIGIT.test(sentence) ||
        NAME.test(sentence) ||
        salientIdentifiers(sentence, { maxCount: 1 }).length > 0);
    if (sentence.endsWith('?')) return names;
    // A direction: a clause that opens with an imperative ("…, so skip the colours"), as the rule
    // detector reads one.
    return (
      names ||
      CUES.test(sentence) ||
      CONTRAST.test(sentence) ||
      clauses(sentence).some((clause) => IMPERATIVE.test(clause))
    );
  });
}

/** The sentence and its clauses after `;` or a comma and a joining word, filler removed. */
function clauses(sentence: string): string[] {
  return sentence.split(/;\s*|,\s*(?:so|and|but|then|or)\s+/i).map((clause) => clause.replace(FILLER, ''));
}

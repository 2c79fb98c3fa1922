import { DECISION_PHRASINGS, type DecisionPhrasing } from './phrasings/decision-phrasings';
import { IMPLICIT_PHRASINGS, type ImplicitPhrasing } from './phrasings/implicit-phrasings';
import { ORDINARY_SENTENCES } from './phrasings/ordinary-sentences';
import { type PhrasingSplit, phrasingsIn } from './phrasings/phrasing-split';
import { RULE_PHRASINGS, type RulePhrasing } from './phrasings/rule-phrasings';
import { SUPERSEDED_PHRASINGS, type SupersededPhrasing } from './phrasings/superseded-phrasings';
import {
  TOOL_IDENTIFIER_PHRASINGS,
  type ToolIdentifierPhrasing,
} from './phrasings/tool-identifier-phrasings';
import {
  USER_IDENTIFIER_PHRASINGS,
  type UserIdentifierPhrasing,
} from './phrasings/user-identifier-phrasings';

/** The phrasings of one split, per needle class (what a conversation of that split is written with). */
export interface PhrasingSet {
  split: PhrasingSplit;
  rules: readonly RulePhrasing[];
  userIdentifiers: readonly UserIdentifierPhrasing[];
  toolIdentifiers: readonly ToolIdentifierPhrasing[];
  decisions: readonly DecisionPhrasing[];
  implicit: readonly ImplicitPhrasing[];
  superseded: Readonly<Record<SupersededPhrasing['stage'], readonly SupersededPhrasing[]>>;
  ordinary: { user: readonly string[]; assistant: readonly string[] };
}

const cache = new Map<PhrasingSplit, PhrasingSet>();

/**
 * The phrasings of `split` (see `splitOf`). A stage of the superseded settings that has no phrasing
 * in the split borrows the split's other superseded phrasings (each names the setting, the subject
 * and the number, so any of them can carry any step).
 */
export function phrasingSet(split: PhrasingSplit): PhrasingSet {
  const cached = cache.get(split);
  if (cached) return cached;
  const superseded = phrasingsIn(SUPERSEDED_PHRASINGS, split, (item) => item.text);
  const stage = (name: SupersededPhrasing['stage']) => {
    const own = superseded.filter((item) => item.stage === name);
    return own.length > 0 ? own : superseded;
  };
  const set: PhrasingSet = {
    split,
    rules: phrasingsIn(RULE_PHRASINGS, split, (item) => item.text),
    userIdentifiers: phrasingsIn(USER_IDENTIFIER_PHRASINGS, split, (item) => item.text),
    toolIdentifiers: phrasingsIn(TOOL_IDENTIFIER_PHRASINGS, split, (item) => item.text),
    decisions: phrasingsIn(DECISION_PHRASINGS, split, (item) => item.text),
    implicit: phrasingsIn(IMPLICIT_PHRASINGS, split, (item) => item.text),
    superseded: { set: stage('set'), change: stage('change'), final: stage('final') },
    ordinary: {
      user: phrasingsIn(ORDINARY_SENTENCES.user, split, (item) => item),
      assistant: phrasingsIn(ORDINARY_SENTENCES.assistant, split, (item) => item),
    },
  };
  cache.set(split, set);
  return set;
}

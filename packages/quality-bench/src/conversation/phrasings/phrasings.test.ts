import { describe, expect, it } from 'vitest';
import { generateConversation } from '../generate-conversation';
import { phrasingSet } from '../phrasing-set';
import { DECISION_PHRASINGS } from './decision-phrasings';
import { IMPLICIT_PHRASINGS } from './implicit-phrasings';
import { ORDINARY_SENTENCES } from './ordinary-sentences';
import { PHRASING_SPLITS, phrasingsIn, splitOf, TUNE_SHARE } from './phrasing-split';
import { RULE_PHRASINGS } from './rule-phrasings';
import { SUPERSEDED_PHRASINGS } from './superseded-phrasings';
import { TOOL_IDENTIFIER_PHRASINGS } from './tool-identifier-phrasings';
import { USER_IDENTIFIER_PHRASINGS } from './user-identifier-phrasings';

const CLASSES: Record<string, readonly string[]> = {
  rules: RULE_PHRASINGS.map((item) => item.text),
  'user identifiers': USER_IDENTIFIER_PHRASINGS.map((item) => item.text),
  'tool identifiers': TOOL_IDENTIFIER_PHRASINGS.map((item) => item.text),
  decisions: DECISION_PHRASINGS.map((item) => item.text),
  implicit: IMPLICIT_PHRASINGS.map((item) => item.text),
  superseded: SUPERSEDED_PHRASINGS.map((item) => item.text),
  'ordinary (user)': ORDINARY_SENTENCES.user,
  'ordinary (assistant)': ORDINARY_SENTENCES.assistant,
};

/** A template as a regular expression: its slots match any text. */
const templateRegex = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{\w+\}/)
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+?')}$`,
  );

describe('the phrasings', () => {
  it('has at least 30 rule phrasings, most without never/always/must/don’t, and 10 or more of every other class', () => {
    expect(RULE_PHRASINGS.length).toBeGreaterThanOrEqual(30);
    const keyworded = RULE_PHRASINGS.filter((rule) =>
      /\b(?:never|always|must|don'?t|do not)\b/i.test(rule.text),
    );
    expect(keyworded.length).toBeLessThan(RULE_PHRASINGS.length / 4);
    for (const list of [
      USER_IDENTIFIER_PHRASINGS,
      TOOL_IDENTIFIER_PHRASINGS,
      DECISION_PHRASINGS,
      IMPLICIT_PHRASINGS,
    ]) {
      expect(list.length).toBeGreaterThanOrEqual(10);
    }
    expect(SUPERSEDED_PHRASINGS.length).toBeGreaterThanOrEqual(12);
  });

  it('writes every rule as one sentence whose cue is in it, unique, and whose questions carry neither the cue nor the answer', () => {
    expect(new Set(RULE_PHRASINGS.map((rule) => rule.cue)).size).toBe(RULE_PHRASINGS.length);
    for (const rule of RULE_PHRASINGS) {
      expect(rule.text).toContain(rule.cue);
      expect(rule.text).not.toMatch(/[.!?]\s+\S/);
      expect(rule.text.endsWith('?')).toBe(false);
      expect(rule.questions.length).toBeGreaterThanOrEqual(2);
      for (const question of rule.questions) {
        expect(question.toLowerCase()).not.toContain(rule.cue.toLowerCase());
        for (const answer of rule.answers) expect(question).not.toMatch(new RegExp(`\\b${answer}`, 'i'));
      }
    }
  });

  it('splits every class into disjoint tune and heldout halves, about 40/60, the same way every time', () => {
    for (const [name, list] of Object.entries(CLASSES)) {
      const tune = phrasingsIn(list, 'tune', (item) => item);
      const heldout = phrasingsIn(list, 'heldout', (item) => item);
      expect(
        tune.filter((item) => heldout.includes(item)),
        name,
      ).toEqual([]);
      expect(tune.length + heldout.length, name).toBe(list.length);
      expect(Math.abs(tune.length / list.length - TUNE_SHARE), name).toBeLessThanOrEqual(0.1);
      expect(heldout.length, name).toBeGreaterThan(0);
      for (const item of list) expect(splitOf(item)).toBe(splitOf(`${item}`));
    }
    // A phrasing's split depends on its own text only: dropping others never moves it.
    const [first, ...rest] = CLASSES.rules!;
    expect(
      phrasingsIn([first!], 'tune', (item) => item).length + phrasingsIn(rest, 'tune', (item) => item).length,
    ).toBe(phrasingsIn(CLASSES.rules!, 'tune', (item) => item).length);
  });

  it('writes a conversation of one split with that split’s phrasings only', () => {
    for (const split of PHRASING_SPLITS) {
      const set = phrasingSet(split);
      const other = phrasingSet(split === 'tune' ? 'heldout' : 'tune');
      const conversation = generateConversation({ seed: 31, turns: 400, split });
      expect(conversation.split).toBe(split);
      const cueTemplates: Record<string, { own: string[]; other: string[] }> = {
        'identifier-user': {
          own: set.userIdentifiers.map((item) => item.cue),
          other: other.userIdentifiers.map((item) => item.cue),
        },
        'identifier-tool': {
          own: set.toolIdentifiers.map((item) => item.cue),
          other: other.toolIdentifiers.map((item) => item.cue),
        },
        decision: {
          own: set.decisions.map((item) => item.cue),
          other: other.decisions.map((item) => item.cue),
        },
        implicit: {
          own: set.implicit.map((item) => item.cue),
          other: other.implicit.map((item) => item.cue),
        },
      };
      for (const needle of conversation.needles) {
        if (needle.kind === 'constraint') {
          expect(set.rules.map((rule) => rule.text)).toContain(needle.placements[0]!.values[0]);
          continue;
        }
        if (needle.kind === 'superseded') {
          const own = [...set.superseded.set, ...set.superseded.change, ...set.superseded.final];
          for (const placement of needle.placements) {
            expect(own.some((item) => templateRegex(item.value).test(placement.values[0]!))).toBe(true);
          }
          continue;
        }
        const templates = cueTemplates[needle.kind]!;
        const matches = (list: string[]) => list.some((template) => templateRegex(template).test(needle.cue));
        expect(matches(templates.own), needle.cue).toBe(true);
      }
    }
  });
});

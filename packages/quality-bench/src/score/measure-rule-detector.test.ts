import { describe, expect, it } from 'vitest';
import { generateConversation } from '../conversation/generate-conversation';
import { phrasingSet } from '../conversation/phrasing-set';
import { splitSentences } from '../summarizer/lossy-summarizer';
import { measureRuleDetector } from './measure-rule-detector';

const conversations = [1, 2].map((seed) => generateConversation({ seed, turns: 200 }));

describe('measureRuleDetector', () => {
  it('counts a detector that pins every sentence as catching every rule and pinning every ordinary sentence', () => {
    const rates = measureRuleDetector({ split: 'heldout', detect: splitSentences, conversations });
    expect(rates.catchRate.total).toBe(phrasingSet('heldout').rules.length);
    expect(rates.catchRate.rate).toBe(1);
    expect(rates.catchRateInConversation.total).toBeGreaterThan(0);
    expect(rates.catchRateInConversation.rate).toBe(1);
    expect(rates.falsePinRate.rate).toBe(1);
    expect(rates.falsePinRateOrdinary.rate).toBe(1);
  });

  it('counts a detector that pins nothing as catching nothing and pinning nothing, and names the misses', () => {
    const rates = measureRuleDetector({ split: 'heldout', detect: () => [], conversations });
    expect(rates.catchRate.count).toBe(0);
    expect(rates.catchRate.wrong).toEqual(phrasingSet('heldout').rules.map((rule) => rule.text));
    expect(rates.falsePinRate.count).toBe(0);
  });

  it('judges at least 200 ordinary sentences, none of them a rule, a question or filler', () => {
    const rates = measureRuleDetector({ split: 'heldout', detect: splitSentences });
    expect(rates.falsePinRate.total).toBeGreaterThanOrEqual(200);
    const rules = new Set(
      [...phrasingSet('heldout').rules, ...phrasingSet('tune').rules].map((rule) => rule.text),
    );
    for (const sentence of rates.falsePinRate.wrong) {
      expect(rules.has(sentence)).toBe(false);
      expect(sentence.endsWith('?')).toBe(false);
    }
  });

  it('measures the engine’s detectRules on each split separately', () => {
    const heldout = measureRuleDetector({ split: 'heldout' });
    const tune = measureRuleDetector({ split: 'tune' });
    expect(heldout.catchRate.total + tune.catchRate.total).toBe(
      phrasingSet('heldout').rules.length + phrasingSet('tune').rules.length,
    );
    for (const rates of [heldout, tune]) {
      expect(rates.catchRate.rate).toBeGreaterThanOrEqual(0);
      expect(rates.catchRate.rate).toBeLessThanOrEqual(1);
      expect(rates.falsePinRate.count).toBe(rates.falsePinRate.wrong.length);
    }
  });
});

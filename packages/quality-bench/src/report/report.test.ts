import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyRunScore } from '../score/run-score';
import { formatReport } from './format-report';
import { formatTokenFloor } from './format-token-floor';
import { resultRow } from './results-json';
import { updateReadme } from './update-readme';

const score = () => {
  const value = emptyRunScore('row', 0.15);
  value.conversations = 1;
  value.turns = 50;
  value.calls = 80;
  value.classes.constraint = { total: 4, survived: 3, recovered: 4 };
  value.latestAskPresent = 80;
  value.tokensSent = 1000;
  value.summarizerTokens = 200;
  value.readBackTokens = 30;
  value.uncachedTokens = 400;
  value.prefixBreaks = 5;
  value.readBackPrefixBreaks = 2;
  return value;
};

describe('the report', () => {
  it('gives every row at every budget its kept/found per class, tokens sent with read-back, cache breaks per 100 turns', () => {
    const row = resultRow(score(), { readsBack: true }, false);
    expect(row.classes.constraint).toEqual({ total: 4, kept: 3, found: 4, keptShare: 0.75, foundShare: 1 });
    expect(row.tokensSent).toEqual({
      model: 1000,
      summarizer: 200,
      readBack: 30,
      total: 1230,
      uncached: 400,
    });
    expect(row.cacheBreaks).toEqual({ total: 5, readBack: 2, per100Turns: 10 });
    expect(row.latestAsk.share).toBe(1);
    expect(row.probes).toBeUndefined();
    expect(resultRow(score(), { readsBack: false }, true).probes?.all.total).toBe(0);
    expect(row.tokenFloorAtBreaks).toBeNull();
    const floored = resultRow(
      score(),
      { readsBack: false },
      false,
      (budget, breaks) => budget * 1000 + breaks,
    );
    expect(floored.tokenFloorAtBreaks).toBe(155);
    expect(
      resultRow(score(), { readsBack: false }, false, () => Number.POSITIVE_INFINITY).tokenFloorAtBreaks,
    ).toBeNull();
  });

  it("puts each row's tokens beside the floor at its own breaks, and leaves out budgets without a floor", () => {
    const tight = { ...score(), budget: 0.05 };
    const text = formatTokenFloor({
      scores: [score(), tight],
      budgets: [0.05, 0.15],
      strategies: ['row'],
      // 5%: no floor at any number of breaks; 15%: one only from 5 breaks on.
      floorAt: (budget, breaks) => (budget === 0.15 && breaks >= 5 ? 1_000 : Number.POSITIVE_INFINITY),
    });
    expect(text).toContain('15%: tokens / floor at its breaks');
    expect(text).not.toContain(' 5%: tokens');
    expect(text).toContain('| row | 1.2 k / 1.0 k (1.23×) |');
    const fewer = formatTokenFloor({
      scores: [score()],
      budgets: [0.15],
      strategies: ['row'],
      floorAt: (_, breaks) => (breaks >= 6 ? 1_000 : Number.POSITIVE_INFINITY),
    });
    expect(fewer).toContain('| row | 1.2 k / none at 5 breaks |');
  });

  it('puts secondary rows in their own table, out of the headline ones', () => {
    const main = score();
    const other = { ...score(), strategy: 'variant' };
    const text = formatReport({
      scores: [main, other],
      budgets: [0.15],
      strategies: ['row', 'variant'],
      readBack: new Set(),
      headline: new Set(['row']),
    });
    const [headline, secondary] = text.split('### Secondary rows');
    expect(headline).toContain('| row |');
    expect(headline).not.toContain('| variant |');
    expect(secondary).toContain('| variant | 15% |');
  });

  it('rewrites only the marked block of a README, and fails without one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quality-readme-'));
    try {
      const file = join(dir, 'README.md');
      writeFileSync(
        file,
        'before\n<!-- quality:default:start -->\nold\n<!-- quality:default:end -->\nafter\n',
      );
      updateReadme({ file, name: 'default', body: 'new tables' });
      expect(readFileSync(file, 'utf8')).toBe(
        'before\n<!-- quality:default:start -->\nnew tables\n<!-- quality:default:end -->\nafter\n',
      );
      expect(() => updateReadme({ file, name: 'full', body: 'x' })).toThrow(/no <!-- quality:full:start -->/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

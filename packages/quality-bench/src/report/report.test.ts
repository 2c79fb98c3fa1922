import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyRunScore } from '../score/run-score';
import { formatReport } from './format-report';
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
  value.prefixBreaks = 5;
  value.readBackPrefixBreaks = 2;
  return value;
};

describe('the report', () => {
  it('gives every row at every budget its kept/found per class, tokens sent with read-back, cache breaks per 100 turns', () => {
    const row = resultRow(score(), { readsBack: true }, false);
    expect(row.classes.constraint).toEqual({ total: 4, kept: 3, found: 4, keptShare: 0.75, foundShare: 1 });
    expect(row.tokensSent).toEqual({ model: 1000, summarizer: 200, readBack: 30, total: 1230 });
    expect(row.cacheBreaks).toEqual({ total: 5, readBack: 2, per100Turns: 10 });
    expect(row.latestAsk.share).toBe(1);
    expect(row.probes).toBeUndefined();
    expect(resultRow(score(), { readsBack: false }, true).probes?.all.total).toBe(0);
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

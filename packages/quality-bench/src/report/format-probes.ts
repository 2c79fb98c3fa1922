import { NEEDLE_KINDS } from '../conversation/conversation';
import { PROBE_TYPES } from '../probes/create-prober';
import { wilsonInterval } from '../probes/wilson-interval';
import { allProbes, type ProbeCount, type RunScore } from '../score/run-score';

/** `k / n = 42% [35–49%]`: a share with its 95% Wilson interval, `—` when nothing was asked. */
export function formatInterval(successes: number, total: number): string {
  if (total === 0) return '—';
  const { share, low, high } = wilsonInterval(successes, total);
  const pct = (value: number) => Math.round(value * 100);
  return `${pct(share)}% [${pct(low)}–${pct(high)}]`;
}

/**
 * The real-model probes as Markdown: per budget, per row, the share of probes answered right (exact
 * match of the needle's answer words) with its 95% Wilson interval, overall, per probe type and per
 * needle class, and the judge's verdicts when there was a judge.
 */
export function formatProbes({
  scores,
  budgets,
  strategies,
}: {
  scores: readonly RunScore[];
  budgets: readonly number[];
  strategies: readonly string[];
}): string {
  const judged = scores.some((score) => allProbes(score).judged > 0);
  const cell = (count: ProbeCount) => formatInterval(count.correct, count.total);
  const sections: string[] = [];
  for (const budget of budgets) {
    const header = [
      'strategy',
      'probes',
      'all: exact match [95% CI]',
      ...(judged ? ['all: judge [95% CI]'] : []),
      ...PROBE_TYPES,
      ...NEEDLE_KINDS,
      'probe calls',
    ];
    const rows: string[] = [];
    for (const strategy of strategies) {
      const score = scores.find((item) => item.strategy === strategy && item.budget === budget);
      if (score === undefined) continue;
      const all = allProbes(score);
      const cells = [
        strategy,
        String(all.total),
        cell(all),
        ...(judged ? [formatInterval(all.judged, all.total)] : []),
        ...PROBE_TYPES.map((type) => cell(score.probeTypes[type])),
        ...NEEDLE_KINDS.map((kind) => cell(score.probes[kind])),
        String(score.probeCalls),
      ];
      rows.push(`| ${cells.join(' | ')} |`);
    }
    const align = header.map((_, index) => (index === 0 ? ':--' : '--:'));
    sections.push(
      [
        `### Probes, budget ${Math.round(budget * 100)}%: answered right from the request (real model)`,
        '',
        `| ${header.join(' | ')} |`,
        `| ${align.join(' | ')} |`,
        ...rows,
      ].join('\n'),
    );
  }
  return sections.join('\n\n');
}

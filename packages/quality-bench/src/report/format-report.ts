import { NEEDLE_KINDS, type NeedleKind } from '../conversation/conversation';
import type { JobResult } from '../run/run-job';
import type { DetectorRates } from '../score/measure-rule-detector';
import { addRunScore, allClasses, type ClassCount, emptyRunScore, type RunScore } from '../score/run-score';
import type { Strategy } from '../strategies/strategy';

/** Column titles of the needle classes. */
export const KIND_TITLES: Record<NeedleKind, string> = {
  'identifier-user': 'ids (user)',
  'identifier-tool': 'ids (tool)',
  decision: 'decisions',
  superseded: 'superseded',
  implicit: 'implicit',
  constraint: 'rules',
};

/** Sums job results per strategy and budget, in the order strategies and budgets are given. */
export function aggregate(
  results: readonly JobResult[],
  strategies: readonly string[],
  budgets: readonly number[],
): RunScore[] {
  const scores: RunScore[] = [];
  for (const budget of budgets) {
    for (const strategy of strategies) {
      const total = emptyRunScore(strategy, budget);
      for (const result of results) {
        if (result.strategy === strategy && result.budget === budget) addRunScore(total, result.score);
      }
      if (total.conversations > 0) scores.push(total);
    }
  }
  return scores;
}

/** `part / whole` as a whole percentage, `—` when there is nothing to count. */
export function percent(part: number, whole: number): string {
  return whole === 0 ? '—' : `${Math.floor((part / whole) * 100 + 1e-9)}%`;
}

/** "kept% / found%" (found only when the strategy can read back what it cut, else just kept%). */
function keptFound(count: ClassCount, hasReadBack: boolean): string {
  const kept = percent(count.survived, count.total);
  return hasReadBack ? `${kept} / ${percent(count.recovered, count.total)}` : kept;
}

/** A Markdown table: the first `left` columns aligned left, the rest right. */
export function table(header: string[], rows: string[][], left = 1): string {
  const align = header.map((_, index) => (index < left ? ':--' : '--:'));
  return [header, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** A token count as `1.23 M`, `4.5 k` or a whole number. */
export function compact(value: number): string {
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)} M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(1)} k`;
  return String(Math.round(value));
}

/** The columns of a detailed table, after the strategy (and budget) columns. */
const DETAIL_COLUMNS = [
  'latest ask',
  'turn in progress intact',
  ...NEEDLE_KINDS.map((kind) => KIND_TITLES[kind]),
  'superseded: latest right',
  'rules after attack',
  'all needles',
  'tokens sent (model + summarizer + read-back)',
  'of which uncached',
  'summarizer calls',
  'read-back calls',
  'cache breaks / 100 turns',
  'failed calls',
  'wall s',
  'CPU s',
];

/** The cells of {@link DETAIL_COLUMNS} for one score. */
function detailCells(score: RunScore, hasReadBack: boolean): string[] {
  return [
    percent(score.latestAskPresent, score.calls),
    percent(score.currentTurnIntact, score.calls),
    ...NEEDLE_KINDS.map((kind) => keptFound(score.classes[kind], hasReadBack)),
    percent(score.supersededCorrect, score.classes.superseded.total),
    keptFound(score.attackedConstraints, hasReadBack),
    keptFound(allClasses(score), hasReadBack),
    compact(score.tokensSent + score.summarizerTokens + score.readBackTokens),
    compact(score.uncachedTokens),
    String(score.summarizerCalls),
    hasReadBack ? String(score.readBackCalls) : '—',
    ((score.prefixBreaks / score.turns) * 100).toFixed(1),
    String(score.failedCalls),
    (score.wallMs / 1000).toFixed(1),
    (score.cpuMs / 1000).toFixed(1),
  ];
}

/** Options of {@link formatReport}. */
export interface FormatReportOptions {
  scores: readonly RunScore[];
  budgets: readonly number[];
  /** Every row, in table order. */
  strategies: readonly string[];
  /** Strategies that have a read-back mechanism (their "found" column is shown). */
  readBack: ReadonlySet<string>;
  /**
   * The rows of the headline tables; the others go to one secondary table.
   * @default every row
   */
  headline?: ReadonlySet<string>;
}

/**
 * The report as Markdown: an overview across budgets and one detailed table per budget (every
 * needle class, cost and cache behaviour) for the headline rows, then one table of the secondary
 * rows (variants, and configurations their own docs advise against for long sessions).
 */
export function formatReport({
  scores,
  budgets,
  strategies,
  readBack,
  headline = new Set(strategies),
}: FormatReportOptions): string {
  const find = (strategy: string, budget: number) =>
    scores.find((score) => score.strategy === strategy && score.budget === budget);
  const main = strategies.filter((strategy) => headline.has(strategy));
  const secondary = strategies.filter((strategy) => !headline.has(strategy));
  const sections: string[] = [];

  const overviewHeader = ['strategy'];
  for (const budget of budgets) {
    const share = `${Math.round(budget * 100)}%`;
    overviewHeader.push(
      `${share}: needles kept / found`,
      `${share}: rules after attack`,
      `${share}: latest ask`,
    );
  }
  const overviewRows = main.map((strategy) => {
    const row = [strategy];
    for (const budget of budgets) {
      const score = find(strategy, budget);
      if (score === undefined) {
        row.push('—', '—', '—');
        continue;
      }
      row.push(
        keptFound(allClasses(score), readBack.has(strategy)),
        keptFound(score.attackedConstraints, readBack.has(strategy)),
        percent(score.latestAskPresent, score.calls),
      );
    }
    return row;
  });
  if (main.length > 0) sections.push(`### Overview\n\n${table(overviewHeader, overviewRows)}`);

  for (const budget of budgets) {
    const rows: string[][] = [];
    for (const strategy of main) {
      const score = find(strategy, budget);
      if (score !== undefined) rows.push([strategy, ...detailCells(score, readBack.has(strategy))]);
    }
    if (rows.length > 0) {
      sections.push(
        `### Budget ${Math.round(budget * 100)}% of the conversation\n\n${table(['strategy', ...DETAIL_COLUMNS], rows)}`,
      );
    }
  }

  const secondaryRows: string[][] = [];
  for (const strategy of secondary) {
    for (const budget of budgets) {
      const score = find(strategy, budget);
      if (score !== undefined) {
        secondaryRows.push([
          strategy,
          `${Math.round(budget * 100)}%`,
          ...detailCells(score, readBack.has(strategy)),
        ]);
      }
    }
  }
  if (secondaryRows.length > 0) {
    sections.push(
      `### Secondary rows (variants, and setups their docs advise against for long sessions)\n\n${table(['strategy', 'budget', ...DETAIL_COLUMNS], secondaryRows)}`,
    );
  }
  return sections.join('\n\n');
}

/** The rule detector's catch and false-pin rates, as Markdown. */
export function formatDetector(rates: DetectorRates): string {
  const line = (label: string, rate: DetectorRates['catchRate']) =>
    `| ${label} | ${rate.count} / ${rate.total} | ${rate.total === 0 ? '—' : `${(rate.rate * 100).toFixed(1)}%`} |`;
  return [
    `### The rule detector (\`detectRules\` of @spillway/core) on the ${rates.split} phrasings`,
    '',
    '| measure | count | rate |',
    '| :-- | --: | --: |',
    line('catch rate: rule phrasings pinned (each alone)', rates.catchRate),
    line('catch rate: planted rules pinned in their message', rates.catchRateInConversation),
    line('false-pin rate: ordinary sentences of the generated text pinned', rates.falsePinRate),
    line('false-pin rate: the ordinary-sentence list alone (hard cases) pinned', rates.falsePinRateOrdinary),
  ].join('\n');
}

/** The rows a run compares, with their table and configuration, as Markdown (`--list`). */
export function formatStrategies(strategies: readonly Strategy[]): string {
  return table(
    ['row', 'table', 'read-back', 'configuration'],
    strategies.map((strategy) => [
      strategy.name,
      strategy.headline === false ? 'secondary' : 'headline',
      strategy.readsBack ? 'yes' : '—',
      strategy.configuration ?? '',
    ]),
    4,
  );
}

import type { RunScore } from '../score/run-score';
import { compact, table } from './format-report';

/** Options of {@link formatTokenFloor}. */
export interface FormatTokenFloorOptions {
  scores: readonly RunScore[];
  budgets: readonly number[];
  /** The rows to show, in table order. */
  strategies: readonly string[];
  /** The suite's token floor at a budget with at most `breaks` prefix breaks (see `suiteTokenFloor`). */
  floorAt: (budget: number, breaks: number) => number;
}

/**
 * Each row's tokens sent beside the token floor at its own number of prefix breaks: the fewest
 * tokens any strategy that keeps every word of the dialogue could have sent breaking the prefix no
 * more often (see `tokenFloors`), and the ratio. Tokens and breaks pull against each other; the
 * floor puts a row's tokens on the scale of its breaks.
 */
export function formatTokenFloor({ scores, budgets, strategies, floorAt }: FormatTokenFloorOptions): string {
  const shown = budgets.filter((budget) => Number.isFinite(floorAt(budget, Number.MAX_SAFE_INTEGER)));
  if (shown.length === 0) return '';
  const header = [
    'strategy',
    ...shown.map((budget) => `${Math.round(budget * 100)}%: tokens / floor at its breaks`),
  ];
  const rows = strategies.map((strategy) => [
    strategy,
    ...shown.map((budget) => {
      const score = scores.find((each) => each.strategy === strategy && each.budget === budget);
      if (score === undefined) return '—';
      const tokens = score.tokensSent + score.summarizerTokens + score.readBackTokens;
      const floor = floorAt(budget, score.prefixBreaks);
      if (!Number.isFinite(floor)) return `${compact(tokens)} / none at ${score.prefixBreaks} breaks`;
      return `${compact(tokens)} / ${compact(floor)} (${(tokens / floor).toFixed(2)}×)`;
    }),
  ]);
  return [
    '### Tokens sent against the floor at the same cache breaks',
    '',
    'The floor: the fewest tokens any strategy that keeps every word of the dialogue (user, assistant, tool calls) verbatim could send in the model calls with no more prefix breaks than the row made, no request over the window. A bound, not a strategy: it knows where each conversation goes and places each break where it saves most, and a break clears all tool output before it to nothing. Under 1.00×, a row sent fewer tokens than keeping the dialogue allows at its breaks: it cut words of the dialogue. "None": at so few breaks no dialogue-keeping strategy fits the window. Budgets where the dialogue alone outgrows the window are left out.',
    '',
    table(header, rows),
  ].join('\n');
}

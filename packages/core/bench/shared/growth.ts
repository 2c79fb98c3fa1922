import { printTable, verdict } from './measure.ts';

/** A measured row: its message count, the `JSON.parse` anchor, and the cases' times. */
export interface GrowthRow {
  size: number;
  parse: number;
}

/** One growth goal, as the benchmarks print it. */
export interface Goal {
  name: string;
  measured: string;
  passed: boolean;
}

/** The sizes whose per-message cost is compared with the one at {@link GROWTH_BASE}. */
export const GROWTH_SIZES = [10_000, 50_000] as const;
/** The message count growth is measured from. */
export const GROWTH_BASE = 500;

/**
 * Linear growth: for each case and each of {@link GROWTH_SIZES} measured, the per-message cost at
 * that size over the per-message cost at 500 messages, at most `goal`. Beside it, the same growth
 * of `JSON.parse` measured in the same run (what the machine's memory makes of a larger heap).
 */
export function growthGoals<Row extends GrowthRow>(
  rows: readonly Row[],
  { cases, goal }: { cases: Partial<Record<keyof Row & string, string>>; goal: number },
): Goal[] {
  const base = rows.find((row) => row.size === GROWTH_BASE);
  if (base === undefined) return [];
  const goals: Goal[] = [];
  for (const size of GROWTH_SIZES) {
    const row = rows.find((candidate) => candidate.size === size);
    if (row === undefined) continue;
    const anchor = row.parse / row.size / (base.parse / base.size);
    for (const [kind, label] of Object.entries(cases) as [keyof Row & string, string][]) {
      const growth = (row[kind] as number) / row.size / ((base[kind] as number) / base.size);
      goals.push({
        name: `${label}: per-message cost at ${size.toLocaleString('en-US')} ≤ ${goal}× the cost at ${GROWTH_BASE}`,
        measured: `${growth.toFixed(2)}× (JSON.parse ${anchor.toFixed(2)}×)`,
        passed: growth <= goal,
      });
    }
  }
  return goals;
}

/** The medians of one size as three times: wall-clock, CPU, and wall-clock less collector pauses. */
export interface Timings<Row> {
  wall: Row;
  cpu: Row;
  /** Wall-clock less the collector's pauses that landed in the call (see `observeCollectorPauses`). */
  own: Row;
}

/**
 * Prints the goals measured three ways, one column and verdict each: wall-clock, CPU time (the
 * goals' measure), and wall-clock less the collector's pauses that landed in the call (what the
 * call's own code cost; a collection of the freshly parsed request lands on whatever allocates
 * next).
 */
export function printGoals<Row>(measured: readonly Timings<Row>[], goals: (rows: Row[]) => Goal[]): void {
  const wall = goals(measured.map(({ wall }) => wall));
  const cpu = goals(measured.map(({ cpu }) => cpu));
  const own = goals(measured.map(({ own }) => own));
  printTable([
    ['goal', 'wall-clock', 'verdict', 'CPU time', 'verdict', 'less collector pauses', 'verdict'],
    ...cpu.map((goal, index) => [
      goal.name,
      wall[index]!.measured,
      verdict(wall[index]!.passed),
      goal.measured,
      verdict(goal.passed),
      own[index]!.measured,
      verdict(own[index]!.passed),
    ]),
  ]);
}

import { ACTION_ORDER, type CompactionAction } from './compaction-action';

/**
 * Tokens saved by each step, calibrated: the measured ones as they are, and what is left of the
 * total for the summary (applied or made now).
 */
export function stepSavings(
  actions: ReadonlySet<CompactionAction>,
  raw: Partial<Record<CompactionAction, number>>,
  { factor, total }: { factor: number; total: number },
): Partial<Record<CompactionAction, number>> {
  const savings: Partial<Record<CompactionAction, number>> = {};
  let measured = 0;
  for (const action of ACTION_ORDER) {
    const value = raw[action];
    if (value === undefined || !actions.has(action)) continue;
    savings[action] = Math.round(value * factor);
    measured += savings[action]!;
  }
  const summary = actions.has('summarize')
    ? 'summarize'
    : actions.has('apply-summary')
      ? 'apply-summary'
      : undefined;
  if (summary !== undefined) savings[summary] = Math.round(total - measured);
  return savings;
}

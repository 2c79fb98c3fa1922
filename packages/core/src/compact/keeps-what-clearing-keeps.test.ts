import { describe, expect, it } from 'vitest';
import {
  FACT_KINDS,
  type FactKind,
  keptShare,
  lossySummarizer as lossy,
  runOperationsSession,
} from '../../test/operations-runs';
import { extractiveSummarizer } from '../summarize/extractive-summarizer';
import type { Summarizer } from '../summarize/summarizer';

/**
 * Issue 21's promise, on a generator the quality bench does not use (`operationsSession`: long
 * user messages, facts said once in passing, standing instructions phrased freely): no compaction
 * keeps less of what the user said than the naive baseline — every tool result older than the
 * latest user message replaced by a stub, all text kept, the oldest whole turns dropped while the
 * request is over the window. Checked at every tenth turn, on the request the model receives
 * (`runOperationsSession`; `pnpm --filter @spillway/core bench:second-generator` prints the same for
 * any seeds and windows).
 */
async function keptShares(
  strategy: 'spillway' | 'naive',
  setup: { seed: number; share: number; summarizer: Summarizer },
): Promise<Record<FactKind, number>> {
  const run = await runOperationsSession({ strategy, ...setup });
  expect(run.turnsOverWindow).toBe(0);
  return Object.fromEntries(FACT_KINDS.map((kind) => [kind, keptShare(run, kind)])) as Record<
    FactKind,
    number
  >;
}

describe('every class of fact the user said, at least as much as clearing old tool output keeps', () => {
  it.each([
    { seed: 1, share: 0.05, summarizer: extractiveSummarizer, name: 'extractive' },
    { seed: 2, share: 0.05, summarizer: lossy, name: 'lossy' },
    { seed: 3, share: 0.15, summarizer: lossy, name: 'lossy' },
  ])(
    'seed $seed, window $share of the session, $name summarizer',
    async (setup) => {
      const spillway = await keptShares('spillway', setup);
      const naive = await keptShares('naive', setup);
      for (const kind of ['user-id', 'path', 'decision', 'rule'] as const) {
        expect(
          spillway[kind],
          `${kind}: Spillway ${spillway[kind]} vs naive ${naive[kind]}`,
        ).toBeGreaterThanOrEqual(naive[kind]);
      }
      // What the baseline clears and Spillway keeps a line of.
      expect(spillway['tool-id']).toBeGreaterThan(0.5);
      expect(naive['tool-id']).toBe(0);
    },
    60_000,
  );
});

describe("the user's identifiers across summaries of summaries", () => {
  it('keeps every id and path the user gave at 5% with the extractive summarizer (seed 5)', async () => {
    // Each new summary merges the previous one, which the extractive digest cuts in the middle to
    // fit: the identifier audit checks the merged summary against what the previous one stood for
    // (before: 94% of ids and paths, the oldest lost once the second merge cut them).
    const kept = await keptShares('spillway', { seed: 5, share: 0.05, summarizer: extractiveSummarizer });
    expect(kept['user-id']).toBe(1);
    expect(kept.path).toBe(1);
  }, 60_000);
});

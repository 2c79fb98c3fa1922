import type { ModelMessage } from 'ai';
import type { Needle } from '../conversation/conversation';
import { type BenchRequest, requestText } from '../request/bench-request';
import type { ReadBack, ReadBackCall } from '../strategies/strategy';
import {
  allPresent,
  expectationAt,
  latestValueCorrect,
  type NeedleExpectation,
  readBackCorrect,
} from './needle-checks';
import type { RunScore } from './run-score';

/** The tool calls a read-back may make per needle. */
export const MAX_READ_BACK_CALLS = 2;

/** Options of {@link scoreCheckpoint}. */
export interface ScoreCheckpointOptions {
  /** The request the model answered at the checkpoint; undefined when the call failed. */
  request: BenchRequest | undefined;
  needles: readonly Needle[];
  /** The turn of the checkpoint: needles planted in earlier turns are checked. */
  turn: number;
  /** The strategy's read-back mechanism, when it has one. */
  readBack?: ReadBack;
  /** The conversation so far, as the application holds it (handed to the read-back). */
  history: readonly ModelMessage[];
}

/** The verdict on one needle at one checkpoint. */
export interface NeedleResult {
  expectation: NeedleExpectation;
  /** Its value(s) are in the request verbatim. */
  present: boolean;
  /**
   * Present, or found by the strategy's read-back within {@link MAX_READ_BACK_CALLS} calls (for a
   * superseded setting: the latest value, with no earlier one returned unmarked beside it).
   */
  recovered: boolean;
  /** For a superseded setting: the latest value is present and read last. */
  correct: boolean;
  /** The read-back calls made (empty when present or when there is no read-back). */
  calls: ReadBackCall[];
}

/**
 * Checks every needle planted before `turn` against the request: present verbatim; if not, whether
 * the strategy's read-back, asked the needle's question, finds it within two tool calls (the value
 * appears in what the calls returned; for a superseded setting, without an earlier value returned
 * unmarked beside it: see `readBackCorrect`). A failed call (no request) finds nothing.
 */
export async function scoreCheckpoint({
  request,
  needles,
  turn,
  readBack,
  history,
}: ScoreCheckpointOptions): Promise<NeedleResult[]> {
  const text = request === undefined ? '' : requestText(request);
  const results: NeedleResult[] = [];
  for (const needle of needles) {
    const expectation = expectationAt(needle, turn);
    if (expectation === undefined) continue;
    const present = request !== undefined && allPresent(text, expectation.values);
    let calls: ReadBackCall[] = [];
    if (!present && request !== undefined && readBack !== undefined) {
      calls = (
        await readBack({
          request,
          history,
          question: { text: needle.question },
          maxCalls: MAX_READ_BACK_CALLS,
        })
      ).slice(0, MAX_READ_BACK_CALLS);
    }
    const found = calls.map((call) => call.output).join('\n');
    results.push({
      expectation,
      present,
      recovered:
        present || (calls.length > 0 && readBackCorrect(found, expectation.values, expectation.stale)),
      correct: request !== undefined && latestValueCorrect(text, expectation.values, expectation.stale),
      calls,
    });
  }
  return results;
}

/** Adds a checkpoint's verdicts to a score. */
export function addCheckpoint(score: RunScore, results: readonly NeedleResult[]): void {
  for (const result of results) {
    const { needle, attacked } = result.expectation;
    const counts = score.classes[needle.kind];
    counts.total++;
    if (result.present) counts.survived++;
    if (result.recovered) counts.recovered++;
    if (needle.kind === 'superseded' && result.correct) score.supersededCorrect++;
    if (needle.kind === 'constraint' && attacked) {
      score.attackedConstraints.total++;
      if (result.present) score.attackedConstraints.survived++;
      if (result.recovered) score.attackedConstraints.recovered++;
    }
  }
}

import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Estimator } from '../estimate/estimator';
import type { Message, ToolResultPart } from '../message/message';
import type { RecallMarks } from '../recall/recall-marks';
import { headTailPreview } from './head-tail-preview';
import { isCharacterLimit } from './is-character-limit';
import { limitToolResultText } from './limit-tool-result-text';
import { replaceParts } from './replace-parts';
import { toolResultTextLength } from './tool-result-text-length';
import type { TruncationRecord } from './truncation-record';
import type { TruncationResult } from './truncation-result';

/** Options of {@link reduceToolResults}. */
export interface ReduceToolResultsOptions {
  /** Counts the conversation (`createEstimator()`); `countMessage` is used incrementally. */
  estimator: Estimator;
  /**
   * Stop as soon as `estimator.countMessages(messages)` is at or below this. In the estimator's raw
   * (uncalibrated) units: divide a calibrated budget by `estimator.calibrationFactor(model)` first.
   */
  targetTokens: number;
  /**
   * Only results with more text characters than this are reduced; smaller ones are never touched.
   * Twice `keepChars` by default, so every reduction at least halves a result.
   * @default 4_000
   */
  minChars?: number;
  /**
   * Text characters a reduced result keeps, head and tail together, marker included
   * (`\n\n... [truncated: {removed} chars removed] ...\n\n`). Text parts of one result share it.
   * @default 2_000
   */
  keepChars?: number;
  /**
   * Share of `keepChars` that goes to the head (the rest to the tail).
   * @default 0.5
   */
  headRatio?: number;
  /**
   * Only results in messages with an index below this are reduced, e.g. to keep the protected recent
   * window verbatim. By default every result may be reduced, the newest last.
   * @default Infinity
   */
  before?: number;
  /**
   * Writes a reference to the original next to each cut (`[ref=t.… offset=…]`).
   * @default undefined (markers without references)
   */
  marks?: RecallMarks;
  /**
   * Only results it accepts are reduced (e.g. to leave a page the model read back whole).
   * @default every result
   */
  only?: (result: ToolResultPart) => boolean;
  /**
   * Whether a reduced result ends with the identifiers its cut part mentioned
   * (`\n(the cut part mentioned …)`, within `keepChars`; see `headTailPreview`), as a stub lists
   * its result's. The compaction engine turns it on.
   * @default false
   */
  mentions?: boolean;
}

/** What {@link reduceToolResults} returns. */
export interface ReduceToolResultsResult extends TruncationResult {
  /** `estimator.countMessages` of the returned messages (raw units), kept up to date step by step. */
  tokenCount: number;
}

/**
 * Graceful request-time reduction (seed Strands #1545). When the conversation is over
 * `targetTokens`, walks the tool results **oldest first** and turns each result larger than
 * `minChars` into head + tail (`keepChars` in all, with the
 * `\n\n... [truncated: {removed} chars removed] ...\n\n` marker in the middle), and stops as soon as
 * the conversation fits. The most recent results (the ones the model is acting on) are touched
 * last; small results are never touched.
 *
 * The count is kept incrementally: one `countMessages` at the start, then per reduced result the
 * old message's count is subtracted and the new one's added. A shortened result keeps its
 * `isError` exactly as it was (present or absent): truncation is not a failure. Unchanged messages
 * are returned as the same objects; the input is never mutated. When every eligible result has been
 * reduced and the conversation still does not fit, the result says so through `tokenCount`.
 *
 * @throws {InvalidConfigError} on a missing estimator or invalid numbers.
 */
export function reduceToolResults(
  messages: readonly Message[],
  {
    estimator,
    targetTokens,
    minChars = 4_000,
    keepChars = 2_000,
    headRatio = 0.5,
    before = Number.POSITIVE_INFINITY,
    marks,
    only,
    mentions = false,
  }: ReduceToolResultsOptions,
): ReduceToolResultsResult {
  if (
    estimator == null ||
    typeof estimator.countMessages !== 'function' ||
    typeof estimator.countMessage !== 'function'
  ) {
    throw new InvalidConfigError({ option: 'estimator', value: estimator, message: 'expected an Estimator' });
  }
  if (typeof targetTokens !== 'number' || Number.isNaN(targetTokens)) {
    throw new InvalidConfigError({
      option: 'targetTokens',
      value: targetTokens,
      message: 'expected a number',
    });
  }
  if (!isCharacterLimit(minChars)) {
    throw new InvalidConfigError({
      option: 'minChars',
      value: minChars,
      message: 'expected a non-negative integer',
    });
  }
  if (!isCharacterLimit(keepChars)) {
    throw new InvalidConfigError({
      option: 'keepChars',
      value: keepChars,
      message: 'expected a non-negative integer',
    });
  }
  if (typeof headRatio !== 'number' || !(headRatio >= 0 && headRatio <= 1)) {
    throw new InvalidConfigError({
      option: 'headRatio',
      value: headRatio,
      message: 'expected a number from 0 to 1',
    });
  }
  if (typeof before !== 'number' || Number.isNaN(before)) {
    throw new InvalidConfigError({ option: 'before', value: before, message: 'expected a message index' });
  }

  const output = messages.slice();
  const records: TruncationRecord[] = [];
  let tokenCount = estimator.countMessages(messages);
  const end = Math.min(before, messages.length);

  for (let messageIndex = 0; messageIndex < end && tokenCount > targetTokens; messageIndex++) {
    const content = messages[messageIndex]?.content;
    if (!Array.isArray(content)) continue;
    for (let partIndex = 0; partIndex < content.length && tokenCount > targetTokens; partIndex++) {
      const part = content[partIndex];
      if (part?.type !== 'tool-result' || (only !== undefined && !only(part))) continue;
      const charsBefore = toolResultTextLength(part);
      if (charsBefore <= minChars) continue;
      const reduced = limitToolResultText(part, keepChars, (text, chars, textIndex) => {
        const ref = marks?.toolResult(part, textIndex);
        return headTailPreview(text, { maxChars: chars, headRatio, ref, mentions });
      });
      if (reduced === part) continue;
      const current = output[messageIndex]!;
      const next = replaceParts(current, new Map([[partIndex, reduced]]));
      tokenCount += estimator.countMessage(next) - estimator.countMessage(current);
      output[messageIndex] = next;
      records.push({
        kind: 'tool-result',
        messageIndex,
        toolName: part.toolName,
        toolCallId: part.toolCallId,
        charsBefore,
        charsAfter: toolResultTextLength(reduced),
      });
    }
  }
  return { messages: output, records, tokenCount };
}

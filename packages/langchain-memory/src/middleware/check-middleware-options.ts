import {
  BACKGROUND_THRESHOLD_RATIO,
  COMPACT_THRESHOLD_RATIO,
  type CompactionThresholds,
  EMERGENCY_THRESHOLD_RATIO,
  InvalidConfigError,
} from '@spillway/core';
import {
  checkContextWindow,
  checkContextWindows,
  checkFunction,
  checkMethods,
  checkName,
  checkWholeNumber,
} from '../options/option-checks';
import type { CompactionMiddlewareOptions } from './compaction-middleware-options';
import { tokenLimitRatio } from './token-limit';

/**
 * Checks the middleware's own options when it is created, each with an `InvalidConfigError` naming
 * the option and the accepted range. The engine's options (`thresholds`, `protectedRatio`,
 * `summaryPlacement`, …) are checked by `createCompactor` when the first compactor is made, also at
 * creation; `trigger` and `keep` in tokens are checked against the window once it is known.
 *
 * @throws {InvalidConfigError} naming the first bad option.
 */
export function checkMiddlewareOptions(options: CompactionMiddlewareOptions): void {
  checkContextWindow('contextWindow', options.contextWindow);
  checkContextWindows('contextWindows', options.contextWindows);
  checkWholeNumber('maxOverflowRetries', options.maxOverflowRetries, 0);
  if (options.strategy !== undefined && options.strategy !== 'local' && options.strategy !== 'provider') {
    throw new InvalidConfigError({
      option: 'strategy',
      value: options.strategy,
      message: "must be 'local' or 'provider'",
    });
  }
  checkFunction('summarizer', options.summarizer, '(input) => summary');
  checkFunction('onEvent', options.onEvent, '(event) => void');
  checkFunction('waitUntil', options.waitUntil, '(promise) => void');
  checkName('summaryPrompt', options.summaryPrompt);
  checkMethods('store', options.store, ['get', 'set', 'delete'], 'a CompactionStore');
  checkMethods(
    'estimator',
    options.estimator,
    ['countMessages', 'countText', 'calibrated', 'calibrate'],
    'an Estimator (createEstimator())',
  );
  // Shapes and fractions now; token counts once the window is known.
  tokenLimitRatio('trigger', options.trigger, undefined);
  tokenLimitRatio('keep', options.keep, undefined);
}

/** The thresholds and kept share a window resolves `trigger` and `keep` to. */
export interface ResolvedLimits {
  thresholds: CompactionThresholds;
  protectedRatio: number | undefined;
}

/**
 * `trigger` and `keep` as the engine's `thresholds.compact` and `protectedRatio` for `window`:
 * `trigger` sets the compact threshold (background and emergency move with it to stay in order);
 * `keep` must stay below it, or nothing could ever be compacted.
 *
 * @throws {InvalidConfigError} naming `trigger.*` or `keep.*` (not the engine's names the user did
 * not write) when a limit is malformed or `keep` is not below the trigger.
 */
export function resolveLimits({
  trigger,
  keep,
  thresholds = {},
  protectedRatio,
  window,
}: Pick<CompactionMiddlewareOptions, 'trigger' | 'keep' | 'thresholds' | 'protectedRatio'> & {
  window: number | undefined;
}): ResolvedLimits {
  const compactRatio = tokenLimitRatio('trigger', trigger, window);
  const keepRatio = tokenLimitRatio('keep', keep, window);
  const resolved: CompactionThresholds = { ...thresholds };
  if (compactRatio !== undefined) {
    resolved.compact = compactRatio;
    if ((resolved.background ?? BACKGROUND_THRESHOLD_RATIO) > compactRatio)
      resolved.background = compactRatio;
    if ((resolved.emergency ?? EMERGENCY_THRESHOLD_RATIO) < compactRatio) resolved.emergency = compactRatio;
  }
  const compact = resolved.compact ?? COMPACT_THRESHOLD_RATIO;
  if (keepRatio !== undefined && keep !== undefined && keepRatio >= compact) {
    const option = keep.fraction === undefined ? 'keep.tokens' : 'keep.fraction';
    throw new InvalidConfigError({
      option,
      value: keep.fraction ?? keep.tokens,
      message: `must keep less than the compact trigger: below ${compact} of the window${
        window === undefined ? '' : ` (${Math.floor(window * compact)} tokens of ${window})`
      }, or nothing could ever be compacted`,
    });
  }
  return { thresholds: resolved, protectedRatio: keepRatio ?? protectedRatio };
}

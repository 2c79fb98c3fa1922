import { checkTokenCount } from '../errors/check-token-count';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { createEstimator } from '../estimate/create-estimator';
import { DEFAULT_RECALL_SECRET } from '../recall/recall-scope';
import { PROTECTED_WINDOW_RATIO } from '../split/split-messages';
import { resolveStructureOptions } from '../structure/structure-options';
import { extractiveSummarizer } from '../summarize/extractive-summarizer';
import { SUMMARY_MAX_TOKENS } from '../summarize/summarize';
import { TOOL_RESULT_MAX_CHARS } from '../truncate/truncate-tool-result';
import type { CompactionEventHandler } from './compaction-event';
import type { CompactionOptions, ResolvedCompactionOptions } from './compaction-options';
import { BACKGROUND_THRESHOLD_RATIO, COMPACT_THRESHOLD_RATIO, EMERGENCY_THRESHOLD_RATIO } from './thresholds';

/**
 * Fills in defaults and checks every option.
 * @throws {InvalidConfigError} naming the first bad option.
 */
export function resolveCompactionOptions({
  contextWindow,
  provider,
  model,
  thresholds = {},
  protectedRatio = PROTECTED_WINDOW_RATIO,
  summarizer = extractiveSummarizer,
  summarizerMaxInputTokens,
  summaryMode = 'cumulative',
  summaryPlacement = 'system',
  summaryPrompt,
  summaryMaxTokens = SUMMARY_MAX_TOKENS,
  summaryTimeouts = {},
  onMemory,
  auditIdentifiers = true,
  toolResultMaxChars = TOOL_RESULT_MAX_CHARS,
  toolResultLimits = {},
  toolResultReduction = {},
  toolResultMedia = 'placeholder',
  imagePlaceholders = true,
  supersedeToolResults = true,
  collapseExchanges = false,
  clusterToolResults = true,
  estimator = createEstimator(),
  onEvent,
  recall = {},
  pinnedRules = {},
  pin,
}: CompactionOptions): ResolvedCompactionOptions {
  if (contextWindow !== undefined) checkTokenCount('contextWindow', contextWindow);
  if (provider !== undefined && typeof provider !== 'string') {
    throw new InvalidConfigError({ option: 'provider', value: provider, message: 'must be a string' });
  }
  if (model !== undefined && typeof model !== 'string') {
    throw new InvalidConfigError({ option: 'model', value: model, message: 'must be a model id (a string)' });
  }
  const {
    background = BACKGROUND_THRESHOLD_RATIO,
    compact = COMPACT_THRESHOLD_RATIO,
    emergency = EMERGENCY_THRESHOLD_RATIO,
  } = thresholds;
  share('thresholds.background', background);
  share('thresholds.compact', compact);
  share('thresholds.emergency', emergency);
  if (!(background <= compact && compact <= emergency)) {
    throw new InvalidConfigError({
      option: 'thresholds',
      value: thresholds,
      message: `must satisfy background <= compact <= emergency (got ${background}, ${compact}, ${emergency})`,
    });
  }
  share('protectedRatio', protectedRatio);
  if (protectedRatio >= compact) {
    throw new InvalidConfigError({
      option: 'protectedRatio',
      value: protectedRatio,
      message: `must be below thresholds.compact (${compact}), or nothing could ever be compacted`,
    });
  }
  if (typeof summarizer !== 'function') {
    throw new InvalidConfigError({ option: 'summarizer', value: summarizer, message: 'must be a function' });
  }
  if (summarizerMaxInputTokens !== undefined) positive('summarizerMaxInputTokens', summarizerMaxInputTokens);
  if (summaryMode !== 'cumulative' && summaryMode !== 'stack') {
    throw new InvalidConfigError({
      option: 'summaryMode',
      value: summaryMode,
      message: "must be 'cumulative' or 'stack'",
    });
  }
  if (summaryPlacement !== 'system' && summaryPlacement !== 'user') {
    throw new InvalidConfigError({
      option: 'summaryPlacement',
      value: summaryPlacement,
      message: "must be 'system' or 'user'",
    });
  }
  checkTokenCount('summaryMaxTokens', summaryMaxTokens);
  if (typeof summaryTimeouts !== 'object' || summaryTimeouts === null) {
    throw new InvalidConfigError({
      option: 'summaryTimeouts',
      value: summaryTimeouts,
      message: 'must be an object { foreground?, background? } of milliseconds',
    });
  }
  const { foreground = 15_000, background: backgroundTimeout = 120_000 } = summaryTimeouts;
  positive('summaryTimeouts.foreground', foreground);
  positive('summaryTimeouts.background', backgroundTimeout);
  if (toolResultMedia !== 'placeholder' && toolResultMedia !== 'keep') {
    throw new InvalidConfigError({
      option: 'toolResultMedia',
      value: toolResultMedia,
      message: "must be 'placeholder' or 'keep'",
    });
  }
  positive('toolResultMaxChars', toolResultMaxChars);
  for (const [toolName, limit] of Object.entries(toolResultLimits))
    positive(`toolResultLimits.${toolName}`, limit);
  let reduction: ResolvedCompactionOptions['toolResultReduction'] = false;
  if (toolResultReduction !== false) {
    if (typeof toolResultReduction !== 'object' || toolResultReduction === null) {
      throw new InvalidConfigError({
        option: 'toolResultReduction',
        value: toolResultReduction,
        message: 'must be { minChars?, keepChars? } or false',
      });
    }
    const { minChars, keepChars } = toolResultReduction;
    if (minChars !== undefined) positive('toolResultReduction.minChars', minChars);
    if (keepChars !== undefined) positive('toolResultReduction.keepChars', keepChars);
    reduction = {
      ...(minChars === undefined ? {} : { minChars }),
      ...(keepChars === undefined ? {} : { keepChars }),
    };
  }
  let resolvedRecall: ResolvedCompactionOptions['recall'] = false;
  if (recall !== false) {
    if (typeof recall !== 'object' || recall === null) {
      throw new InvalidConfigError({
        option: 'recall',
        value: recall,
        message: 'must be { secret? } or false',
      });
    }
    const { secret = DEFAULT_RECALL_SECRET } = recall;
    if (typeof secret !== 'string' || secret.length === 0) {
      throw new InvalidConfigError({
        option: 'recall.secret',
        value: secret,
        message: 'must be a non-empty string',
      });
    }
    resolvedRecall = { secret };
  }
  let resolvedPinned: ResolvedCompactionOptions['pinnedRules'] = false;
  if (pinnedRules !== false) {
    if (typeof pinnedRules !== 'object' || pinnedRules === null) {
      throw new InvalidConfigError({
        option: 'pinnedRules',
        value: pinnedRules,
        message: 'must be { detect?, maxTokens? } or false',
      });
    }
    const { detect = true, maxTokens } = pinnedRules;
    if (typeof detect !== 'boolean') {
      throw new InvalidConfigError({
        option: 'pinnedRules.detect',
        value: detect,
        message: 'must be a boolean',
      });
    }
    if (maxTokens !== undefined) checkTokenCount('pinnedRules.maxTokens', maxTokens);
    resolvedPinned = { detect, maxTokens };
  }
  if (pin !== undefined && typeof pin !== 'function') {
    throw new InvalidConfigError({
      option: 'pin',
      value: pin,
      message: 'must be a function (message) => boolean | undefined',
    });
  }
  return {
    earlySteps: true,
    contextWindow,
    provider,
    model,
    thresholds: { background, compact, emergency },
    protectedRatio,
    summarizer,
    summarizerMaxInputTokens,
    summaryMode,
    summaryPlacement,
    summaryPrompt,
    summaryMaxTokens,
    summaryTimeouts: { foreground, background: backgroundTimeout },
    onMemory,
    auditIdentifiers,
    toolResultMaxChars,
    toolResultLimits,
    toolResultReduction: reduction,
    toolResultMedia,
    imagePlaceholders,
    structure: resolveStructureOptions({ supersedeToolResults, collapseExchanges, clusterToolResults }),
    estimator,
    onEvent: safeHandler(onEvent),
    recall: resolvedRecall,
    pinnedRules: resolvedPinned,
    pin,
  };
}

function positive(option: string, value: unknown): void {
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    throw new InvalidConfigError({ option, value, message: 'must be a number above 0' });
  }
}

/** A finite number of tokens above 0 (rejects strings, NaN, Infinity and negatives). */
function share(option: string, value: unknown): void {
  if (typeof value !== 'number' || !(value > 0 && value <= 1)) {
    throw new InvalidConfigError({
      option,
      value,
      message: 'must be a share of the context window, above 0 and at most 1',
    });
  }
}

function safeHandler(handler: CompactionEventHandler | undefined): CompactionEventHandler {
  if (handler === undefined) return () => {};
  return (event) => {
    try {
      handler(event);
    } catch {
      // An event handler must never break a request.
    }
  };
}

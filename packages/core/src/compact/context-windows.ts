import { getContextWindow } from '../context-window/get-context-window';
import { checkTokenCount } from '../errors/check-token-count';
import { readContextLimit } from '../errors/read-context-limit';
import type { ResolvedCompactionOptions } from './compaction-options';

/** What a compactor knows of models' windows: options, the table, and what providers' errors said. */
export interface ContextWindows {
  /**
   * The window for `model`, the first known of: the per-call window, the `contextWindow` option,
   * the `contextWindows` entry, the window the model object declares (`modelContextWindow`), the
   * built-in table; capped by a limit a provider's overflow error stated.
   * @throws {InvalidConfigError} when `contextWindow` or `modelContextWindow` is given and is not a
   * finite number of tokens above 0.
   */
  contextWindowFor(
    model: string | undefined,
    contextWindow?: number,
    modelContextWindow?: number,
  ): number | undefined;
  /** The same, reporting an unknown window once per model (event and warning). */
  windowFor(
    model: string | undefined,
    contextWindow: number | undefined,
    conversationId: string,
    modelContextWindow?: number,
  ): number | undefined;
  /**
   * Learns from a provider's overflow error: the limit it states becomes the model's window, the
   * prompt size it states calibrates the estimator against `estimatedTokens`.
   */
  learnFromOverflow(model: string | undefined, error: unknown, estimatedTokens: number | undefined): void;
}

/** The windows of one compactor. */
export function createContextWindows({
  resolved,
  contextWindows,
  warnOnUnknownContextWindow,
}: {
  resolved: ResolvedCompactionOptions;
  contextWindows: Readonly<Record<string, number>> | undefined;
  warnOnUnknownContextWindow: boolean;
}): ContextWindows {
  /** Windows learned from providers' overflow errors, by model id. */
  const learnedWindows = new Map<string, number>();
  /** Models whose unknown window has been reported. */
  const reportedUnknown = new Set<string>();

  const contextWindowFor = (
    model: string | undefined,
    contextWindow?: number,
    modelContextWindow?: number,
  ): number | undefined => {
    if (contextWindow !== undefined) checkTokenCount('contextWindow', contextWindow);
    if (modelContextWindow !== undefined) checkTokenCount('modelContextWindow', modelContextWindow);
    const learned = model === undefined ? undefined : learnedWindows.get(model);
    // What the application configured wins over what the model object declares of itself, and
    // that over the built-in table (`getContextWindow` keeps that order).
    const configured =
      contextWindow ??
      resolved.contextWindow ??
      getContextWindow(model, { overrides: contextWindows, declared: modelContextWindow });
    // A provider's stated limit wins over a table entry, an option or a per-call window that
    // promised more.
    if (learned !== undefined) return configured === undefined ? learned : Math.min(learned, configured);
    return configured;
  };
  const reportUnknown = (model: string | undefined, conversationId: string) => {
    const key = model ?? '';
    if (reportedUnknown.has(key)) return;
    reportedUnknown.add(key);
    resolved.onEvent({ type: 'context-window-unknown', conversationId, model });
    if (warnOnUnknownContextWindow) {
      console.warn(
        `[spillway] The context window of ${model === undefined ? 'this model' : `model "${model}"`} is unknown, so ` +
          'conversations are not compacted until a provider error states the limit. Set `contextWindow` ' +
          '(or `contextWindows: { [modelId]: tokens }`) to enable compaction, or ' +
          '`warnOnUnknownContextWindow: false` to silence this.',
      );
    }
  };
  return {
    contextWindowFor,
    windowFor(model, contextWindow, conversationId, modelContextWindow) {
      const window = contextWindowFor(model, contextWindow, modelContextWindow);
      if (window === undefined) reportUnknown(model, conversationId);
      return window;
    },
    learnFromOverflow(model, error, estimatedTokens) {
      const { limit, tokens } = readContextLimit(error);
      if (limit !== undefined && model !== undefined) {
        const known = learnedWindows.get(model);
        learnedWindows.set(model, known === undefined ? limit : Math.min(known, limit));
        if (known === undefined) reportedUnknown.delete(model);
      }
      if (tokens !== undefined && estimatedTokens !== undefined && estimatedTokens > 0) {
        resolved.estimator.calibrate({ model, estimatedTokens, actualTokens: tokens });
      }
    },
  };
}

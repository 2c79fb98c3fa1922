import { getContextWindow } from '@spillway/core';

/** What this package reads from a chat model (or a model string) to size prompts. */
export interface ChatModelLike {
  profile?: { maxInputTokens?: unknown };
  model?: unknown;
  modelName?: unknown;
}

/**
 * The model id of a chat model (`model`, else `modelName`) or of a model string for
 * `initChatModel` (`'openai:gpt-4.1-mini'` → `gpt-4.1-mini`): the calibration key and the
 * window-table lookup.
 */
export function chatModelId(model: ChatModelLike | string | undefined | null): string | undefined {
  if (model === undefined || model === null) return undefined;
  if (typeof model === 'string') return model.includes(':') ? model.slice(model.indexOf(':') + 1) : model;
  if (typeof model.model === 'string') return model.model;
  if (typeof model.modelName === 'string') return model.modelName;
  return undefined;
}

/**
 * The context window of a chat model: its `profile.maxInputTokens` (LangChain model profiles),
 * else the core's table by model id (`getContextWindow`, with `overrides`). Undefined when neither
 * knows it.
 */
export function chatModelWindow(
  model: ChatModelLike | string | undefined | null,
  overrides?: Readonly<Record<string, number>>,
): number | undefined {
  if (model !== null && typeof model === 'object') {
    try {
      const value = model.profile?.maxInputTokens;
      if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
    } catch {
      // A profile getter that throws (a model without a profile) is no window.
    }
  }
  return getContextWindow(chatModelId(model), overrides === undefined ? {} : { overrides });
}

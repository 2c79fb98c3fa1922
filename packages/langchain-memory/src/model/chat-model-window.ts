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
 * The context window of a chat model, the first known of: your `overrides` (`contextWindows`) for
 * its id, its `profile.maxInputTokens` (LangChain model profiles), the core's table by model id
 * (`getContextWindow`). Undefined when none knows it.
 */
export function chatModelWindow(
  model: ChatModelLike | string | undefined | null,
  overrides?: Readonly<Record<string, number>>,
): number | undefined {
  // The core keeps the order: what the application configured, what the model declares, the table.
  return getContextWindow(chatModelId(model), {
    ...(overrides === undefined ? {} : { overrides }),
    declared: profileWindow(model),
  });
}

/** A chat model's `profile.maxInputTokens`, when it is a number of tokens above 0. */
function profileWindow(model: ChatModelLike | string | undefined | null): number | undefined {
  if (model === null || typeof model !== 'object') return undefined;
  try {
    const value = model.profile?.maxInputTokens;
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
  } catch {
    // A profile getter that throws (a model without a profile) is no window.
    return undefined;
  }
}

/**
 * The provider a chat model sends to, as the core's `providerProfile` reads it (image counting,
 * whether tool results can carry media): the model's `_llmType()` (`anthropic`, `openai`,
 * `googlegenerativeai`, `chat_bedrock_converse`, …), or the prefix of an `initChatModel` string.
 * OpenAI models say whether they use the Chat Completions API (`openai.chat`: tool results are
 * text only) or the Responses API (`openai.responses`).
 */
export function chatModelProvider(model: ChatModelLike | string | undefined | null): string | undefined {
  if (model === undefined || model === null) return undefined;
  let name: string | undefined;
  if (typeof model === 'string') name = model.includes(':') ? model.slice(0, model.indexOf(':')) : undefined;
  else {
    try {
      const type = (model as { _llmType?: () => unknown })._llmType?.();
      name = typeof type === 'string' ? type : undefined;
    } catch {
      name = undefined;
    }
  }
  if (name === undefined) return undefined;
  if (/openai/i.test(name)) {
    let responses = false;
    try {
      responses =
        typeof model === 'object' &&
        (model as { _useResponsesApi?: (options?: unknown) => unknown })._useResponsesApi?.({}) === true;
    } catch {
      responses = false;
    }
    return `${name}.${responses ? 'responses' : 'chat'}`;
  }
  return name;
}

/**
 * Context windows (input + output tokens) of models people use, by model id prefix. The longest
 * matching prefix wins, so `gpt-4o-mini-2024-07-18` finds `gpt-4o-mini`. Provider prefixes such as
 * `openai/` (AI SDK gateway, OpenRouter) and `models/` (Google) are ignored.
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  // Anthropic
  'claude-opus-4': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-haiku-4': 200_000,
  'claude-3-7-sonnet': 200_000,
  'claude-3-5-sonnet': 200_000,
  'claude-3-5-haiku': 200_000,
  'claude-haiku-3-5': 200_000,
  'claude-3-opus': 200_000,
  'claude-3-haiku': 200_000,
  // OpenAI
  'gpt-5': 400_000,
  'gpt-4.1': 1_047_576,
  'gpt-4o': 128_000,
  'gpt-4o-mini': 128_000,
  'gpt-4-turbo': 128_000,
  'gpt-4': 8_192,
  'gpt-3.5-turbo': 16_385,
  o1: 200_000,
  'o1-mini': 128_000,
  o3: 200_000,
  'o3-mini': 200_000,
  'o4-mini': 200_000,
  'gpt-oss': 131_072,
  // Google
  'gemini-3': 1_048_576,
  'gemini-2.5-pro': 1_048_576,
  'gemini-2.5-flash': 1_048_576,
  'gemini-2.0-flash': 1_048_576,
  'gemini-1.5-pro': 2_097_152,
  'gemini-1.5-flash': 1_048_576,
  // Others
  'deepseek-chat': 128_000,
  'deepseek-reasoner': 128_000,
  'mistral-large': 128_000,
  'mistral-small': 128_000,
  codestral: 256_000,
  'grok-4': 256_000,
  'grok-3': 131_072,
  'llama-3.1': 128_000,
  'llama-3.3': 128_000,
  'llama-4': 1_000_000,
  qwen3: 131_072,
  'kimi-k2': 131_072,
};

/** Options of {@link getContextWindow}. */
export interface GetContextWindowOptions {
  /**
   * Your own windows by model id or id prefix; they win over the built-in table (exact id first,
   * then the longest prefix across both tables, yours first on ties).
   */
  overrides?: Readonly<Record<string, number>>;
}

/**
 * The context window of a model in tokens, or `undefined` when the model is unknown (the engine
 * then does not compact: it never guesses a window).
 *
 * @example getContextWindow('claude-sonnet-4-20250514') // 200000
 */
export function getContextWindow(
  modelId: string | undefined,
  { overrides = {} }: GetContextWindowOptions = {},
): number | undefined {
  if (!modelId) return undefined;
  const id = normalize(modelId);
  if (overrides[modelId] !== undefined) return overrides[modelId];
  if (overrides[id] !== undefined) return overrides[id];
  return longestPrefix(id, overrides) ?? longestPrefix(id, CONTEXT_WINDOWS);
}

function normalize(modelId: string): string {
  const lower = modelId.trim().toLowerCase();
  const slash = lower.lastIndexOf('/');
  return slash === -1 ? lower : lower.slice(slash + 1);
}

function longestPrefix(id: string, table: Readonly<Record<string, number>>): number | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const prefix = key.toLowerCase();
    if (
      (id === prefix ||
        id.startsWith(`${prefix}-`) ||
        id.startsWith(`${prefix}.`) ||
        id.startsWith(`${prefix}:`)) &&
      (best === undefined || prefix.length > best.length)
    ) {
      best = key;
    }
  }
  return best === undefined ? undefined : table[best];
}

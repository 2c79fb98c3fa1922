import { checkTokenCount } from '../errors/check-token-count';
/**
 * Context windows (input + output tokens) of models people use, by model id prefix. The longest
 * matching prefix wins, so `gpt-4o-mini-2024-07-18` finds `gpt-4o-mini`. Provider prefixes such as
 * `openai/` (AI SDK gateway, OpenRouter) and `models/` (Google) are ignored.
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  // Anthropic (docs.anthropic.com/en/docs/about-claude/models: 200K for every current model;
  // Sonnet 4/4.5's 1M is a beta header, not the default)
  'claude-opus-4': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-haiku-4': 200_000,
  'claude-3-7-sonnet': 200_000,
  'claude-3-5-sonnet': 200_000,
  'claude-3-5-haiku': 200_000,
  'claude-haiku-3-5': 200_000,
  'claude-3-opus': 200_000,
  'claude-3-sonnet': 200_000,
  'claude-3-haiku': 200_000,
  'claude-2': 100_000,
  'claude-instant': 100_000,
  claude: 200_000,
  // OpenAI (platform.openai.com/docs/models)
  'gpt-5': 400_000,
  'gpt-5-chat': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-4.5': 128_000,
  'gpt-4o': 128_000,
  'gpt-4o-mini': 128_000,
  'chatgpt-4o': 128_000,
  chatgpt: 128_000,
  'gpt-4-turbo': 128_000,
  'gpt-4-32k': 32_768,
  'gpt-4': 8_192,
  'gpt-3.5-turbo': 16_385,
  o1: 200_000,
  'o1-mini': 128_000,
  'o1-preview': 128_000,
  'o1-pro': 200_000,
  o3: 200_000,
  'o3-mini': 200_000,
  'o3-pro': 200_000,
  'o4-mini': 200_000,
  'codex-mini': 200_000,
  'gpt-oss': 131_072,
  // Google (ai.google.dev/gemini-api/docs/models)
  gemini: 1_048_576,
  'gemini-3': 1_048_576,
  'gemini-2.5-pro': 1_048_576,
  'gemini-2.5-flash': 1_048_576,
  'gemini-2.0-flash': 1_048_576,
  'gemini-1.5-pro': 2_097_152,
  'gemini-1.5-flash': 1_048_576,
  'gemini-1.0-pro': 32_760,
  'gemma-3': 131_072,
  'gemma-2': 8_192,
  // Meta Llama 3.x (llama.com model cards: 128K from 3.1 on; Llama 3 itself 8K). Ollama writes
  // `llama3.1:8b`, Hugging Face `Llama-3.1-8B-Instruct`, Bedrock `meta.llama3-1-…`.
  'llama-3': 8_192,
  llama3: 8_192,
  'llama-3.1': 128_000,
  'llama3.1': 128_000,
  'llama3-1': 128_000,
  'llama-3.2': 128_000,
  'llama3.2': 128_000,
  'llama3-2': 128_000,
  'llama-3.3': 128_000,
  'llama3.3': 128_000,
  'llama3-3': 128_000,
  'llama-4': 1_000_000,
  llama4: 1_000_000,
  // Qwen (qwenlm.github.io: Qwen2.5 32K native, Qwen3 32K native / 128K with YaRN)
  'qwen2.5': 32_768,
  'qwen-2.5': 32_768,
  qwen3: 131_072,
  'qwen-max': 32_768,
  'qwen-plus': 131_072,
  'qwen-turbo': 1_000_000,
  qwq: 131_072,
  // DeepSeek (api-docs.deepseek.com: V3.x and R1 128K)
  'deepseek-chat': 128_000,
  'deepseek-reasoner': 128_000,
  'deepseek-v3': 128_000,
  'deepseek-r1': 128_000,
  'deepseek-coder': 128_000,
  // Mistral (docs.mistral.ai/getting-started/models)
  'mistral-large': 128_000,
  'mistral-medium': 128_000,
  'mistral-small': 128_000,
  'mistral-tiny': 32_000,
  'open-mistral-nemo': 128_000,
  'mistral-nemo': 128_000,
  ministral: 128_000,
  magistral: 128_000,
  pixtral: 128_000,
  devstral: 128_000,
  codestral: 256_000,
  mistral: 32_000,
  mixtral: 32_000,
  // xAI (docs.x.ai/docs/models)
  'grok-4': 256_000,
  'grok-4-fast': 2_000_000,
  'grok-code-fast': 256_000,
  'grok-3': 131_072,
  'grok-2': 131_072,
  grok: 131_072,
  // Cohere (docs.cohere.com/docs/models)
  'command-a': 256_000,
  'command-r': 128_000,
  'command-r-plus': 128_000,
  'command-r7b': 128_000,
  // Others
  'kimi-k2': 131_072,
  'glm-4.5': 131_072,
  'phi-4': 16_384,
};

/** Options of {@link getContextWindow}. */
export interface GetContextWindowOptions {
  /**
   * Your own windows by model id or id prefix; they win over the built-in table: your exact id,
   * then your longest matching prefix, and only then the table (its longest matching prefix).
   */
  overrides?: Readonly<Record<string, number>>;
  /**
   * The window the model object declares of itself (an AI SDK model's `contextWindow`, a LangChain
   * profile's `maxInputTokens`): used when `overrides` name none, before the built-in table.
   * @default none
   */
  declared?: number;
}

/**
 * The context window of a model in tokens, the first known of: your `overrides`, the window the
 * model `declared`, the built-in table; `undefined` when none knows it (the engine then does not
 * compact: it never guesses a window).
 * @throws {InvalidConfigError} (option `overrides.<key>` or `declared`) when the override that
 * applies, or the declared window, is not a finite number of tokens above 0.
 *
 * @example getContextWindow('claude-sonnet-4-20250514') // 200000
 */
export function getContextWindow(
  modelId: string | undefined,
  { overrides = {}, declared }: GetContextWindowOptions = {},
): number | undefined {
  if (declared !== undefined) checkTokenCount('declared', declared);
  if (typeof modelId !== 'string' || modelId === '') return declared;
  return (
    overrideWindow(modelId, overrides ?? {}) ?? declared ?? longestPrefix(normalize(modelId), CONTEXT_WINDOWS)
  );
}

/** The window `overrides` give a model: exact id, then the normalized id, then the longest prefix. */
function overrideWindow(modelId: string, overrides: Readonly<Record<string, number>>): number | undefined {
  const id = normalize(modelId);
  const key =
    overrides[modelId] !== undefined
      ? modelId
      : overrides[id] !== undefined
        ? id
        : longestPrefixKey(id, overrides);
  if (key === undefined) return undefined;
  const window = overrides[key];
  checkTokenCount(`overrides.${key}`, window);
  return window;
}

/** Region and vendor prefixes of Bedrock and Vertex ids (`us.anthropic.claude-…`, `meta.llama3-1-…`). */
const VENDOR_PREFIX =
  /^(?:(?:us|eu|apac|global|us-gov)\.)?(?:anthropic|meta|mistral|amazon|cohere|deepseek|openai|qwen|ai21|writer)\./;

/**
 * `provider:model` ids (LangChain's `initChatModel`, e.g. `openai:gpt-4.1`). Only known provider
 * names are stripped: Ollama's `llama3.1:8b` keeps its tag.
 */
const PROVIDER_COLON_PREFIX =
  /^(?:openai|azure_openai|anthropic|google-genai|google-vertexai|google-vertexai-web|google|vertex|bedrock|bedrock_converse|ollama|groq|mistralai|mistral|cohere|fireworks|together|togetherai|xai|deepseek|perplexity|cerebras|openrouter|gateway):/;

function normalize(modelId: string): string {
  const lower = modelId.trim().toLowerCase().replace(PROVIDER_COLON_PREFIX, '');
  const slash = lower.lastIndexOf('/');
  const id = slash === -1 ? lower : lower.slice(slash + 1);
  return id.replace(VENDOR_PREFIX, '');
}

function longestPrefix(id: string, table: Readonly<Record<string, number>>): number | undefined {
  const best = longestPrefixKey(id, table);
  return best === undefined ? undefined : table[best];
}

/** The longest key of `table` that is `id` or a prefix of it ending at `-`, `.` or `:`. */
function longestPrefixKey(id: string, table: Readonly<Record<string, number>>): string | undefined {
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
  return best;
}

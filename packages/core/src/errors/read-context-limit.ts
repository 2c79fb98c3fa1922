/** What a provider's overflow error says about the limit, when it says it. */
export interface ContextLimit {
  /** The model's limit in tokens, as the provider states it. */
  readonly limit?: number;
  /** The prompt's size in tokens, as the provider counted it. */
  readonly tokens?: number;
}

const number = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const value = Number(text.replace(/[,_\s]/g, ''));
  return Number.isFinite(value) && value > 0 ? value : undefined;
};

/**
 * Wordings that state the numbers, each with its source. `limit` and `tokens` name the groups.
 * A digit group may carry thousands separators (`200,000`).
 */
const D = String.raw`\d[\d,_]*`;
const LIMIT_PATTERNS: readonly RegExp[] = [
  // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  new RegExp(String.raw`prompt is too long:\s*(?<tokens>${D})\s*tokens?\s*>\s*(?<limit>${D})`, 'i'),
  // OpenAI, vLLM, DeepSeek, Groq, OpenRouter: "maximum context length is 8192 tokens. However, your
  // messages resulted in 9000 tokens" / "However, you requested 130000 tokens (120000 in the messages…"
  new RegExp(
    String.raw`maximum context length is\s*(?<limit>${D})\s*tokens?(?:[\s\S]*?(?:resulted in|requested|have)\s*(?<tokens>${D})\s*tokens?)?`,
    'i',
  ),
  // Google: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)"
  new RegExp(
    String.raw`input token count\s*\(?(?<tokens>${D})\)?\s*exceeds the maximum number of tokens allowed\s*\(?(?<limit>${D})`,
    'i',
  ),
  // Mistral: "Prompt contains 40000 tokens … too large for model with 32768 maximum context length"
  new RegExp(
    String.raw`(?:prompt contains\s*(?<tokens>${D})\s*tokens[\s\S]*?)?too large for model with\s*(?<limit>${D})\s*maximum context length`,
    'i',
  ),
  // xAI: "This model's maximum prompt length is 131072 but the request contains 200000 tokens"
  new RegExp(
    String.raw`maximum prompt length is\s*(?<limit>${D})(?:[\s\S]*?contains\s*(?<tokens>${D})\s*tokens)?`,
    'i',
  ),
  // llama.cpp: "request (5000 tokens) exceeds the available context size (4096 tokens)"
  new RegExp(
    String.raw`\((?<tokens>${D})\s*tokens\)\s*exceeds the available context size\s*\((?<limit>${D})`,
    'i',
  ),
  // vLLM: "… context length is only 4096 tokens"; LM Studio / others: "context length of 4096"
  new RegExp(String.raw`context length is only\s*(?<limit>${D})\s*tokens`, 'i'),
  // Kimi / Moonshot: "exceeded model token limit: 8192"
  new RegExp(String.raw`exceeded model token limit:?\s*(?<limit>${D})`, 'i'),
  // Hugging Face TGI: "`inputs` must have less than 4096 tokens. Given: 5000"
  new RegExp(
    String.raw`must have less than\s*(?<limit>${D})\s*tokens(?:\.\s*Given:\s*(?<tokens>${D}))?`,
    'i',
  ),
  // Qwen / DashScope: "Range of input length should be [1, 30720]"
  new RegExp(String.raw`range of input length should be \[\s*1\s*,\s*(?<limit>${D})\s*\]`, 'i'),
  // Generic: "context window of 8192 tokens", "context size of 8192"
  new RegExp(String.raw`context (?:window|size|length) (?:of|is)\s*(?<limit>${D})\s*tokens`, 'i'),
];

const MAX_DEPTH = 8;

/**
 * Reads the limit (and the prompt's size) from a provider's overflow error when its message states
 * them, looking through the error, its `responseBody`, and everything it wraps (`cause`,
 * `lastError`, `errors`). Returns `{}` when no number is stated. The compactor uses it to learn the
 * window of a model it did not know, and to calibrate from the provider's own count.
 *
 * @example readContextLimit(new Error('prompt is too long: 210000 tokens > 200000 maximum'))
 * // { limit: 200000, tokens: 210000 }
 */
export function readContextLimit(error: unknown): ContextLimit {
  return search(error, 0, new Set()) ?? {};
}

function search(error: unknown, depth: number, seen: Set<unknown>): ContextLimit | undefined {
  if (error == null || depth > MAX_DEPTH || seen.has(error)) return undefined;
  if (typeof error === 'string') return fromText(error);
  if (typeof error !== 'object') return undefined;
  seen.add(error);
  const record = error as Record<string, unknown>;
  for (const key of ['message', 'responseBody', 'body']) {
    const value = record[key];
    const found =
      typeof value === 'string'
        ? fromText(value)
        : value != null && typeof value === 'object'
          ? fromText(safeJson(value))
          : undefined;
    if (found) return found;
  }
  const nested: unknown[] = [record.cause, record.lastError, record.error, record.data];
  if (Array.isArray(record.errors)) nested.push(...record.errors);
  for (const inner of nested) {
    const found = search(inner, depth + 1, seen);
    if (found) return found;
  }
  return undefined;
}

function fromText(text: string): ContextLimit | undefined {
  for (const pattern of LIMIT_PATTERNS) {
    const groups = pattern.exec(text)?.groups;
    if (groups === undefined) continue;
    const limit = number(groups.limit);
    const tokens = number(groups.tokens);
    if (limit === undefined && tokens === undefined) continue;
    return { ...(limit === undefined ? {} : { limit }), ...(tokens === undefined ? {} : { tokens }) };
  }
  return undefined;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

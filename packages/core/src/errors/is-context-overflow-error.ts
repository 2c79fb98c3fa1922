import { ContextOverflowError } from './context-overflow-error';

/**
 * What providers say when a prompt does not fit. Each entry names who says it; the list errs on the
 * side of phrases that mean "the context does not fit" and nothing else (rate limits, auth, bad
 * parameters are left alone).
 */
const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /context[_ ]length[_ ]exceeded/i, // OpenAI code, Azure, Groq, DeepSeek, OpenRouter
  /maximum context length/i, // OpenAI chat completions, vLLM, OpenRouter, Mistral
  /exceeds? the context window/i, // OpenAI Responses API
  /context[_ ]window[_ ](?:is[_ ])?exceeded/i, // OpenAI-compatible servers
  /context_window_blocked/i, // claw-code's API wording (seed: claw-code #2808)
  /\bcontext_window\b/, // the seed's detection: an error code naming the context window
  /context window (?:is )?(?:exceeded|full|limit reached|blocked)/i, // "Context window exceeded" (seed)
  /model_context_window_exceeded/i, // Anthropic stop reason surfaced as an error
  /prompt is too long/i, // Anthropic
  /input is too long/i, // Amazon Bedrock ("Input is too long for requested model")
  /exceeds the maximum number of tokens/i, // Google Gemini ("The input token count (N) exceeds …")
  /input token count.*exceeds/i, // Google Vertex variants
  /maximum prompt length/i, // xAI
  /reduce the length of the messages/i, // OpenAI / Groq suffix
  /exceeds the available context size/i, // llama.cpp server
  /exceed_context_size/i, // llama.cpp code
  /greater than the context length/i, // LM Studio
  /too large for model with \d+ maximum context length/i, // Mistral
  /maximum model length/i, // vLLM
  /is too long and exceeds/i, // vLLM
  /context length is only \d+ tokens/i, // vLLM
  /prompt too long; exceeded (?:max )?context length/i, // Ollama
  /exceeded model token limit/i, // Moonshot / Kimi
  /context window exceeds limit/i, // MiniMax
  /range of input length should be/i, // Qwen / DashScope
  /`inputs` must have less than/i, // Hugging Face TGI
  /request entity too large/i, // HTTP 413 bodies
  /no parseable body/i, // backends that choke on oversized bodies (seed: claw-code #2808)
];

/** Messages that look alike but are about throughput or billing, not the context window. */
const NOT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /rate[_ ]limit/i,
  /tokens per (?:min|minute|day)/i,
  /\b(?:TPM|RPM|TPD)\b/,
  /quota/i,
  /insufficient[_ ]balance/i,
];

const MAX_CHAIN_DEPTH = 8;

/**
 * Whether `error` says the prompt did not fit the model's context window. Recognises OpenAI
 * (`context_length_exceeded`), Anthropic (`prompt is too long`), Google (`exceeds the maximum number
 * of tokens`), Bedrock, OpenAI-compatible servers (vLLM, llama.cpp, Ollama, LM Studio, OpenRouter,
 * Groq, Mistral, xAI…), HTTP 413, and 400 responses with no parseable body. Looks at the status,
 * code, message and response body of the error and of everything it wraps (`cause`, `lastError`,
 * `errors`), so the AI SDK's `APICallError`, its gateway and retry wrappers, and LangChain's errors
 * are all read. Rate-limit and quota errors are never taken for overflows.
 */
export function isContextOverflowError(error: unknown): boolean {
  return findOverflow(error, 0, new Set());
}

function findOverflow(error: unknown, depth: number, seen: Set<unknown>): boolean {
  if (error == null || depth > MAX_CHAIN_DEPTH || seen.has(error)) return false;
  if (typeof error === 'string') return describesOverflow(error, undefined);
  if (typeof error !== 'object') return false;
  seen.add(error);

  if (ContextOverflowError.isInstance(error)) return true;
  const record = error as Record<string, unknown>;
  // LangChain's own class (and anything else that names itself this way).
  if (record.name === 'ContextOverflowError' && record instanceof Error) return true;

  const status = statusOf(record);
  if (status === 429) return false;
  if (status === 413) return true;
  if (describesOverflow(textOf(record), status)) return true;

  const nested: unknown[] = [record.cause, record.lastError, record.error, record.originalError];
  if (Array.isArray(record.errors)) nested.push(...record.errors);
  return nested.some((inner) => findOverflow(inner, depth + 1, seen));
}

function describesOverflow(text: string, status: number | undefined): boolean {
  if (text === '') return false;
  if (NOT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return false;
  if (OVERFLOW_PATTERNS.some((pattern) => pattern.test(text))) return true;
  // Some OpenAI-compatible backends answer an oversized request with a bare 400/413 and no body.
  return (status === 400 || status === 413) && /\(no body\)|empty (?:response )?body/i.test(text);
}

function statusOf(record: Record<string, unknown>): number | undefined {
  for (const key of ['statusCode', 'status', 'lc_error_code_status']) {
    const value = record[key];
    if (typeof value === 'number') return value;
    if (typeof value === 'string' && /^\d{3}$/.test(value)) return Number(value);
  }
  const response = record.response;
  if (response != null && typeof response === 'object') {
    const value = (response as Record<string, unknown>).status;
    if (typeof value === 'number') return value;
  }
  return undefined;
}

/** The parts of an error that carry the provider's words, joined. */
function textOf(record: Record<string, unknown>): string {
  const pieces: string[] = [];
  for (const key of ['message', 'code', 'type', 'responseBody', 'body', 'lc_error_code']) {
    const value = record[key];
    if (typeof value === 'string') pieces.push(value);
  }
  const data = record.data;
  if (data != null && typeof data === 'object') pieces.push(safeJson(data));
  const body = record.body;
  if (body != null && typeof body === 'object') pieces.push(safeJson(body));
  return pieces.join('\n');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

import { estimateTextTokens } from '../estimate/estimate-text-tokens';
import type { Message } from '../message/message';
import { messageText, toolCallsOf, toolResultsOf, toolResultText } from '../message/message-parts';
import { truncateText } from '../truncate/truncate-text';
import { extractIdentifiers } from './extract-identifiers';
import type { Summarizer, SummarizerInput } from './summarizer';

/** Options of {@link createExtractiveSummarizer}. */
export interface ExtractiveSummarizerOptions {
  /**
   * Longest the digest may be, in characters (the previous summary included).
   * @default 6000
   */
  maxChars?: number;
  /**
   * How many of the user's latest requests to quote.
   * @default 8
   */
  maxRequests?: number;
  /**
   * Longest quote of one user request, in characters.
   * @default 280
   */
  maxRequestChars?: number;
  /**
   * How many identifiers to list.
   * @default 40
   */
  maxIdentifiers?: number;
  /**
   * Longest the digest may be in tokens (by the built-in estimate); the summarizer takes the
   * engine's bound (`SummarizerInput.maxTokens`) when it is lower.
   * @default Infinity
   */
  maxTokens?: number;
}

/**
 * A summarizer that needs no model: a deterministic digest of the user's requests (shortened),
 * the identifiers mentioned (paths, URLs, numbers), the tools used and how they went, the errors
 * seen, and the assistant's latest conclusions. The offline default for demos and tests, and what a
 * dropped span leaves behind when the model summarizer fails twice.
 */
export function createExtractiveSummarizer({
  maxChars = 6000,
  maxRequests = 8,
  maxRequestChars = 280,
  maxIdentifiers = 40,
  maxTokens = Number.POSITIVE_INFINITY,
}: ExtractiveSummarizerOptions = {}): Summarizer {
  return ({ messages, previousSummary, maxTokens: bound }: SummarizerInput) =>
    extractiveDigest(messages, previousSummary, {
      maxChars,
      maxRequests,
      maxRequestChars,
      maxIdentifiers,
      maxTokens: Math.min(maxTokens, bound ?? Number.POSITIVE_INFINITY),
    });
}

/** {@link createExtractiveSummarizer} with its defaults. */
export const extractiveSummarizer: Summarizer = createExtractiveSummarizer();

/** The digest itself, for callers that want it without the summarizer wrapper. */
export function extractiveDigest(
  messages: readonly Message[],
  previousSummary: string | undefined,
  {
    maxChars = 6000,
    maxRequests = 8,
    maxRequestChars = 280,
    maxIdentifiers = 40,
    maxTokens = Number.POSITIVE_INFINITY,
  }: ExtractiveSummarizerOptions = {},
): string {
  const build = (chars: number) =>
    buildDigest(messages, previousSummary, { maxChars: chars, maxRequests, maxRequestChars, maxIdentifiers });
  if (!Number.isFinite(maxTokens)) return build(maxChars);
  // Within the token bound too: start at four characters a token, then shrink by what is measured.
  let chars = Math.min(maxChars, Math.max(1, Math.floor(maxTokens * 4)));
  let digest = build(chars);
  for (let round = 0; round < 8; round++) {
    const tokens = estimateTextTokens(digest);
    if (tokens <= maxTokens || chars <= 1) break;
    chars = Math.max(1, Math.floor(chars * (maxTokens / tokens) * 0.95));
    digest = build(chars);
  }
  return digest;
}

function buildDigest(
  messages: readonly Message[],
  previousSummary: string | undefined,
  {
    maxChars,
    maxRequests,
    maxRequestChars,
    maxIdentifiers,
  }: Required<Omit<ExtractiveSummarizerOptions, 'maxTokens'>>,
): string {
  const requests: string[] = [];
  const conclusions: string[] = [];
  const tools = new Map<string, { calls: number; errors: number }>();
  const errors: string[] = [];
  const identifierSource: string[] = [];

  for (const message of messages) {
    const text = messageText(message).trim();
    if (message.role === 'user' && text !== '') {
      requests.push(oneLine(text, maxRequestChars));
      identifierSource.push(text);
    }
    if (message.role === 'assistant' && text !== '') conclusions.push(oneLine(text, 400));
    for (const call of toolCallsOf(message)) {
      const entry = tools.get(call.toolName) ?? { calls: 0, errors: 0 };
      entry.calls++;
      tools.set(call.toolName, entry);
      identifierSource.push(safeJson(call.input));
    }
    for (const result of toolResultsOf(message)) {
      if (!result.isError) continue;
      const entry = tools.get(result.toolName) ?? { calls: 0, errors: 0 };
      entry.errors++;
      tools.set(result.toolName, entry);
      errors.push(`${result.toolName}: ${oneLine(toolResultText(result), 200)}`);
    }
  }

  const sections: string[] = [
    `Digest of ${messages.length} earlier message${messages.length === 1 ? '' : 's'} (extractive, made without a model).`,
  ];
  if (requests.length > 0) {
    const shown = requests.slice(-maxRequests);
    const skipped = requests.length - shown.length;
    sections.push(
      `User requests${skipped > 0 ? ` (latest ${shown.length} of ${requests.length})` : ''}:\n${shown
        .map((request) => `- "${request}"`)
        .join('\n')}`,
    );
  }
  const identifiers = extractIdentifiers(identifierSource.join('\n'), { limit: maxIdentifiers });
  if (identifiers.length > 0) sections.push(`Identifiers mentioned: ${identifiers.join(', ')}`);
  if (tools.size > 0) {
    const list = [...tools]
      .map(
        ([name, { calls, errors: failed }]) => `${name} ×${calls}${failed > 0 ? ` (${failed} failed)` : ''}`,
      )
      .join(', ');
    sections.push(`Tools used: ${list}`);
  }
  if (errors.length > 0)
    sections.push(
      `Errors seen:\n${errors
        .slice(-5)
        .map((error) => `- ${error}`)
        .join('\n')}`,
    );
  if (conclusions.length > 0) {
    sections.push(
      `Latest assistant replies:\n${conclusions
        .slice(-3)
        .map((reply) => `- ${reply}`)
        .join('\n')}`,
    );
  }

  const digest = sections.join('\n\n');
  if (!previousSummary) return truncateText(digest, { maxChars, mode: 'head-tail' });
  // Cumulative: the earlier summary, then this digest. The newer digest matters most, so the
  // earlier summary gets what is left, but at least a third (its head and tail are kept).
  const separator = '\n\nThen:\n';
  const earlierBudget = Math.max(Math.floor(maxChars / 3), maxChars - digest.length - separator.length);
  const earlier = truncateText(previousSummary, { maxChars: earlierBudget, mode: 'head-tail' });
  return truncateText(`${earlier}${separator}${digest}`, { maxChars, mode: 'head-tail' });
}

/** The text on one line, cut to `maxChars` with an ellipsis (never inside a surrogate pair). */
function oneLine(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxChars) return flat;
  let end = maxChars - 1;
  const last = flat.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${flat.slice(0, end)}…`;
}

function safeJson(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

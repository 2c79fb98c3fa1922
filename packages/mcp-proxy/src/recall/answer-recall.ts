import { parseRecallInput, RECALL_TOOL_NAME, readRecallPage, searchRecall } from '@spillway/core';
import type { CallToolResult } from '../sdk/mcp-sdk';
import { countTextTokens } from '../truncate/count-text-tokens';
import type { RecallStore } from './recall-store';

/** Options of {@link answerRecall}. */
export interface AnswerRecallOptions {
  store: RecallStore;
  /** The session asking: only its own texts are found. */
  owner: string;
  /** The tool's arguments as the client sent them. */
  input: unknown;
  /**
   * Token budget of one answer, for texts kept without their own (`RecallEntry.pageTokens`, the
   * budget of the tool whose result was cut, wins when set) and for searches.
   */
  maxTokens: number;
}

/** Characters of a search answer when the budget is off. */
const UNBOUNDED_SEARCH_CHARS = 16_000;
/** Matches listed by one search, at most. */
const SEARCH_MATCHES = 50;
/** Characters per token assumed when sizing a search answer (lines of logs, code and prose). */
const SEARCH_CHARS_PER_TOKEN = 3;
/**
 * Longest search pattern accepted. A model's pattern is a few words or a short expression; a longer
 * one (a pasted page, a 1 MB query) is refused before any work, with a one-line error.
 */
const MAX_SEARCH_CHARS = 1000;
/** A ref longer than this is not quoted back in the error (refs are 22 characters). */
const MAX_QUOTED_REF_CHARS = 64;

/**
 * Answers a call of `spillway_recall`. Read mode: three text blocks, the page header, the page
 * (exactly `text.slice(start, end)`, so pages concatenate to the original) and the next-page call,
 * together within the budget. Search mode: one text block listing matching lines with their
 * `{"ref","offset"}`. Bad input (wrong types, a search pattern over 1,000 characters), or a reference
 * that is unknown, evicted or another session's, gives an `isError` result with a one-line message
 * for the model, never a protocol error.
 */
export function answerRecall({
  store,
  owner,
  input,
  maxTokens: defaultMaxTokens,
}: AnswerRecallOptions): CallToolResult {
  const parsed = parseRecallInput(input);
  if (!parsed.ok) return failure(parsed.message);
  const { request } = parsed;
  if (request.mode === 'search' && request.search.length > MAX_SEARCH_CHARS) {
    return failure(
      `"search" is ${request.search.length} characters long; at most ${MAX_SEARCH_CHARS} are accepted: search for a shorter, telling part.`,
    );
  }
  const entry = request.ref === undefined ? undefined : store.get(owner, request.ref);
  if (request.ref !== undefined && entry === undefined) {
    const quoted =
      request.ref.length <= MAX_QUOTED_REF_CHARS
        ? `the ref ${JSON.stringify(request.ref)}`
        : `a ref of ${request.ref.length} characters (refs are the 22 characters printed where material was cut)`;
    return failure(
      `Nothing is kept under ${quoted} for this session (it may have been evicted to stay within the store's budget). Call the original tool again.`,
    );
  }
  if (request.mode === 'search') {
    const budget = entry?.pageTokens ?? defaultMaxTokens;
    const maxChars = Number.isFinite(budget)
      ? Math.max(400, Math.floor(budget * SEARCH_CHARS_PER_TOKEN))
      : UNBOUNDED_SEARCH_CHARS;
    const sources =
      entry === undefined
        ? store.list(owner)
        : [
            {
              ref: entry.ref,
              text: entry.text,
              start: request.offset,
              ...(request.length === undefined ? {} : { end: request.offset + request.length }),
            },
          ];
    const result = searchRecall({ sources, pattern: request.search, maxChars, maxMatches: SEARCH_MATCHES });
    return { content: [{ type: 'text', text: result.text }] };
  }
  const { ref, text, charsPerToken } = entry as NonNullable<typeof entry>;
  const maxTokens = entry?.pageTokens ?? defaultMaxTokens;
  // The page and the two lines saying where it sits share the budget.
  const total = text.length;
  const frameTokens = countTextTokens(
    `[${ref}: characters ${total}–${total} of ${total}]\n[Next page: ${RECALL_TOOL_NAME} {"ref":"${ref}","offset":${total}}]`,
  );
  const pageTokens = Math.max(1, maxTokens - frameTokens);
  const pageChars = Number.isFinite(maxTokens)
    ? Math.max(1, Math.floor(pageTokens * charsPerToken * 0.95))
    : text.length;
  let length = Math.min(request.length ?? pageChars, pageChars);
  let page = readRecallPage({ ref, text, offset: request.offset, length });
  for (let attempt = 0; attempt < 8 && Number.isFinite(maxTokens); attempt++) {
    const tokens = countTextTokens(page.page);
    if (tokens <= pageTokens || page.page.length <= 1) break;
    length = Math.max(1, Math.floor((page.page.length * pageTokens * 0.95) / tokens));
    page = readRecallPage({ ref, text, offset: request.offset, length });
  }
  return {
    content: [
      { type: 'text', text: page.header },
      { type: 'text', text: page.page },
      { type: 'text', text: page.footer },
    ],
  };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

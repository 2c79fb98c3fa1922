import type { CallToolResult, Tool } from '../sdk/mcp-sdk';
import { countTextTokens } from '../truncate/count-text-tokens';
import type { ResultStore } from './result-store';

/** The definition of the paging tool the proxy adds to `tools/list`. */
export function readResultToolDefinition(name: string): Tool {
  return {
    name,
    title: 'Read the rest of a truncated tool result',
    description:
      'Returns part of a tool result that spillway-mcp shortened to protect the context window. ' +
      'The truncation marker in that result gives the id and the offset where the cut part starts. ' +
      'Each call returns one page starting at `offset` (characters); the line after the page gives ' +
      'the offset of the next one. Concatenating all pages gives the exact original text.',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'The id given in the truncation marker.' },
        offset: { type: 'integer', minimum: 0, description: 'First character to return. Default 0.' },
        length: {
          type: 'integer',
          minimum: 1,
          description: 'Characters to return. Default and maximum: as many as fit the token budget.',
        },
      },
      required: ['id'],
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
}

/** Options of {@link readResultPage}. */
export interface ReadResultPageOptions {
  store: ResultStore;
  /** The tool's arguments as the client sent them. */
  input: unknown;
  /**
   * Token budget of one page, for texts stored without their own (`StoredResult.pageTokens`, the
   * budget of the tool whose result was cut, wins when set).
   */
  maxTokens: number;
}

/**
 * Answers a call of the paging tool: the page `text.slice(offset, offset + length)` as the first
 * content block (exactly, so pages concatenate to the original), and a second block saying where it
 * sits and what the next offset is. A page never ends inside a surrogate pair. Bad input or an
 * unknown id gives an `isError` result, never a protocol error.
 */
export function readResultPage({
  store,
  input,
  maxTokens: defaultMaxTokens,
}: ReadResultPageOptions): CallToolResult {
  const { id, offset = 0, length } = (input ?? {}) as { id?: unknown; offset?: unknown; length?: unknown };
  if (typeof id !== 'string') return failure('"id" must be the id string from the truncation marker.');
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    return failure('"offset" must be an integer of 0 or more.');
  }
  if (length !== undefined && (typeof length !== 'number' || !Number.isInteger(length) || length < 1)) {
    return failure('"length" must be a positive integer.');
  }
  const entry = store.get(id);
  if (entry === undefined) {
    return failure(
      `No kept result has the id "${id}" (it may have been evicted). Call the original tool again.`,
    );
  }
  const { text, charsPerToken } = entry;
  const maxTokens = entry.pageTokens ?? defaultMaxTokens;
  if (offset >= text.length) {
    return {
      content: [
        { type: 'text', text: '' },
        {
          type: 'text',
          text: `[spillway-mcp: offset ${offset} is at or past the end (${text.length} characters).]`,
        },
      ],
    };
  }
  // The page and the line saying where it sits share the budget.
  const widestWhere = `[spillway-mcp: characters ${text.length}–${text.length} of ${text.length}; next page: {"id":"${id}","offset":${text.length}}]`;
  const pageTokens = Math.max(1, maxTokens - countTextTokens(widestWhere));
  const pageBudget = Number.isFinite(maxTokens) ? Math.floor(pageTokens * charsPerToken * 0.95) : text.length;
  let end = Math.min(text.length, offset + Math.max(1, Math.min(length ?? pageBudget, pageBudget)));
  for (let attempt = 0; attempt < 8; attempt++) {
    const tokens = countTextTokens(text.slice(offset, end));
    if (tokens <= pageTokens || end - offset <= 1) break;
    end = offset + Math.max(1, Math.floor(((end - offset) * pageTokens * 0.95) / tokens));
  }
  const code = text.charCodeAt(end - 1);
  if (end < text.length && end - offset > 1 && code >= 0xd800 && code <= 0xdbff) end--;
  const page = text.slice(offset, end);
  const where =
    end >= text.length
      ? `[spillway-mcp: characters ${offset}–${end} of ${text.length}; this is the end.]`
      : `[spillway-mcp: characters ${offset}–${end} of ${text.length}; next page: {"id":"${id}","offset":${end}}]`;
  return {
    content: [
      { type: 'text', text: page },
      { type: 'text', text: where },
    ],
  };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

import type { CallToolResult } from '../sdk/mcp-sdk';
import { type ContentBlock, type TruncateContentOptions, truncateContent } from './truncate-content';

/** Options of {@link truncateCallToolResult}. */
export type TruncateCallToolResultOptions = Omit<TruncateContentOptions, 'structuredContent' | 'subject'>;

/** What {@link truncateCallToolResult} did. */
export interface TruncateCallToolResultResult {
  /** The result to send downstream: the very same object when nothing had to change. */
  readonly result: CallToolResult;
  /** Whether `structuredContent` was removed because no shortened form fit and stayed valid. */
  readonly structuredContentDropped: boolean;
  /** One line per change, for logs. */
  readonly changes: readonly string[];
}

/**
 * Keeps one `tools/call` result within its budgets (see `truncateContent`): its content blocks, and
 * its `structuredContent`, which must stay valid against the tool's `outputSchema`.
 */
export function truncateCallToolResult(
  result: CallToolResult,
  options: TruncateCallToolResultOptions,
): TruncateCallToolResultResult {
  const source: readonly ContentBlock[] = Array.isArray(result.content) ? result.content : [];
  const { blocks, appended, structuredContent, structuredContentDropped, changes } = truncateContent(source, {
    ...options,
    structuredContent: result.structuredContent,
  });
  if (blocks === source && appended.length === 0 && structuredContent === result.structuredContent) {
    return { result, structuredContentDropped, changes };
  }
  const output: CallToolResult = {
    ...result,
    content: [...blocks.filter((block) => block !== undefined), ...appended],
  };
  if (structuredContent === undefined) delete output.structuredContent;
  else output.structuredContent = structuredContent as Record<string, unknown>;
  return { result: output, structuredContentDropped, changes };
}

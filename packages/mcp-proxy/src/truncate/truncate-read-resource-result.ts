import type { Result } from '../sdk/mcp-sdk';
import { type ContentBlock, type TruncateContentOptions, truncateContent } from './truncate-content';

/** Options of {@link truncateReadResourceResult}. */
export type TruncateReadResourceResultOptions = Omit<
  TruncateContentOptions,
  'structuredContent' | 'subject' | 'validateStructuredContent'
>;

interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  [key: string]: unknown;
}

/**
 * Keeps one `resources/read` result within the resource budgets, with the rules of tool results:
 * the `contents` share the token budget (text cut head + tail with a marker naming the recall call),
 * blobs beyond the media budget become text contents holding a placeholder (same `uri`,
 * `mimeType: 'text/plain'`). Contents folded into a note disappear from the list. Returns the same
 * object when everything fits; never mutates its input.
 */
export function truncateReadResourceResult(
  result: Result,
  options: TruncateReadResourceResultOptions,
): { result: Result; changes: readonly string[] } {
  const contents = (result as { contents?: unknown }).contents;
  if (!Array.isArray(contents)) return { result, changes: [] };
  const source = contents.map((item) =>
    isResourceContents(item)
      ? ({ type: 'resource', resource: item } as ContentBlock)
      : (item as ContentBlock),
  );
  const { blocks, changes } = truncateContent(source, { ...options, subject: 'resource' });
  if (blocks === source) return { result, changes };
  const output: unknown[] = [];
  blocks.forEach((block, index) => {
    if (block === undefined) return;
    const original = contents[index] as ResourceContents;
    if (block === source[index]) output.push(original);
    else if (block.type === 'resource') output.push(block.resource);
    else if (block.type === 'text')
      output.push({ uri: original.uri, mimeType: 'text/plain', text: block.text });
    else output.push(original);
  });
  return { result: { ...result, contents: output }, changes };
}

function isResourceContents(value: unknown): value is ResourceContents {
  return value !== null && typeof value === 'object' && typeof (value as { uri?: unknown }).uri === 'string';
}

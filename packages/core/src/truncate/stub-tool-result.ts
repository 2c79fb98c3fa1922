import type { ToolResultPart } from '../message/message';
import { toolResultParts } from '../message/message-parts';
import { refAnnotation } from '../recall/recall-ref';
import { salientIdentifiers } from '../summarize/salient-identifiers';
import { withNoteContent } from './replace-parts';

/** How every stub starts (tests and tools look for it). */
export const TOOL_RESULT_STUB_PREFIX = '[cleared:';

/** Options of {@link stubToolResult}. */
export interface StubToolResultOptions {
  /** The reference of the result's (first) text, written after the stub as `[ref=t.…]`. */
  ref?: string | undefined;
  /**
   * List the identifiers found in the result (see `salientIdentifiers`): paths, URLs, ids, error
   * codes, numbers with units.
   * @default true
   */
  identifiers?: boolean;
  /**
   * The most characters the identifier list may take.
   * @default 240
   */
  maxIdentifierChars?: number;
  /** Identifiers not worth repeating (e.g. what the call's arguments already show). */
  exclude?: ReadonlySet<string>;
}

/**
 * A tool result cleared to a one-line stub: what it was (tool, size, media, error), the identifiers
 * it mentioned, and its reference, e.g.
 * `[cleared: read_file output, 8,123 chars; it mentioned /srv/app/config.yaml, dep-7f3a9c2e, 503] [ref=t.Ab12Cd34Ef56]`.
 * The result's `toolCallId`, `toolName` and `isError` are kept; only its content changes. Returns the
 * result itself when the stub would not be shorter.
 */
export function stubToolResult(
  result: ToolResultPart,
  { ref, identifiers = true, maxIdentifierChars = 240, exclude }: StubToolResultOptions = {},
): ToolResultPart {
  const stub = stubText(result, { ref, identifiers, maxIdentifierChars, exclude });
  return stub.length >= contentSize(result) ? result : withNoteContent(result, stub);
}

/** The stub's text (see {@link stubToolResult}). */
export function stubText(
  result: ToolResultPart,
  { ref, identifiers = true, maxIdentifierChars = 240, exclude }: StubToolResultOptions = {},
): string {
  const parts = toolResultParts(result);
  let chars = 0;
  let media = 0;
  const texts: string[] = [];
  for (const part of parts) {
    if (part?.type === 'text' && typeof part.text === 'string') {
      chars += part.text.length;
      texts.push(part.text);
    } else if (part?.type === 'image' || part?.type === 'file') {
      media++;
    } else if (part?.type === 'opaque' && typeof part.text === 'string') {
      chars += part.text.length;
    }
  }
  const what = [
    `${result.toolName} ${result.isError ? 'error output' : 'output'}, ${chars.toLocaleString('en-US')} chars`,
    media > 0 ? `${media} image${media === 1 ? '' : 's'} or file${media === 1 ? '' : 's'}` : undefined,
  ]
    .filter((item) => item !== undefined)
    .join(', ');
  const found = identifiers
    ? salientIdentifiers(texts.join('\n'), { maxChars: maxIdentifierChars, ...(exclude ? { exclude } : {}) })
    : [];
  const mentions = found.length > 0 ? `; it mentioned ${found.join(', ')}` : '';
  return `${TOOL_RESULT_STUB_PREFIX} ${what}${mentions}]${ref === undefined ? '' : ` ${refAnnotation(ref)}`}`;
}

function contentSize(result: ToolResultPart): number {
  if (typeof result.content === 'string') return result.content.length;
  let size = 0;
  for (const part of toolResultParts(result)) {
    if (part?.type === 'text') size += part.text.length;
    else if (part?.type === 'image' || part?.type === 'file') size += 1_000;
    else size += 100;
  }
  return size;
}

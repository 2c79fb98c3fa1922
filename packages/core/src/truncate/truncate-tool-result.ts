import { isCharacterLimit } from './is-character-limit';
import { type TruncateMode, truncateText } from './truncate-text';

/** Tool results longer than this many characters are cut at storage time (seed FEAT-011). */
export const TOOL_RESULT_MAX_CHARS = 30_000;

/** Options of {@link truncateToolResult}. */
export interface TruncateToolResultOptions {
  /**
   * The longest result kept, in UTF-16 code units, marker included. A non-negative integer or
   * `Infinity`; anything else falls back to the default.
   * @default TOOL_RESULT_MAX_CHARS (30,000)
   */
  maxChars?: number;
  /**
   * `'head'` keeps the beginning (the seed's storage format); `'head-tail'` keeps both ends. An
   * unknown value falls back to the default.
   * @default 'head'
   */
  mode?: TruncateMode;
  /**
   * A reference to the original, written after the marker (see `truncateText`).
   * @default undefined
   */
  ref?: string;
}

/**
 * The storage-time cap for one tool result (seed FEAT-011): a text longer than `maxChars` keeps its
 * head followed by `\n\n[... content truncated, showing first {kept} characters of {total} total ...]`,
 * the whole at most `maxChars` long; a text at or under the limit is returned unchanged.
 *
 * Never throws: a non-string `text` (possible from plain JavaScript) is returned as it is, and
 * invalid options fall back to their defaults. Unicode-safe and line-aware like {@link truncateText}.
 */
export function truncateToolResult(text: string, options: TruncateToolResultOptions = {}): string {
  if (typeof text !== 'string') return text;
  try {
    // Destructured here rather than in the signature so that even `null` options cannot throw.
    const { maxChars = TOOL_RESULT_MAX_CHARS, mode = 'head', ref }: TruncateToolResultOptions = options ?? {};
    return truncateText(text, {
      maxChars: isCharacterLimit(maxChars) ? maxChars : TOOL_RESULT_MAX_CHARS,
      mode: mode === 'head-tail' ? 'head-tail' : 'head',
      ...(typeof ref === 'string' ? { ref } : {}),
    });
  } catch {
    // Unreachable with the checks above; the promise is that storage never fails because of us.
    return text.length > TOOL_RESULT_MAX_CHARS ? text.slice(0, TOOL_RESULT_MAX_CHARS) : text;
  }
}

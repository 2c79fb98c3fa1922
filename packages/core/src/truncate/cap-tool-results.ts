import { listFacts, listMemos, shareListMemos } from '../message/list-memos';
import type { Message, MessagePart, ToolResultPart } from '../message/message';
import type { RecallMarks } from '../recall/recall-marks';
import { isCharacterLimit } from './is-character-limit';
import { limitToolResultText } from './limit-tool-result-text';
import { replaceParts } from './replace-parts';
import { toolResultTextLength } from './tool-result-text-length';
import type { TruncateMode } from './truncate-text';
import { TOOL_RESULT_MAX_CHARS, truncateToolResult } from './truncate-tool-result';
import type { TruncationRecord } from './truncation-record';
import type { TruncationResult } from './truncation-result';

/** Options of {@link capToolResults}. */
export interface CapToolResultsOptions {
  /**
   * The most text characters a tool result keeps, marker included. A non-negative integer or
   * `Infinity`; anything else falls back to the default.
   * @default TOOL_RESULT_MAX_CHARS (30,000)
   */
  maxChars?: number;
  /**
   * Per-tool limits by tool name, overriding `maxChars` (e.g. `{ read_file: 100_000 }`). An invalid
   * value falls back to `maxChars`.
   * @default {}
   */
  limits?: Readonly<Record<string, number>>;
  /**
   * `'head'` keeps the beginning of each result (the seed's storage format); `'head-tail'` keeps both ends.
   * @default 'head'
   */
  mode?: TruncateMode;
  /**
   * Writes a reference to the original next to each cut (`[ref=t.… offset=…]`), so the model can
   * read the rest back with `spillway_recall`.
   * @default undefined (markers without references)
   */
  marks?: RecallMarks;
}

/**
 * The storage-time cap (seed FEAT-011) over a message list: applies {@link truncateToolResult} to the
 * text of every tool result. String content is cut directly; several text parts in one result share
 * the result's budget (short parts stay whole, the longest give up the most); images, files and
 * opaque parts are left alone (see `replaceImages`). `isError` is never changed.
 *
 * Messages without an over-long result are returned as the same objects, and the input is never
 * mutated. Never throws on well-typed input; invalid limits fall back to defaults.
 */
export function capToolResults(
  messages: readonly Message[],
  { maxChars = TOOL_RESULT_MAX_CHARS, limits = {}, mode = 'head', marks }: CapToolResultsOptions = {},
): TruncationResult {
  const defaultLimit = isCharacterLimit(maxChars) ? maxChars : TOOL_RESULT_MAX_CHARS;
  const limitFor = (toolName: string): number => {
    const limit = limits != null && Object.hasOwn(limits, toolName) ? limits[toolName] : undefined;
    return isCharacterLimit(limit) ? limit : defaultLimit;
  };
  const truncateFor =
    (part: ToolResultPart) =>
    (text: string, chars: number, textIndex: number): string =>
      truncateToolResult(text, { maxChars: chars, mode, ref: marks?.toolResult(part, textIndex) });

  // No limit is below this: a message whose longest result is within it needs no look at its parts.
  let smallestLimit = defaultLimit;
  for (const toolName in limits) smallestLimit = Math.min(smallestLimit, limitFor(toolName));

  // A recognized request's memos remember each message's longest result: most messages are
  // passed over without reading them.
  const memos = listMemos(messages);
  // A request is capped more than once (to decide whether to summarize, then to send it): a list
  // whose longest result is known to be within every limit is copied, not read again.
  const facts = memos === undefined ? undefined : listFacts(memos);
  if (facts !== undefined && (facts.longestToolResult ?? Number.POSITIVE_INFINITY) <= smallestLimit) {
    const output = messages.slice();
    shareListMemos(messages, output);
    return { messages: output, records: [] };
  }
  const records: TruncationRecord[] = [];
  let listLongest = -1;
  const output = messages.map((message, messageIndex) => {
    const memo = memos?.[messageIndex];
    if (memo?.longestToolResult !== undefined && memo.longestToolResult <= smallestLimit) {
      listLongest = Math.max(listLongest, memo.longestToolResult);
      return message;
    }
    if (message == null || !Array.isArray(message.content)) {
      if (memo !== undefined) memo.longestToolResult = -1;
      return message;
    }
    const longest = longestToolResult(message);
    if (memo !== undefined) memo.longestToolResult = longest;
    listLongest = Math.max(listLongest, longest);
    if (longest <= smallestLimit) return message;
    // Allocated only when a part changes: this runs over every message on every request.
    let replacements: Map<number, MessagePart> | undefined;
    const content = message.content as readonly MessagePart[];
    for (let partIndex = 0; partIndex < content.length; partIndex++) {
      const part = content[partIndex];
      if (part?.type !== 'tool-result') continue;
      const limit = limitFor(part.toolName);
      // Most results are within their limit: nothing is allocated for them.
      const charsBefore = toolResultTextLength(part);
      if (charsBefore <= limit) continue;
      const limited = limitToolResultText(part, limit, truncateFor(part));
      if (limited === part) continue;
      replacements ??= new Map();
      replacements.set(partIndex, limited);
      records.push({
        kind: 'tool-result',
        messageIndex,
        toolName: part.toolName,
        toolCallId: part.toolCallId,
        charsBefore,
        charsAfter: toolResultTextLength(limited),
      });
    }
    return replacements === undefined ? message : replaceParts(message, replacements);
  });
  if (records.length === 0) shareListMemos(messages, output);
  if (facts !== undefined) facts.longestToolResult = listLongest;
  return { messages: output, records };
}

/** The text characters of the message's longest tool result (`-1` without one). */
function longestToolResult(message: Message): number {
  let longest = -1;
  for (const part of message.content as readonly MessagePart[])
    if (part?.type === 'tool-result') longest = Math.max(longest, toolResultTextLength(part));
  return longest;
}

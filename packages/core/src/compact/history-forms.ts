import type { Estimator } from '../estimate/estimator';
import { callArgumentValues } from '../message/call-argument-values';
import type { Message, ToolCallPart } from '../message/message';
import type { RecallMarks } from '../recall/recall-marks';
import { reduceToolResults } from '../truncate/reduce-tool-results';
import { replaceImages } from '../truncate/replace-images';
import { replaceParts } from '../truncate/replace-parts';
import { shortenPastedBlobs } from '../truncate/shorten-pasted-blobs';
import { stubToolResult } from '../truncate/stub-tool-result';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { CompactionAction } from './compaction-action';

/** How far one message is reduced: kept whole, tool results previewed, or tool results stubbed. */
export type MessageForm = 'verbatim' | 'preview' | 'stub';

/** What the forms of one request share: the budgets, the references, the calls by id. */
export interface FormSettings {
  readonly estimator: Estimator;
  /** Tool results over this many characters are previewed. */
  readonly previewMinChars: number;
  /** Characters a preview keeps (head and tail, marker included). */
  readonly previewKeepChars: number;
  /** Pasted blobs (logs, code, JSON in a user message) over this many characters are shortened. */
  readonly blobMinChars: number;
  /** Characters a shortened blob keeps. */
  readonly blobKeepChars: number;
  /** Whether tool results become stubs in the `stub` form (`false`: they stay as they are). */
  readonly stubResults: boolean;
  /** Whether images and files become placeholders in the reduced forms. */
  readonly imagePlaceholders: boolean;
  /** References for each cut; `undefined` writes markers without references. */
  readonly marks: RecallMarks | undefined;
  /** The reference of one history message (for its pasted blobs), by history index. */
  readonly messageRef: (index: number) => string | undefined;
  /** The call of a result, by tool-call id (its arguments are not repeated in the stub). */
  readonly callOf: (toolCallId: string) => ToolCallPart | undefined;
}

/** One message in one form, what it cost and what was cut. */
export interface FormedMessage {
  readonly message: Message;
  /** Raw tokens. */
  readonly tokens: number;
  /** Truncation records, `messageIndex` 0 (the caller offsets them). */
  readonly records: readonly TruncationRecord[];
  /** Raw tokens each action took off the message. */
  readonly savings: Partial<Record<CompactionAction, number>>;
}

/**
 * The message `message` at history index `index` in form `form`:
 * - `verbatim`: as it is;
 * - `preview`: tool results over `previewMinChars` keep their head and tail and name the identifiers
 *   of the cut part (see `headTailPreview`), images and files become
 *   placeholders, pasted blobs in the user's text are shortened;
 * - `stub`: every tool result becomes a one-line stub (what it was, the identifiers it mentioned, its
 *   reference), images and files become placeholders, pasted blobs are shortened.
 * The user's prose, the assistant's text and tool calls are never changed; a result a structural
 * stage already replaced by a note (`original` tells) keeps its note.
 */
export function formMessage(
  message: Message,
  index: number,
  form: MessageForm,
  settings: FormSettings,
  original: Message = message,
): FormedMessage {
  const { estimator, marks } = settings;
  const tokensBefore = estimator.countMessage(message);
  if (form === 'verbatim' || (typeof message.content === 'string' && message.role !== 'user')) {
    return { message, tokens: tokensBefore, records: [], savings: {} };
  }
  const records: TruncationRecord[] = [];
  const savings: Partial<Record<CompactionAction, number>> = {};
  let current = message;
  let tokens = tokensBefore;
  const step = (action: CompactionAction, next: Message, added: readonly TruncationRecord[]) => {
    if (next === current) return;
    const after = estimator.countMessage(next);
    savings[action] = (savings[action] ?? 0) + tokens - after;
    tokens = after;
    current = next;
    records.push(...added);
  };
  if (message.role === 'user') {
    const shortened = shortenPastedBlobs(current, {
      minChars: settings.blobMinChars,
      keepChars: settings.blobKeepChars,
      ref: settings.messageRef(index),
    });
    step('shorten-pasted-blobs', shortened.message, []);
  }
  if (settings.imagePlaceholders) {
    const replaced = replaceImages([current], { before: 1, ...(marks ? { marks } : {}) });
    step('replace-images', replaced.messages[0]!, replaced.records);
  }
  if (form === 'preview') {
    const reduced = reduceToolResults([current], {
      estimator,
      targetTokens: Number.NEGATIVE_INFINITY,
      minChars: settings.previewMinChars,
      keepChars: settings.previewKeepChars,
      mentions: true,
      ...(marks ? { marks } : {}),
    });
    step('reduce-tool-results', reduced.messages[0]!, reduced.records);
  } else if (settings.stubResults && Array.isArray(current.content)) {
    const replacements = new Map<number, Message['content'][number] & object>();
    const stubRecords: TruncationRecord[] = [];
    const given = Array.isArray(message.content) ? message.content : undefined;
    const originalParts = Array.isArray(original.content) ? original.content : undefined;
    current.content.forEach((part, partIndex) => {
      if (part?.type !== 'tool-result') return;
      // A note a structural stage wrote (stale, duplicate, near-duplicate) says more than a stub.
      if (originalParts !== undefined && given?.[partIndex] !== originalParts[partIndex]) return;
      const call = settings.callOf(part.toolCallId);
      const stubbed = stubToolResult(part, {
        ref: marks?.toolResult(part, 0),
        exclude: call === undefined ? undefined : callArgumentValues(call),
      });
      if (stubbed === part) return;
      replacements.set(partIndex, stubbed);
      stubRecords.push({
        kind: 'tool-result',
        messageIndex: 0,
        toolName: part.toolName,
        toolCallId: part.toolCallId,
        charsBefore: textLength(part.content),
        charsAfter: textLength(stubbed.content),
      });
    });
    step('stub-tool-results', replaceParts(current, replacements), stubRecords);
  }
  return { message: current, tokens, records, savings };
}

function textLength(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let length = 0;
  for (const part of content)
    if (part?.type === 'text' && typeof part.text === 'string') length += part.text.length;
  return length;
}

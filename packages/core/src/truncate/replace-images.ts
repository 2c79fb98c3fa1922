import { InvalidConfigError } from '../errors/invalid-config-error';
import type {
  FilePart,
  ImagePart,
  Message,
  MessagePart,
  TextPart,
  ToolResultContentPart,
  ToolResultPart,
} from '../message/message';
import type { RecallMarks } from '../recall/recall-marks';
import { imagePlaceholder, imagePlaceholderWithRef } from './image-placeholder';
import { replaceParts } from './replace-parts';
import type { TruncationRecord } from './truncation-record';
import type { TruncationResult } from './truncation-result';

/** Options of {@link replaceImages}. */
export interface ReplaceImagesOptions {
  /**
   * Only messages with an index below this are changed: pass the index where the protected recent
   * window starts. `Infinity` (or the list length) means every message; `0` or less means none.
   */
  before: number;
  /**
   * Also replace files that are not images (PDFs, audio, …) with `[file: …]` placeholders. Files
   * whose media type is `image/*` (or a bare `image`) are always treated as images.
   * @default false
   */
  includeFiles?: boolean;
  /**
   * Only replace media inside tool results (for providers that cannot send media there), leaving
   * images the user or the assistant attached alone.
   * @default false
   */
  toolResultsOnly?: boolean;
  /**
   * Writes a reference to the original after each placeholder (`[image: shot.png, 1280x800] [ref=i.…]`),
   * so the model can get it back with `spillway_recall`.
   * @default undefined (placeholders without references)
   */
  marks?: RecallMarks;
}

/**
 * Replaces the images of older messages with one-line text placeholders (see {@link imagePlaceholder}),
 * e.g. `[image: shot.png, 1280x800, 312 KB]`: images in user and assistant messages and images
 * inside tool-result content alike. System messages are never changed.
 *
 * Each image becomes a new `text` part in the same place; other parts keep their identity, messages
 * without images are returned as the same objects, the input is never mutated, and tool results keep
 * their `toolCallId` and `isError`. Inside a tool result whose content ends up all text, the text
 * parts are joined into one (newline-separated): providers that write one function response per text
 * part (Google Gemini) would otherwise answer one call with several responses and be rejected.
 *
 * @throws {InvalidConfigError} when `before` is not a number (or is NaN).
 */
export function replaceImages(
  messages: readonly Message[],
  { before, includeFiles = false, toolResultsOnly = false, marks }: ReplaceImagesOptions,
): TruncationResult {
  if (typeof before !== 'number' || Number.isNaN(before)) {
    throw new InvalidConfigError({
      option: 'before',
      value: before,
      message: 'expected a message index (a number; Infinity for all messages)',
    });
  }
  const isReplaced = (part: MessagePart | ToolResultContentPart | undefined): part is ImagePart | FilePart =>
    part?.type === 'image' || (part?.type === 'file' && (includeFiles || isImageMediaType(part.mediaType)));

  const records: TruncationRecord[] = [];
  const output = messages.map((message, messageIndex) => {
    if (messageIndex >= before || message == null || message.role === 'system') return message;
    if (!Array.isArray(message.content)) return message;
    const replacements = new Map<number, MessagePart>();
    message.content.forEach((part, partIndex) => {
      if (!toolResultsOnly && isReplaced(part)) {
        const placeholder = placeholderPart(part, marks);
        replacements.set(partIndex, placeholder);
        records.push(imageRecord(part, placeholder, messageIndex));
      } else if (part?.type === 'tool-result' && Array.isArray(part.content)) {
        const replaced = replaceInToolResult(part, isReplaced, messageIndex, records, marks);
        if (replaced !== part) replacements.set(partIndex, replaced);
      }
    });
    return replaceParts(message, replacements);
  });
  return { messages: output, records };
}

function replaceInToolResult(
  result: ToolResultPart,
  isReplaced: (part: ToolResultContentPart | undefined) => part is ImagePart | FilePart,
  messageIndex: number,
  records: TruncationRecord[],
  marks: RecallMarks | undefined,
): ToolResultPart {
  const content = result.content as readonly ToolResultContentPart[];
  let parts: ToolResultContentPart[] | undefined;
  content.forEach((part, partIndex) => {
    if (!isReplaced(part)) return;
    const placeholder = placeholderPart(part, marks);
    parts ??= content.slice();
    parts[partIndex] = placeholder;
    records.push({
      ...imageRecord(part, placeholder, messageIndex),
      toolName: result.toolName,
      toolCallId: result.toolCallId,
    });
  });
  if (parts === undefined) return result;
  // One text part per result where the original had media (see above).
  if (parts.every((part) => part?.type === 'text')) {
    parts = [{ type: 'text', text: parts.map((part) => (part as TextPart).text).join('\n') }];
  }
  return { ...result, content: parts };
}

function placeholderPart(part: ImagePart | FilePart, marks: RecallMarks | undefined): TextPart {
  return { type: 'text', text: imagePlaceholderWithRef(part, marks?.image(part)) };
}

function imageRecord(
  part: ImagePart | FilePart,
  placeholder: TextPart,
  messageIndex: number,
): TruncationRecord {
  return {
    kind: 'image',
    messageIndex,
    charsBefore: inlineLength(part),
    charsAfter: placeholder.text.length,
  };
}

/** Length of the inline data: base64 characters, bytes, or the length of a `data:` URL; 0 for remote URLs. */
function inlineLength(part: ImagePart | FilePart): number {
  if (typeof part.data === 'string') return part.data.length;
  if (part.data != null && typeof part.data.byteLength === 'number') return part.data.byteLength;
  if (typeof part.url === 'string' && part.url.slice(0, 5).toLowerCase() === 'data:') return part.url.length;
  return 0;
}

/** `image/png` and the like, and a bare `image` (AI SDK 7 writes that when the subtype is unknown). */
function isImageMediaType(mediaType: unknown): boolean {
  if (typeof mediaType !== 'string') return false;
  const type = mediaType.toLowerCase();
  return type === 'image' || type.startsWith('image/');
}

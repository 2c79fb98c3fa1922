import type { Message, MessagePart } from '../message/message';
import { headTailPreview } from './head-tail-preview';

/** Options of {@link shortenPastedBlobs}. */
export interface ShortenPastedBlobsOptions {
  /**
   * A blob shorter than this (characters) is left whole.
   * @default 1_200
   */
  minChars?: number;
  /**
   * Characters a shortened blob keeps, head and tail together, marker included.
   * @default 600
   */
  keepChars?: number;
  /** The reference of the message (its span), written in the marker so the model can read it back. */
  ref?: string | undefined;
}

/** What {@link shortenPastedBlobs} returns. */
export interface ShortenPastedBlobsResult {
  /** The message, the same object when no blob was shortened. */
  message: Message;
  /** Characters removed. */
  charsRemoved: number;
}

/**
 * Shortens what a user pasted into a message — logs, code, JSON, stack traces — while every word of
 * their prose stays as written. A **blob** is a fenced code block, or a run of at least
 * `MIN_BLOB_LINES` lines that do not read as prose (most do not end a sentence, or are mostly
 * symbols and digits); one of `minChars` or more keeps its head and tail with the head+tail
 * marker, the message's reference, and the identifiers found in the cut part
 * (`(the cut part mentioned …)`), `keepChars` in all (see `headTailPreview`). Only text parts of user messages are read; images, files and
 * every other part stay as they are.
 */
export function shortenPastedBlobs(
  message: Message,
  { minChars = 1_200, keepChars = 600, ref }: ShortenPastedBlobsOptions = {},
): ShortenPastedBlobsResult {
  if (message.role !== 'user') return { message, charsRemoved: 0 };
  let charsRemoved = 0;
  const shorten = (text: string): string => {
    if (text.length < minChars) return text;
    const shortened = shortenText(text, minChars, keepChars, ref);
    charsRemoved += text.length - shortened.length;
    return shortened;
  };
  if (typeof message.content === 'string') {
    const content = shorten(message.content);
    return content === message.content
      ? { message, charsRemoved: 0 }
      : { message: { ...message, content }, charsRemoved };
  }
  let parts: MessagePart[] | undefined;
  message.content.forEach((part, index) => {
    if (part?.type !== 'text') return;
    const text = shorten(part.text);
    if (text === part.text) return;
    parts ??= message.content.slice() as MessagePart[];
    parts[index] = { ...part, text };
  });
  return parts === undefined
    ? { message, charsRemoved: 0 }
    : { message: { ...message, content: parts }, charsRemoved };
}

/** The fewest lines a run of non-prose lines needs to count as a blob (fenced blocks always do). */
export const MIN_BLOB_LINES = 6;

function shortenText(text: string, minChars: number, keepChars: number, ref: string | undefined): string {
  const blobs = findBlobs(text).filter(({ start, end }) => end - start >= minChars);
  if (blobs.length === 0) return text;
  let output = '';
  let position = 0;
  for (const { start, end } of blobs) {
    output += text.slice(position, start);
    const blob = text.slice(start, end);
    output += headTailPreview(blob, { maxChars: keepChars, ref });
    position = end;
  }
  return output + text.slice(position);
}

/** Character ranges of the blobs in `text`, in order. */
export function findBlobs(text: string): { start: number; end: number }[] {
  const blobs: { start: number; end: number }[] = [];
  const lines = text.split('\n');
  let offset = 0;
  let fenceStart: number | undefined;
  let runStart: number | undefined;
  let runLines = 0;
  let runEnd = 0;
  const closeRun = () => {
    if (runStart !== undefined && runLines >= MIN_BLOB_LINES) blobs.push({ start: runStart, end: runEnd });
    runStart = undefined;
    runLines = 0;
  };
  for (const line of lines) {
    const lineEnd = offset + line.length;
    if (/^\s*(?:```|~~~)/.test(line)) {
      if (fenceStart === undefined) {
        closeRun();
        fenceStart = offset;
      } else {
        blobs.push({ start: fenceStart, end: lineEnd });
        fenceStart = undefined;
      }
    } else if (fenceStart === undefined) {
      if (line.trim() !== '' && !readsAsProse(line)) {
        runStart ??= offset;
        runLines++;
        runEnd = lineEnd;
      } else if (line.trim() !== '' || runLines === 0) {
        closeRun();
      }
    }
    offset = lineEnd + 1;
  }
  if (fenceStart !== undefined) blobs.push({ start: fenceStart, end: text.length });
  closeRun();
  return blobs;
}

/** A line a person wrote as a sentence: mostly letters and spaces, ending like a sentence or a question. */
function readsAsProse(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed.length < 2) return true;
  let letters = 0;
  for (const character of trimmed) if (/[\p{L}\s]/u.test(character)) letters++;
  const wordy = letters / [...trimmed].length >= 0.8;
  const ends = /[.!?:;。！？」)]$/u.test(trimmed) || trimmed.split(/\s+/).length >= 12;
  return wordy && ends;
}

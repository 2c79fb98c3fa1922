import { shareBudget } from '@spillway/core';
import type { ToolBudget } from '../options/truncation-options';
import type { ResultStore } from '../paging/result-store';
import type { CallToolResult } from '../sdk/mcp-sdk';
import { countTextTokens } from './count-text-tokens';
import { fitText, type TextCut } from './fit-text';
import { base64ByteLength, mediaPlaceholder } from './media-placeholder';
import { shrinkStructuredContent } from './shrink-structured-content';

/** Options of {@link truncateCallToolResult}. */
export interface TruncateCallToolResultOptions {
  /** The budgets of the tool that produced the result. */
  budget: ToolBudget;
  /**
   * Where full texts are kept for paging; without it results are cut without a way back.
   * @default undefined (no paging)
   */
  store?: ResultStore | undefined;
  /**
   * The paging tool's name, quoted in markers.
   * @default 'spillway_read_result'
   */
  readToolName?: string;
  /**
   * Checks a shortened `structuredContent` (against the tool's `outputSchema`); a candidate it
   * rejects is not used. When no candidate fits and passes, `structuredContent` is dropped.
   * @default accepts everything
   */
  validateStructuredContent?: ((value: Record<string, unknown>) => boolean) | undefined;
}

/** What {@link truncateCallToolResult} did. */
export interface TruncateCallToolResultResult {
  /** The result to send downstream: the very same object when nothing had to change. */
  readonly result: CallToolResult;
  /** Whether `structuredContent` was removed because no shortened form fit and stayed valid. */
  readonly structuredContentDropped: boolean;
  /** One line per change, for logs. */
  readonly changes: readonly string[];
}

/** The key a note is added under in shortened `structuredContent`, when the output schema allows it. */
export const STRUCTURED_NOTE_KEY = 'spillway_note';

type ContentBlock = CallToolResult['content'][number];

interface TextSlot {
  readonly index: number;
  readonly text: string;
  readonly tokenCount: number;
}

/**
 * Keeps one `tools/call` result within its budgets:
 * - text blocks and embedded text resources share `maxResultTokens` (water-filling: small blocks stay
 *   whole, large ones are cut to a common cap) and become head + marker + tail, the marker giving the
 *   totals and, with a store, the paging tool call that reads the rest;
 * - inline images, audio and resource blobs beyond `maxMediaBytes` (in order) become text
 *   placeholders with media type, dimensions and size; base64 is never cut;
 * - `structuredContent` is shortened to the same token budget and must pass
 *   `validateStructuredContent`, else it is dropped (and a pageable text form is added when the
 *   content has no text).
 * Blocks of unknown types pass through untouched. The input is never mutated.
 */
export function truncateCallToolResult(
  result: CallToolResult,
  {
    budget,
    store,
    readToolName = 'spillway_read_result',
    validateStructuredContent,
  }: TruncateCallToolResultOptions,
): TruncateCallToolResultResult {
  const changes: string[] = [];
  const source: readonly ContentBlock[] = Array.isArray(result.content) ? result.content : [];
  let content: ContentBlock[] | undefined;
  const replace = (index: number, block: ContentBlock) => {
    content ??= [...source];
    content[index] = block;
  };

  // Media: kept in order while they fit the byte budget.
  if (budget.mediaPolicy === 'placeholder') {
    let mediaBytes = 0;
    source.forEach((block, index) => {
      const media = describeMedia(block);
      if (media === undefined) return;
      const bytes = base64ByteLength(media.data);
      if (mediaBytes + bytes <= budget.maxMediaBytes) {
        mediaBytes += bytes;
        return;
      }
      const text = mediaPlaceholder(media, { maxMediaBytes: budget.maxMediaBytes });
      replace(index, { type: 'text', text });
      changes.push(`content[${index}]: ${text}`);
    });
  }

  // Text: one shared token budget.
  const slots: TextSlot[] = [];
  source.forEach((block, index) => {
    const text = textOf(block);
    if (text !== undefined && (content === undefined || content[index] === block)) {
      slots.push({ index, text, tokenCount: countTextTokens(text) });
    }
  });
  const allowances = shareBudget(
    slots.map((slot) => slot.tokenCount),
    budget.maxResultTokens,
  );
  slots.forEach((slot, position) => {
    const allowance = allowances[position] ?? slot.tokenCount;
    if (allowance >= slot.tokenCount) return;
    const { text, cut } = cutText(slot.text, slot.tokenCount, allowance, budget, store, readToolName);
    if (cut === undefined) return;
    replace(slot.index, withText(source[slot.index] as ContentBlock, text));
    changes.push(
      `content[${slot.index}]: kept ${cut.headEnd + cut.total - cut.tailStart} of ${cut.total} characters`,
    );
  });

  // Structured content: its own copy of the budget, and it must stay valid.
  let structuredContent = result.structuredContent;
  let structuredContentDropped = false;
  if (isPlainObject(structuredContent)) {
    const original = structuredContent;
    const shrunk = shrinkStructuredContent(original, {
      maxTokens: budget.maxResultTokens,
      headRatio: budget.headRatio,
      accept: (value) => validateStructuredContent?.(value) ?? true,
    });
    if (shrunk.value === undefined) {
      structuredContent = undefined;
      structuredContentDropped = true;
      changes.push(
        `structuredContent: dropped (~${shrunk.tokenCount} tokens; no shortened form fit and stayed valid)`,
      );
      if (!source.some((block) => textOf(block) !== undefined)) {
        const { text } = cutText(
          shrunk.json,
          shrunk.tokenCount,
          budget.maxResultTokens,
          budget,
          store,
          readToolName,
        );
        content ??= [...source];
        content.push({ type: 'text', text });
      }
    } else if (shrunk.value !== original) {
      const id = store?.put(shrunk.json, shrunk.json.length / Math.max(1, shrunk.tokenCount));
      const note =
        `spillway-mcp shortened this structured content (~${shrunk.tokenCount} tokens) to fit ~${budget.maxResultTokens}: ` +
        `${shrunk.notes.join('; ')}.` +
        (id === undefined ? '' : ` Full JSON: call ${readToolName} with {"id":"${id}","offset":0}.`);
      const withNote = { ...shrunk.value, [STRUCTURED_NOTE_KEY]: note };
      const noteAllowed =
        !(STRUCTURED_NOTE_KEY in shrunk.value) &&
        countTextTokens(JSON.stringify(withNote)) <= budget.maxResultTokens &&
        (validateStructuredContent?.(withNote) ?? true);
      structuredContent = noteAllowed ? withNote : shrunk.value;
      content ??= [...source];
      content.push({ type: 'text', text: `[${note}]` });
      changes.push(`structuredContent: ${shrunk.notes.join('; ')}`);
    }
  }

  if (content === undefined && structuredContent === result.structuredContent) {
    return { result, structuredContentDropped, changes };
  }
  const output: CallToolResult = { ...result, content: content ?? [...source] };
  if (structuredContent === undefined) delete output.structuredContent;
  else output.structuredContent = structuredContent;
  return { result: output, structuredContentDropped, changes };
}

function cutText(
  text: string,
  tokenCount: number,
  maxTokens: number,
  budget: ToolBudget,
  store: ResultStore | undefined,
  readToolName: string,
): { text: string; cut: TextCut | undefined } {
  const id = store?.put(text, text.length / Math.max(1, tokenCount));
  const marker = (cut: TextCut) => {
    const removed = cut.tailStart - cut.headEnd;
    const paging =
      id === undefined
        ? ''
        : ` To read the cut part, call the tool ${readToolName} with {"id":"${id}","offset":${cut.headEnd}}.`;
    return (
      `\n\n[spillway-mcp: cut ${removed} of ${cut.total} characters (~${cut.tokenCount} tokens in all) from this result; ` +
      `showing the first ${cut.headEnd} and the last ${cut.total - cut.tailStart}.${paging}]\n\n`
    );
  };
  return fitText(text, { maxTokens, headRatio: budget.headRatio, marker, tokenCount });
}

function textOf(block: ContentBlock): string | undefined {
  if (block.type === 'text' && typeof block.text === 'string') return block.text;
  if (block.type === 'resource' && typeof (block.resource as { text?: unknown }).text === 'string') {
    return (block.resource as { text: string }).text;
  }
  return undefined;
}

function withText(block: ContentBlock, text: string): ContentBlock {
  if (block.type === 'resource') return { ...block, resource: { ...block.resource, text } } as ContentBlock;
  return { ...block, text } as ContentBlock;
}

function describeMedia(block: ContentBlock) {
  if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string') {
    return { kind: block.type, data: block.data, mediaType: block.mimeType };
  }
  if (block.type === 'resource') {
    const resource = block.resource as { blob?: unknown; uri?: string; mimeType?: string };
    if (typeof resource.blob === 'string') {
      return {
        kind: 'resource' as const,
        data: resource.blob,
        mediaType: resource.mimeType,
        uri: resource.uri,
      };
    }
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

import { base64ByteLength, RECALL_TOOL_NAME, shareBudget } from '@spillway/core';
import { LargeText, type TextValue } from '../large-text/large-text';
import type { ToolBudget } from '../options/truncation-options';
import type { RecallStore } from '../recall/recall-store';
import type { CallToolResult } from '../sdk/mcp-sdk';
import { countTextTokens } from './count-text-tokens';
import { fitText, type TextCut } from './fit-text';
import { mediaPlaceholder } from './media-placeholder';
import { shrinkStructuredContent } from './shrink-structured-content';

/** Where the full texts of cut blocks are kept, and for whom. */
export interface RecallTarget {
  readonly store: RecallStore;
  /** The session the texts belong to: only it can read them back. */
  readonly owner: string;
}

/** Options of {@link truncateContent}. */
export interface TruncateContentOptions {
  /** The budgets that apply (of the tool, or of resources or prompts). */
  budget: ToolBudget;
  /**
   * Where full texts are kept for `spillway_recall`; without it texts are cut without a way back.
   * @default undefined (no recall)
   */
  recall?: RecallTarget | undefined;
  /**
   * What the blocks are, as markers name it: `'result'`, `'resource'`, `'prompt'`.
   * @default 'result'
   */
  subject?: string;
  /**
   * A tool result's `structuredContent`, held to the same budget.
   * @default undefined
   */
  structuredContent?: unknown;
  /**
   * Checks a shortened `structuredContent` (against the tool's `outputSchema`); a candidate it
   * rejects is not used. When no candidate fits and passes, `structuredContent` is dropped.
   * @default accepts everything
   */
  validateStructuredContent?: ((value: Record<string, unknown>) => boolean) | undefined;
}

/** What {@link truncateContent} did. */
export interface TruncateContentResult {
  /**
   * The blocks, position for position (`undefined` where a block was folded into the note before
   * it); the very same array when nothing changed.
   */
  readonly blocks: readonly (ContentBlock | undefined)[];
  /** Text blocks to add after the content (a note on shortened or dropped `structuredContent`). */
  readonly appended: readonly ContentBlock[];
  /** The structured content to send: the same value, a shortened one, or `undefined` when dropped. */
  readonly structuredContent: unknown;
  /** Whether `structuredContent` was removed because no shortened form fit and stayed valid. */
  readonly structuredContentDropped: boolean;
  /** One line per change, for logs. */
  readonly changes: readonly string[];
}

/** The key a note is added under in shortened `structuredContent`, when the output schema allows it. */
export const STRUCTURED_NOTE_KEY = 'spillway_note';

/** A content block of a tool result, a prompt message or (wrapped) a resource. */
export type ContentBlock = CallToolResult['content'][number];

interface TextSlot {
  readonly index: number;
  /** A large text when the upstream's text was read in pieces (see `LargeText`). */
  readonly text: TextValue;
  readonly tokenCount: number;
}

/**
 * Keeps the content of one answer (a `tools/call` result, a `resources/read` result, a `prompts/get`
 * result) within its budgets:
 * - text blocks and embedded text resources share `maxResultTokens` (water-filling: small blocks stay
 *   whole, large ones are cut to a common cap) and become head + marker + tail, the marker giving the
 *   totals and, with recall, the `spillway_recall` call that reads (or searches) the rest;
 * - inline images, audio and resource blobs beyond `maxMediaBytes` (in order) become text
 *   placeholders with media type, dimensions and size; base64 is never cut;
 * - `structuredContent` is shortened to the same token budget and must pass
 *   `validateStructuredContent`, else it is dropped (and a text form is added when the content has
 *   no text).
 * Blocks of unknown types pass through untouched. The input is never mutated.
 */
export function truncateContent(
  source: readonly ContentBlock[],
  {
    budget,
    recall,
    subject = 'result',
    structuredContent: originalStructuredContent,
    validateStructuredContent,
  }: TruncateContentOptions,
): TruncateContentResult {
  if (fitsWithoutCounting(source, originalStructuredContent, budget)) {
    return {
      blocks: source,
      appended: [],
      structuredContent: originalStructuredContent,
      structuredContentDropped: false,
      changes: [],
    };
  }
  const changes: string[] = [];
  // The texts of this result kept for paging: a later one must not evict an earlier one (its marker
  // already points at it), e.g. server-filesystem's 50 MB file as text and again as structuredContent.
  const pageable = recall === undefined ? undefined : new PagingTarget(recall, budget.maxResultTokens);
  let content: ContentBlock[] | undefined;
  const replace = (index: number, block: ContentBlock) => {
    content ??= [...source];
    content[index] = block;
  };

  // Media: kept in order while they fit the byte budget. Placeholders take from the token budget.
  let reservedTokens = 0;
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
      const text = mediaPlaceholder(media, { maxMediaBytes: budget.maxMediaBytes, subject });
      replace(index, { type: 'text', text });
      reservedTokens += countTextTokens(text);
      changes.push(`content[${index}]: ${text}`);
    });
  }

  // Structured content: its own copy of the budget, and it must stay valid. Shortened first, so that
  // the text block saying so is taken from the content's budget; stored for paging after the texts.
  let structuredContent = originalStructuredContent;
  let structuredContentDropped = false;
  const shrunk = isPlainObject(structuredContent)
    ? shrinkStructuredContent(structuredContent, {
        maxTokens: budget.maxResultTokens,
        headRatio: budget.headRatio,
        accept: (value) => validateStructuredContent?.(value) ?? true,
      })
    : undefined;
  const structuredNote = (ref: string | undefined) =>
    shrunk === undefined
      ? ''
      : `spillway-mcp shortened this structured content (~${shrunk.tokenCount} tokens) to fit ~${budget.maxResultTokens}: ` +
        `${shrunk.notes.join('; ')}.` +
        (ref === undefined ? '' : ` Full JSON: call ${RECALL_TOOL_NAME} with {"ref":"${ref}","offset":0}.`);
  if (shrunk?.value !== undefined && shrunk.value !== structuredContent) {
    // Counted without its ref (random, not known yet), which adds one token per character at most.
    reservedTokens +=
      countTextTokens(`[${structuredNote(pageable === undefined ? undefined : '')}]`) +
      (pageable === undefined ? 0 : NOTE_REF_TOKENS);
  }

  // Text: one shared token budget, less what placeholders and the note take.
  const slots: TextSlot[] = [];
  source.forEach((block, index) => {
    const text = textOf(block);
    if (text !== undefined && (content === undefined || content[index] === block)) {
      slots.push({ index, text, tokenCount: countTextTokens(text) });
    }
  });
  const textBudget = Math.max(0, budget.maxResultTokens - reservedTokens);
  // A cut block costs at least its marker: with too many blocks to cut, the first ones share the
  // budget and the rest are folded into one block that says how to read them (paging).
  const kept = keptSlotCount(slots, textBudget);
  const allowances = shareBudget(
    slots.slice(0, kept).map((slot) => slot.tokenCount),
    kept === slots.length ? textBudget : Math.max(0, textBudget - MIN_CUT_TOKENS),
  );
  slots.slice(0, kept).forEach((slot, position) => {
    const allowance = allowances[position] ?? slot.tokenCount;
    if (allowance >= slot.tokenCount) return;
    const { text, cut } = cutText(slot.text, slot.tokenCount, allowance, budget, pageable, subject);
    if (cut === undefined) return;
    replace(slot.index, withText(source[slot.index] as ContentBlock, text));
    changes.push(
      `content[${slot.index}]: kept ${cut.headEnd + cut.total - cut.tailStart} of ${cut.total} characters`,
    );
  });
  const removed = new Set<number>();
  const folded = slots.slice(kept);
  const [firstFolded] = folded;
  if (firstFolded !== undefined) {
    const joined = joinTexts(
      folded.flatMap((slot, position) => {
        const block = source[slot.index] as ContentBlock;
        const separator = position === 0 ? [] : ['\n\n'];
        return block.type === 'resource'
          ? [...separator, `[resource: ${block.resource.uri}]\n`, slot.text]
          : [...separator, slot.text];
      }),
    );
    const tokenCount = folded.reduce((sum, slot) => sum + slot.tokenCount, 0);
    const ref = pageable?.put(joined, tokenCount);
    const paging =
      ref === undefined
        ? ''
        : ` To read them (joined by blank lines), call the tool ${RECALL_TOOL_NAME} with {"ref":"${ref}","offset":0}; add "search":"<pattern>" to search them.`;
    const text = `[spillway-mcp: ${folded.length} more text blocks (${joined.length} characters, ~${tokenCount} tokens) not shown, to keep this ${subject} within its budget.${paging}]`;
    replace(firstFolded.index, { type: 'text', text });
    for (const slot of folded.slice(1)) removed.add(slot.index);
    changes.push(`content[${firstFolded.index}…]: folded ${folded.length} text blocks into one note`);
  }

  const appended: ContentBlock[] = [];
  if (shrunk !== undefined && shrunk.value === undefined) {
    structuredContent = undefined;
    structuredContentDropped = true;
    changes.push(
      `structuredContent: dropped (~${shrunk.tokenCount} tokens; no shortened form fit and stayed valid)`,
    );
    if (!source.some((block) => textOf(block) !== undefined)) {
      const { text } = cutText(shrunk.json, shrunk.tokenCount, textBudget, budget, pageable, subject);
      appended.push({ type: 'text', text: text.toString() });
    }
  } else if (shrunk?.value !== undefined && shrunk.value !== structuredContent) {
    const ref = pageable?.put(shrunk.json, shrunk.tokenCount);
    const note = structuredNote(ref);
    const withNote = { ...shrunk.value, [STRUCTURED_NOTE_KEY]: note };
    const noteAllowed =
      !(STRUCTURED_NOTE_KEY in shrunk.value) &&
      countTextTokens(JSON.stringify(withNote)) <= budget.maxResultTokens &&
      (validateStructuredContent?.(withNote) ?? true);
    structuredContent = noteAllowed ? withNote : shrunk.value;
    appended.push({ type: 'text', text: `[${note}]` });
    changes.push(`structuredContent: ${shrunk.notes.join('; ')}`);
  }
  const blocks: readonly (ContentBlock | undefined)[] =
    content === undefined
      ? source
      : removed.size === 0
        ? content
        : content.map((block, index) => (removed.has(index) ? undefined : block));
  return { blocks, appended, structuredContent, structuredContentDropped, changes };
}

function cutText<T extends TextValue>(
  text: T,
  tokenCount: number,
  maxTokens: number,
  budget: ToolBudget,
  pageable: PagingTarget | undefined,
  subject: string,
): { text: T | string; cut: TextCut | undefined } {
  const ref = pageable?.put(text, tokenCount);
  const marker = (cut: TextCut) => {
    const removed = cut.tailStart - cut.headEnd;
    const paging =
      ref === undefined
        ? ''
        : ` To read the cut part, call the tool ${RECALL_TOOL_NAME} with {"ref":"${ref}","offset":${cut.headEnd}}; add "search":"<pattern>" to search it.`;
    return (
      `\n\n[spillway-mcp: cut ${removed} of ${cut.total} characters (~${cut.tokenCount} tokens in all) from this ${subject}; ` +
      `showing the first ${cut.headEnd} and the last ${cut.total - cut.tailStart}.${paging}]\n\n`
    );
  };
  return fitText(text, { maxTokens, headRatio: budget.headRatio, marker, tokenCount });
}

/**
 * Fewest tokens a cut text block may get: its marker takes up to ~105 of them (a random ref is dear).
 * Also what is set aside for the note standing for the blocks folded away when there are too many
 * to cut each.
 */
const MIN_CUT_TOKENS = 130;

/**
 * How many of the text slots, from the first, can share `budget` (less the folded blocks' note when
 * not all of them) so that each is either whole or gets at least `MIN_CUT_TOKENS`.
 */
function keptSlotCount(slots: readonly TextSlot[], budget: number): number {
  const feasible = (count: number) => {
    const tokenCounts = slots.slice(0, count).map((slot) => slot.tokenCount);
    const allowances = shareBudget(
      tokenCounts,
      count === slots.length ? budget : Math.max(0, budget - MIN_CUT_TOKENS),
    );
    return tokenCounts.every(
      (tokenCount, index) => (allowances[index] ?? 0) >= Math.min(tokenCount, MIN_CUT_TOKENS),
    );
  };
  if (feasible(slots.length)) return slots.length;
  // Fewer slots never get less each (max-min fairness), so the largest feasible count is found by halving.
  let low = 0;
  let high = slots.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (feasible(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Tokens set aside for the ref in the structured-content note (22 base64url characters, one token each at most). */
const NOTE_REF_TOKENS = 24;

/** Puts the texts of one answer into the store, none evicting another, each paged at the budget in force. */
class PagingTarget {
  private readonly refs: string[] = [];
  private readonly recall: RecallTarget;
  private readonly pageTokens: number;

  constructor(recall: RecallTarget, pageTokens: number) {
    this.recall = recall;
    this.pageTokens = pageTokens;
  }

  put(text: TextValue, tokenCount: number): string | undefined {
    const ref = this.recall.store.put(this.recall.owner, text, {
      charsPerToken: text.length / Math.max(1, tokenCount),
      pageTokens: Number.isFinite(this.pageTokens) ? this.pageTokens : undefined,
      keep: this.refs,
    });
    if (ref !== undefined) this.refs.push(ref);
    return ref;
  }
}

/**
 * The fast path of a small answer: only text blocks (no media, no structured content) whose UTF-16
 * length, times 4 (the estimate never gives more than 3 tokens per code unit: a property test checks
 * it), fits the budget. Nothing to count, nothing to cut.
 */
function fitsWithoutCounting(
  source: readonly ContentBlock[],
  structuredContent: unknown,
  budget: ToolBudget,
): boolean {
  if (structuredContent !== undefined) return false;
  let chars = 0;
  for (const block of source) {
    if (block === null || typeof block !== 'object') return false;
    if (block.type === 'text' && typeof block.text === 'string') chars += block.text.length;
    else if (block.type !== 'resource_link') return false;
  }
  return chars * 4 <= budget.maxResultTokens;
}

/** The text of a text block or an embedded text resource (a large text when it was read in pieces). */
function textOf(block: ContentBlock): TextValue | undefined {
  if (block.type === 'text' && isText(block.text)) return block.text;
  if (block.type === 'resource' && isText((block.resource as { text?: unknown }).text)) {
    return (block.resource as { text: TextValue }).text;
  }
  return undefined;
}

function isText(value: unknown): value is TextValue {
  return typeof value === 'string' || LargeText.isInstance(value);
}

/** The texts one after the other: a string, or a large text when one of them is (nothing joined then). */
function joinTexts(parts: readonly TextValue[]): TextValue {
  return parts.every((part) => typeof part === 'string') ? parts.join('') : LargeText.concat(parts);
}

function withText(block: ContentBlock, text: TextValue): ContentBlock {
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

import { diffArrays } from 'diff';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message, ToolResultPart } from '../message/message';
import { createPartMemo } from '../message/part-memo';
import { PartReplacements, withNoteContent } from '../truncate/replace-parts';
import type { TruncationRecord } from '../truncate/truncation-record';
import type { TruncationResult } from '../truncate/truncation-result';

/** Options of {@link clusterToolResults}. */
export interface ClusterToolResultsOptions {
  /**
   * Only results in messages with an index below this are replaced (the engine passes the start of
   * the protected window, at a grid point).
   * @default Infinity (every message)
   */
  before?: number;
  /**
   * How alike two results of the same tool must be to cluster: the share of their distinct
   * non-blank lines they have in common (Jaccard), in (0, 1].
   * @default 0.75
   */
  similarity?: number;
  /**
   * Results shorter than this (in characters) are left alone.
   * @default 400
   */
  minChars?: number;
  /**
   * A result is replaced only when its note (header and line diff) is at most this share of its
   * length, in (0, 1).
   * @default 0.5
   */
  maxNoteShare?: number;
}

const DEFAULT_SIMILARITY = 0.75;
const DEFAULT_MIN_CHARS = 400;
const DEFAULT_MAX_NOTE_SHARE = 0.5;
/** Results of one tool compared with at most this many earlier representatives (the newest). */
const MAX_REPRESENTATIVES = 32;
/** Fewer distinct lines than this: too little structure to diff (single-line JSON, one log line). */
const MIN_LINES = 3;

interface Representative {
  toolCallId: string;
  lines: string[];
  distinct: Set<string>;
  members: number;
}

/**
 * Clusters near-duplicate tool results (the same test run twice with one line changed, a grep
 * repeated after a small edit, two similar config files): each result of a tool is compared with
 * the earlier results of that tool it was not clustered into; when one shares at least `similarity`
 * of its distinct lines, the later result's content becomes a note naming that earlier result (the
 * cluster's representative, which stays whole), its number in the cluster, and the **line diff**
 * against it (unified-diff hunks without context) — so nothing of the later result is lost: it is
 * the representative with those lines changed.
 *
 * The earliest result is the one kept whole (not the newest): a new near-duplicate only ever
 * changes itself, never a message before it, so the request's prefix stays the same and provider
 * prompt caches keep hitting — and since each note carries its own differences, the newest content
 * is still all there. Only text results count (results with images, files or provider items never
 * cluster); the call, its id and `isError` are kept; untouched messages are the same objects.
 *
 * @throws {InvalidConfigError} when an option is out of range.
 */
export function clusterToolResults(
  messages: readonly Message[],
  options: ClusterToolResultsOptions = {},
): TruncationResult {
  return clusterResultsWhere(messages, options, () => true);
}

/**
 * {@link clusterToolResults} over the results `intact` accepts (the engine passes those no earlier
 * stage replaced): the others are neither representatives nor members.
 */
export function clusterResultsWhere(
  messages: readonly Message[],
  {
    before = Number.POSITIVE_INFINITY,
    similarity = DEFAULT_SIMILARITY,
    minChars = DEFAULT_MIN_CHARS,
    maxNoteShare = DEFAULT_MAX_NOTE_SHARE,
  }: ClusterToolResultsOptions,
  intact: (result: ToolResultPart, messageIndex: number) => boolean,
): TruncationResult {
  checkClusterOptions({ before, similarity, minChars, maxNoteShare });
  const representatives = new Map<string, Representative[]>();
  const replacements = new PartReplacements();
  const records: TruncationRecord[] = [];
  const end = Math.min(before, messages.length);
  for (let messageIndex = 0; messageIndex < end; messageIndex++) {
    const message = messages[messageIndex];
    if (message == null || !Array.isArray(message.content)) continue;
    message.content.forEach((part, partIndex) => {
      if (part?.type !== 'tool-result' || !intact(part, messageIndex)) return;
      const shape = resultShape(message, partIndex, part);
      if (shape === undefined || shape.text.length < minChars) return;
      const { text, lines, distinct } = shape;
      if (distinct.size < MIN_LINES) return;
      let group = representatives.get(part.toolName);
      if (group === undefined) {
        group = [];
        representatives.set(part.toolName, group);
      }
      const best = mostSimilar(group, distinct, similarity);
      const note =
        best === undefined ? undefined : diffNote(part.toolName, best, lines, maxNoteShare * text.length);
      if (best === undefined || note === undefined) {
        group.push({ toolCallId: part.toolCallId, lines, distinct, members: 0 });
        if (group.length > MAX_REPRESENTATIVES) group.shift();
        return;
      }
      best.members++;
      replacements.set(messageIndex, partIndex, withNoteContent(part, note));
      records.push({
        kind: 'near-duplicate',
        messageIndex,
        toolName: part.toolName,
        toolCallId: part.toolCallId,
        charsBefore: text.length,
        charsAfter: note.length,
      });
    });
  }
  return { messages: replacements.apply(messages), records };
}

function checkClusterOptions({
  before,
  similarity,
  minChars,
  maxNoteShare,
}: Required<ClusterToolResultsOptions>): void {
  if (typeof before !== 'number' || Number.isNaN(before)) {
    throw new InvalidConfigError({ option: 'before', value: before, message: 'expected a message index' });
  }
  if (typeof similarity !== 'number' || !(similarity > 0 && similarity <= 1)) {
    throw new InvalidConfigError({
      option: 'similarity',
      value: similarity,
      message: 'must be a share above 0 and at most 1',
    });
  }
  if (typeof minChars !== 'number' || Number.isNaN(minChars) || minChars < 0) {
    throw new InvalidConfigError({
      option: 'minChars',
      value: minChars,
      message: 'must be a number of characters, 0 or more',
    });
  }
  if (typeof maxNoteShare !== 'number' || !(maxNoteShare > 0 && maxNoteShare < 1)) {
    throw new InvalidConfigError({
      option: 'maxNoteShare',
      value: maxNoteShare,
      message: 'must be a share above 0 and below 1',
    });
  }
}

/** Jaccard scores by pair of distinct-line sets (remembered per result object, see `resultShape`). */
const scores = new WeakMap<Set<string>, WeakMap<Set<string>, number>>();

function jaccard(small: Set<string>, large: Set<string>): number {
  let byLarge = scores.get(small);
  if (byLarge === undefined) {
    byLarge = new WeakMap();
    scores.set(small, byLarge);
  }
  let score = byLarge.get(large);
  if (score === undefined) {
    let shared = 0;
    for (const line of small) if (large.has(line)) shared++;
    score = shared / (small.size + large.size - shared);
    byLarge.set(large, score);
  }
  return score;
}

/** The representative sharing the largest share of distinct lines (at least `similarity`), newest first on ties. */
function mostSimilar(
  group: readonly Representative[],
  distinct: Set<string>,
  similarity: number,
): Representative | undefined {
  let best: Representative | undefined;
  let bestScore = similarity;
  for (let index = group.length - 1; index >= 0; index--) {
    const candidate = group[index]!;
    const [small, large] =
      candidate.distinct.size < distinct.size
        ? [candidate.distinct, distinct]
        : [distinct, candidate.distinct];
    // Jaccard is at most |small| / |large|: skip what cannot reach the bar.
    if (small.size / large.size < bestScore) continue;
    const score = jaccard(small, large);
    if (score > bestScore || (score === bestScore && best === undefined)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** The note for a near-duplicate of `representative`: a header and the hunks, or undefined when longer than `maxChars`. */
function diffNote(
  toolName: string,
  representative: Representative,
  lines: string[],
  maxChars: number,
): string | undefined {
  const diffed = lineDiff(representative.lines, lines);
  if (diffed === undefined) return undefined;
  const { hunks, same } = diffed;
  const number = representative.members + 1;
  const header =
    hunks.length === 0
      ? `[near-duplicate #${number} of the ${toolName} result of call ${representative.toolCallId}: identical to it]`
      : `[near-duplicate #${number} of the ${toolName} result of call ${representative.toolCallId}: ${same} of its ${lines.length} lines are the same; this is that result with the line diff below applied]`;
  const note = [header, ...hunks].join('\n');
  return note.length <= maxChars ? note : undefined;
}

/** Line diffs by pair of line lists (remembered by content, see `resultShape`). */
const diffs = new WeakMap<string[], WeakMap<string[], { hunks: string[]; same: number } | null>>();

/** The hunks turning `before` into `after` and how many lines they share; `undefined` past the edit limit. */
function lineDiff(before: string[], after: string[]): { hunks: string[]; same: number } | undefined {
  let byAfter = diffs.get(before);
  if (byAfter === undefined) {
    byAfter = new WeakMap();
    diffs.set(before, byAfter);
  }
  let known = byAfter.get(after);
  if (known === undefined) {
    known = computeLineDiff(before, after) ?? null;
    byAfter.set(after, known);
  }
  return known ?? undefined;
}

function computeLineDiff(before: string[], lines: string[]): { hunks: string[]; same: number } | undefined {
  const changes = diffArrays(before, lines, {
    maxEditLength: Math.max(16, Math.ceil((before.length + lines.length) / 2)),
  });
  if (changes === undefined) return undefined;
  const hunks: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  let same = 0;
  let hunk: { oldStart: number; newStart: number; removed: string[]; added: string[] } | undefined;
  const flush = () => {
    if (hunk === undefined) return;
    const { oldStart, newStart, removed, added } = hunk;
    // Unified-diff ranges: an empty side starts at the line before it.
    const oldRange = `${removed.length === 0 ? oldStart - 1 : oldStart},${removed.length}`;
    const newRange = `${added.length === 0 ? newStart - 1 : newStart},${added.length}`;
    hunks.push(
      `@@ -${oldRange} +${newRange} @@`,
      ...removed.map((line) => `-${line}`),
      ...added.map((line) => `+${line}`),
    );
    hunk = undefined;
  };
  for (const change of changes) {
    if (!change.added && !change.removed) {
      flush();
      same += change.count;
      oldLine += change.count;
      newLine += change.count;
      continue;
    }
    hunk ??= { oldStart: oldLine, newStart: newLine, removed: [], added: [] };
    if (change.removed) {
      hunk.removed.push(...change.value);
      oldLine += change.count;
    } else {
      hunk.added.push(...change.value);
      newLine += change.count;
    }
  }
  flush();
  return { hunks, same };
}

/**
 * A text result's lines and distinct non-blank lines, remembered by content (the message's content
 * memo and the part's index, else the result object; like every memo here it assumes messages are
 * replaced, not edited in place): a fresh copy of an unchanged request splits nothing again, and
 * its sets find the similarity scores and diffs computed for them before.
 */
const shapes = createPartMemo<{ text: string; lines: string[]; distinct: Set<string> } | null>();

function resultShape(
  message: Message,
  partIndex: number,
  result: ToolResultPart,
): { text: string; lines: string[]; distinct: Set<string> } | undefined {
  const shape = shapes.get(message, partIndex, result, () => {
    const text = resultText(result);
    if (text === undefined) return null;
    const lines = text.split('\n');
    const distinct = new Set(lines.map((line) => line.trimEnd()).filter((line) => line.length > 0));
    return { text, lines, distinct };
  });
  return shape ?? undefined;
}

/** The text of a result that is text only (a string, or text parts joined by line breaks). */
function resultText(result: ToolResultPart): string | undefined {
  if (typeof result.content === 'string') return result.content;
  if (!Array.isArray(result.content) || result.content.length === 0) return undefined;
  const texts: string[] = [];
  for (const part of result.content) {
    if (part?.type !== 'text' || typeof part.text !== 'string') return undefined;
    texts.push(part.text);
  }
  return texts.join('\n');
}

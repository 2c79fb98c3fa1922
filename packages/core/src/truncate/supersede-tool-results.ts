import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message, ToolCallPart, ToolResultPart } from '../message/message';
import type { RecallMarks } from '../recall/recall-marks';
import { refAnnotation } from '../recall/recall-ref';
import { defaultToolMapping } from '../structure/default-tool-mapping';
import type { ToolEffect, ToolMapping } from '../structure/tool-effect';
import { supersededNote, type ToolEvent, toolEffectState } from '../structure/tool-effect-state';
import { salientIdentifiers } from '../summarize/salient-identifiers';
import { canonicalJson } from './canonical-json';
import { PartReplacements, withNoteContent } from './replace-parts';
import type { TruncationRecord } from './truncation-record';
import type { TruncationResult } from './truncation-result';

/** Options of {@link supersedeToolResults}. */
export interface SupersedeToolResultsOptions {
  /**
   * What each call does to which files (see `ToolEffect`). A result is stale when a later call
   * changed what it shows: a read by a later write, edit, patch or delete of that path (or a later
   * full read of it), a write or edit by a later one, a listing by a later file created, written,
   * moved or deleted in that directory (below it, for a recursive listing). A result with several
   * effects is stale only when every one is. Calls in the same assistant message never supersede
   * each other (parallel calls run in no known order). `false`: only the `targetKey` rule below.
   * @default defaultToolMapping (the common file, editor, patch, listing and shell tools)
   */
  toolMapping?: ToolMapping | false;
  /**
   * The target a tool call works on, e.g. `(call) => call.toolName === 'read_file' ? String(call.input.path) : undefined`.
   * Two calls of the same tool with the same key are "the same target": the earlier result is
   * superseded by the later one. Keys are only compared within one tool name. `undefined` means
   * the call never supersedes and is never superseded.
   * @default the canonical JSON of the input (sorted keys), so only identical calls supersede
   */
  targetKey?: (call: ToolCallPart) => string | undefined;
  /**
   * Results smaller than this are left alone: the note would save nothing. Counted as text
   * characters plus the length of inline image/file data (base64 characters or bytes) plus the text
   * of opaque parts.
   * @default 200
   */
  minChars?: number;
  /**
   * Only results in messages with an index below this are replaced (the later results that make
   * them redundant may be anywhere). The newest result of each group is never replaced.
   * @default Infinity (every message)
   */
  before?: number;
  /**
   * Replace results superseded by a later successful call on the same target.
   * @default true
   */
  supersede?: boolean;
  /**
   * Replace results whose text is identical to a later result of the same tool.
   * @default true
   */
  dedupe?: boolean;
  /**
   * Writes a reference to the replaced result after each note (`[ref=t.…]`: its first text), so the
   * model can read it back with `spillway_recall`.
   * @default undefined (notes without references)
   */
  marks?: RecallMarks;
}

/** Tool results smaller than this (in characters) are not worth replacing with a note. */
const DEFAULT_MIN_CHARS = 200;

/**
 * Structural reduction without a model (DESIGN §2.3). Walks the tool results and replaces the
 * *content* of redundant ones with a one-line note:
 *
 * - **stale** (by `toolMapping`): a later call changed or re-read what the result shows, e.g.
 *   `[superseded: read_file of src/a.ts is stale — edit_file changed it later (call c7); read it again
 *   if you need its current content]`; the note names the nearest later call that did it. The call's
 *   input (the assistant's own words, e.g. the content it wrote) is never rewritten;
 * - **superseded**: a later call of the same tool on the same target (see `targetKey`) returned a
 *   non-error result, so the earlier result is stale:
 *   `[superseded: read_file was called again with the same arguments later; see the newer result]`;
 *   a later error result does not supersede anything;
 * - **duplicate**: an earlier result of the same tool has exactly the same text (results with
 *   images, files or opaque parts are never considered duplicates), so this copy adds nothing:
 *   `[duplicate: identical to the earlier read_file result of call call_1]`. The earliest copy is
 *   the one kept, so deduplicating never edits an old message when a new copy arrives: the
 *   request's prefix stays the same and provider prompt caches keep hitting.
 *
 * Never deletes messages and never separates a call from its result: the result part stays with
 * its `toolCallId`, `toolName` and `isError`; string content becomes the note, part content becomes
 * one text part with the note. Untouched messages (and parts) are returned as the same objects and
 * the input is never mutated.
 *
 * @throws {InvalidConfigError} when `minChars` or `before` is not a number, or `targetKey` is not a function.
 */
export function supersedeToolResults(
  messages: readonly Message[],
  {
    toolMapping = defaultToolMapping,
    targetKey,
    minChars = DEFAULT_MIN_CHARS,
    before = Number.POSITIVE_INFINITY,
    supersede = true,
    dedupe = true,
    marks,
  }: SupersedeToolResultsOptions = {},
): TruncationResult {
  if (typeof minChars !== 'number' || Number.isNaN(minChars)) {
    throw new InvalidConfigError({ option: 'minChars', value: minChars, message: 'expected a number' });
  }
  if (typeof before !== 'number' || Number.isNaN(before)) {
    throw new InvalidConfigError({ option: 'before', value: before, message: 'expected a message index' });
  }
  if (targetKey !== undefined && typeof targetKey !== 'function') {
    throw new InvalidConfigError({ option: 'targetKey', value: targetKey, message: 'expected a function' });
  }
  if (toolMapping !== false && typeof toolMapping !== 'function') {
    throw new InvalidConfigError({
      option: 'toolMapping',
      value: toolMapping,
      message: 'expected a function (call) => ToolEffect[], or false',
    });
  }
  const keyOf = targetKey ?? defaultTargetKey;
  const sameTargetWords = targetKey === undefined ? 'with the same arguments' : 'on the same target';

  const calls = new Map<string, ToolCallPart>();
  const callMessage = new Map<string, number>();
  const results: { messageIndex: number; partIndex: number; result: ToolResultPart }[] = [];
  messages.forEach((message, messageIndex) => {
    if (message == null || !Array.isArray(message.content)) return;
    message.content.forEach((part, partIndex) => {
      if (part?.type === 'tool-call') {
        calls.set(part.toolCallId, part);
        callMessage.set(part.toolCallId, messageIndex);
      } else if (part?.type === 'tool-result') results.push({ messageIndex, partIndex, result: part });
    });
  });

  // Superseded: walk newest first, so each result knows whether a later call hit its target or
  // made what it shows stale.
  const superseded = new Set<number>();
  const staleNotes = new Map<number, string>();
  const sameTarget = new Set<number>();
  const laterTargets = new Set<string>();
  /** The nearest later result per target, and the one each same-target result is set against. */
  const laterResults = new Map<string, ToolResultPart>();
  const newerResult = new Map<number, ToolResultPart>();
  const later = toolEffectState();
  for (let rank = results.length - 1; rank >= 0; rank--) {
    const { messageIndex, result } = results[rank]!;
    const call = supersede ? calls.get(result.toolCallId) : undefined;
    const target = call === undefined ? undefined : targetOf(result.toolName, call, keyOf);
    const effects = call === undefined || toolMapping === false ? [] : mappedEffects(call, toolMapping);
    const step = callMessage.get(result.toolCallId) ?? messageIndex;
    if (messageIndex < before && effects.length > 0) {
      const staleBy: ToolEvent[] = [];
      for (const effect of effects) {
        const event = later.staleBy(effect, step);
        if (event === undefined) break;
        staleBy.push(event);
      }
      if (staleBy.length === effects.length) {
        superseded.add(rank);
        staleNotes.set(rank, supersededNote(result.toolName, effects, staleBy));
      }
    }
    if (messageIndex < before && target !== undefined && laterTargets.has(target)) {
      superseded.add(rank);
      sameTarget.add(rank);
      const newer = laterResults.get(target);
      if (newer !== undefined) newerResult.set(rank, newer);
    }
    if (target !== undefined && result.isError !== true) {
      laterTargets.add(target);
      laterResults.set(target, result);
    }
    if (call !== undefined && result.isError !== true) later.record(effects, call, step);
  }
  // Duplicates: walk oldest first, so each result knows the earliest identical copy.
  const earliest = new Map<string, string>();
  const duplicateOf = new Map<number, string>();
  results.forEach(({ messageIndex, result }, rank) => {
    const key = dedupe && !superseded.has(rank) ? dedupeKey(result) : undefined;
    if (key === undefined) return;
    const first = earliest.get(key);
    if (first === undefined) earliest.set(key, result.toolCallId);
    else if (messageIndex < before) duplicateOf.set(rank, first);
  });

  const replacements = new PartReplacements();
  const records: TruncationRecord[] = [];
  results.forEach(({ messageIndex, partIndex, result }, rank) => {
    const chars = contentChars(result);
    let note: string | undefined;
    let kind: 'superseded' | 'duplicate' | undefined;
    const stale = staleNotes.get(rank);
    if (chars >= minChars && stale !== undefined && stale.length < chars) {
      // A stale note names paths and calls: used only where it is shorter than what it replaces.
      kind = 'superseded';
      note = stale;
    } else if (chars >= minChars && sameTarget.has(rank)) {
      kind = 'superseded';
      const newer = newerResult.get(rank);
      const gone = identifiersNotIn(result, newer === undefined ? '' : resultText(newer));
      note = `[superseded: ${result.toolName} was called again ${sameTargetWords} later; see the newer result${gone.length > 0 ? `; this earlier one also mentioned ${gone.join(', ')}` : ''}]`;
    } else if (chars >= minChars && duplicateOf.has(rank)) {
      kind = 'duplicate';
      note = `[duplicate: identical to the earlier ${result.toolName} result of call ${duplicateOf.get(rank)}]`;
    }
    if (kind !== undefined && note !== undefined) {
      const ref = marks === undefined || !hasText(result) ? undefined : marks.toolResult(result, 0);
      if (ref !== undefined) note = `${note} ${refAnnotation(ref)}`;
      replacements.set(messageIndex, partIndex, withNoteContent(result, note));
      records.push({
        kind,
        messageIndex,
        toolName: result.toolName,
        toolCallId: result.toolCallId,
        charsBefore: chars,
        charsAfter: note.length,
      });
    }
  });

  return { messages: replacements.apply(messages), records };
}

/** The most characters the identifiers only an earlier result mentioned may take in its note. */
const GONE_IDENTIFIER_CHARS = 160;

/** A result's text parts, joined. */
function resultText(result: ToolResultPart): string {
  if (typeof result.content === 'string') return result.content;
  if (!Array.isArray(result.content)) return '';
  return result.content
    .map((part) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('\n');
}

/**
 * The identifiers (see `salientIdentifiers`) `result` mentioned that `newer` does not: what a
 * same-target note would otherwise lose without a trace (a rerun command's earlier request id).
 */
function identifiersNotIn(result: ToolResultPart, newer: string): string[] {
  const found = salientIdentifiers(resultText(result), { maxCount: 64, maxChars: 4_000 });
  const gone: string[] = [];
  let chars = 0;
  for (const identifier of found) {
    if (newer.includes(identifier)) continue;
    const cost = identifier.length + (gone.length > 0 ? 2 : 0);
    if (chars + cost > GONE_IDENTIFIER_CHARS) continue;
    gone.push(identifier);
    chars += cost;
  }
  return gone;
}

/** The tool name and the call's target key, or `undefined` when the call has no key (or the key function threw). */
function targetOf(
  toolName: string,
  call: ToolCallPart,
  keyOf: (call: ToolCallPart) => string | undefined,
): string | undefined {
  try {
    const key = keyOf(call);
    return typeof key === 'string' ? `${toolName}\u0000${key}` : undefined;
  } catch {
    return undefined;
  }
}

/** The canonical JSON of a call's input, remembered per call object. */
const canonicalInputs = new WeakMap<ToolCallPart, string | null>();

function defaultTargetKey(call: ToolCallPart): string | undefined {
  let key = canonicalInputs.get(call);
  if (key === undefined) {
    key = canonicalJson(call.input) ?? null;
    canonicalInputs.set(call, key);
  }
  return key ?? undefined;
}

/**
 * Effects per mapping and call object: a request carries the same call objects call after call,
 * and a mapping is a pure function of the call (like every per-object memo here, this assumes
 * messages are replaced, not edited in place).
 */
const effectsByMapping = new WeakMap<ToolMapping, WeakMap<ToolCallPart, readonly ToolEffect[]>>();

function mappedEffects(call: ToolCallPart, toolMapping: ToolMapping): readonly ToolEffect[] {
  let byCall = effectsByMapping.get(toolMapping);
  if (byCall === undefined) {
    byCall = new WeakMap();
    effectsByMapping.set(toolMapping, byCall);
  }
  let effects = byCall.get(call);
  if (effects === undefined) {
    effects = effectsOf(call, toolMapping);
    byCall.set(call, effects);
  }
  return effects;
}

/** The call's effects by the mapping; a mapping that throws or returns something else gives none. */
function effectsOf(call: ToolCallPart, toolMapping: ToolMapping): readonly ToolEffect[] {
  try {
    const effects = toolMapping(call);
    return Array.isArray(effects) ? effects.filter(isEffect) : [];
  } catch {
    return [];
  }
}

function isEffect(effect: unknown): effect is ToolEffect {
  if (effect === null || typeof effect !== 'object') return false;
  const { kind, path } = effect as { kind?: unknown; path?: unknown };
  if (kind === 'other') return true;
  return (
    typeof path === 'string' &&
    path.length > 0 &&
    (kind === 'read' || kind === 'write' || kind === 'edit' || kind === 'delete' || kind === 'list')
  );
}

/** The text compared for duplicates: the whole content when it is text only, else `undefined`. */
/**
 * The tool name and text a duplicate is found by, remembered per result object: the same string
 * object call after call, so the map hashes a long result once, not on every request.
 */
const dedupeKeys = new WeakMap<ToolResultPart, string | null>();

function dedupeKey(result: ToolResultPart): string | undefined {
  let key = dedupeKeys.get(result);
  if (key === undefined) {
    const text = dedupeText(result);
    key = text === undefined ? null : `${result.toolName}\u0000${text}`;
    dedupeKeys.set(result, key);
  }
  return key ?? undefined;
}

function dedupeText(result: ToolResultPart): string | undefined {
  if (typeof result.content === 'string') return result.content.length > 0 ? result.content : undefined;
  if (!Array.isArray(result.content) || result.content.length === 0) return undefined;
  const texts: string[] = [];
  for (const part of result.content) {
    if (part?.type !== 'text' || typeof part.text !== 'string') return undefined;
    texts.push(part.text);
  }
  return texts.join('\u0000');
}

function hasText(result: ToolResultPart): boolean {
  if (typeof result.content === 'string') return true;
  return Array.isArray(result.content) && result.content.some((part) => part?.type === 'text');
}

/** Text characters + inline data length + opaque text: what replacing the content saves. */
function contentChars(result: ToolResultPart): number {
  if (typeof result.content === 'string') return result.content.length;
  if (!Array.isArray(result.content)) return 0;
  let chars = 0;
  for (const part of result.content) {
    if (part?.type === 'text') chars += typeof part.text === 'string' ? part.text.length : 0;
    else if (part?.type === 'image' || part?.type === 'file') {
      if (typeof part.data === 'string') chars += part.data.length;
      else if (part.data != null) chars += part.data.byteLength;
      else if (typeof part.url === 'string') chars += part.url.length;
    } else if (part?.type === 'opaque' && typeof part.text === 'string') chars += part.text.length;
  }
  return chars;
}

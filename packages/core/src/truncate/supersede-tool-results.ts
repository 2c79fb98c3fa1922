import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message, ToolCallPart, ToolResultPart } from '../message/message';
import { createPartMemo } from '../message/part-memo';
import { createSequenceMemo } from '../message/sequence-memo';
import type { RecallMarks } from '../recall/recall-marks';
import { refAnnotation } from '../recall/recall-ref';
import { defaultToolMapping } from '../structure/default-tool-mapping';
import type { ToolEffect, ToolMapping } from '../structure/tool-effect';
import { supersededNote, type ToolEvent, toolEffectState } from '../structure/tool-effect-state';
import { canonicalJson } from './canonical-json';
import { identifiersNotIn, resultText } from './identifiers-not-in';
import { PartReplacements, withNoteContent } from './replace-parts';
import { toolResultChars } from './tool-result-chars';
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
  const key = `${functionId(toolMapping)}|${functionId(targetKey)}|${minChars}|${before}|${supersede}|${dedupe}`;
  const items = analyses.get(messages, key, () =>
    analyze(messages, { toolMapping, targetKey, minChars, before, supersede, dedupe }),
  );
  const replacements = new PartReplacements();
  const records: TruncationRecord[] = [];
  for (const { messageIndex, partIndex, kind, note: bare, chars } of items) {
    const result = (messages[messageIndex]!.content as ToolResultPart[])[partIndex]!;
    const ref = marks === undefined || !hasText(result) ? undefined : marks.toolResult(result, 0);
    const note = ref === undefined ? bare : `${bare} ${refAnnotation(ref)}`;
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
  return { messages: replacements.apply(messages), records };
}

/** A result to replace, and with what (before its reference is added). */
interface Replacement {
  messageIndex: number;
  partIndex: number;
  kind: 'superseded' | 'duplicate';
  note: string;
  chars: number;
}

/**
 * The replacements of a list, remembered by content: a request whose messages hold what an earlier
 * one held (the same level of the same history, a fresh copy of it) finds them again.
 */
const analyses = createSequenceMemo<Replacement[]>();

const functionIds = new WeakMap<object, number>();
let nextFunctionId = 1;

function functionId(value: unknown): number {
  if (typeof value !== 'function') return 0;
  let id = functionIds.get(value);
  if (id === undefined) {
    id = nextFunctionId++;
    functionIds.set(value, id);
  }
  return id;
}

/** Which results of `messages` are stale, superseded or duplicates, and their notes. */
function analyze(
  messages: readonly Message[],
  {
    toolMapping,
    targetKey,
    minChars,
    before,
    supersede,
    dedupe,
  }: Required<Pick<SupersedeToolResultsOptions, 'minChars' | 'before' | 'supersede' | 'dedupe'>> & {
    toolMapping: ToolMapping | false;
    targetKey: ((call: ToolCallPart) => string | undefined) | undefined;
  },
): Replacement[] {
  const sameTargetWords = targetKey === undefined ? 'with the same arguments' : 'on the same target';

  // One pass over the parts; what each part's content gives (its target, effects, dedupe key) is
  // remembered by content, so a fresh copy of an unchanged request derives nothing again.
  const calls = new Map<string, { call: ToolCallPart; facts: PartFacts }>();
  const callMessage = new Map<string, number>();
  const results: { messageIndex: number; partIndex: number; result: ToolResultPart; facts: PartFacts }[] = [];
  for (let messageIndex = 0; messageIndex < messages.length; messageIndex++) {
    const message = messages[messageIndex];
    if (message == null || !Array.isArray(message.content)) continue;
    const content = message.content;
    for (let partIndex = 0; partIndex < content.length; partIndex++) {
      const part = content[partIndex];
      if (part?.type === 'tool-call') {
        calls.set(part.toolCallId, { call: part, facts: factsOf(message, partIndex, part) });
        callMessage.set(part.toolCallId, messageIndex);
      } else if (part?.type === 'tool-result') {
        results.push({ messageIndex, partIndex, result: part, facts: factsOf(message, partIndex, part) });
      }
    }
  }

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
    const known = supersede ? calls.get(result.toolCallId) : undefined;
    const call = known?.call;
    const target = known === undefined ? undefined : targetOf(result.toolName, known, targetKey);
    const effects = known === undefined || toolMapping === false ? [] : mappedEffects(known, toolMapping);
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
  results.forEach(({ messageIndex, result, facts }, rank) => {
    const key = dedupe && !superseded.has(rank) ? dedupeKey(result, facts) : undefined;
    if (key === undefined) return;
    const first = earliest.get(key);
    if (first === undefined) earliest.set(key, result.toolCallId);
    else if (messageIndex < before) duplicateOf.set(rank, first);
  });

  const items: Replacement[] = [];
  results.forEach(({ messageIndex, partIndex, result, facts }, rank) => {
    if (!superseded.has(rank) && !duplicateOf.has(rank)) return;
    facts.chars ??= toolResultChars(result);
    const chars = facts.chars;
    if (chars < minChars) return;
    const stale = staleNotes.get(rank);
    if (stale !== undefined && stale.length < chars) {
      // A stale note names paths and calls: used only where it is shorter than what it replaces.
      items.push({ messageIndex, partIndex, kind: 'superseded', note: stale, chars });
    } else if (sameTarget.has(rank)) {
      const newer = newerResult.get(rank);
      const gone = identifiersNotIn(result, newer === undefined ? '' : resultText(newer));
      const note = `[superseded: ${result.toolName} was called again ${sameTargetWords} later; see the newer result${gone.length > 0 ? `; this earlier one also mentioned ${gone.join(', ')}` : ''}]`;
      items.push({ messageIndex, partIndex, kind: 'superseded', note, chars });
    } else if (duplicateOf.has(rank)) {
      const note = `[duplicate: identical to the earlier ${result.toolName} result of call ${duplicateOf.get(rank)}]`;
      items.push({ messageIndex, partIndex, kind: 'duplicate', note, chars });
    }
  });
  return items;
}

/** What one part's content gives, derived once per content (see `createPartMemo`). */
interface PartFacts {
  /** A call's input as canonical JSON (`null`: none). */
  canonical?: string | null;
  /** A call's effects, by mapping. */
  effects?: Map<ToolMapping, readonly ToolEffect[]>;
  /** A result's tool name and text (`null`: not a candidate for dedupe). */
  dedupe?: string | null;
  /** A result's {@link toolResultChars}. */
  chars?: number;
}

const partFacts = createPartMemo<PartFacts>();

function factsOf(message: Message, partIndex: number, part: object): PartFacts {
  return partFacts.get(message, partIndex, part, () => ({}));
}

/** The tool name and the call's target key, or `undefined` when the call has no key (or the key function threw). */
function targetOf(
  toolName: string,
  { call, facts }: { call: ToolCallPart; facts: PartFacts },
  targetKey: ((call: ToolCallPart) => string | undefined) | undefined,
): string | undefined {
  try {
    let key: string | undefined;
    if (targetKey === undefined) {
      // The default: the canonical JSON of the input, remembered by content.
      if (facts.canonical === undefined) facts.canonical = canonicalJson(call.input) ?? null;
      key = facts.canonical ?? undefined;
    } else key = targetKey(call);
    return typeof key === 'string' ? `${toolName}\u0000${key}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Effects per mapping and call content: a request carries the same calls request after request,
 * and a mapping is a pure function of the call (like every memo here, this assumes messages are
 * replaced, not edited in place).
 */
function mappedEffects(
  { call, facts }: { call: ToolCallPart; facts: PartFacts },
  toolMapping: ToolMapping,
): readonly ToolEffect[] {
  facts.effects ??= new Map();
  let effects = facts.effects.get(toolMapping);
  if (effects === undefined) {
    effects = effectsOf(call, toolMapping);
    facts.effects.set(toolMapping, effects);
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

/**
 * The tool name and text a duplicate is found by, remembered by content: the same string object
 * request after request, so the map hashes a long result once, not on every request.
 */
function dedupeKey(result: ToolResultPart, facts: PartFacts): string | undefined {
  if (facts.dedupe === undefined) {
    const text = dedupeText(result);
    facts.dedupe = text === undefined ? null : `${result.toolName}\u0000${text}`;
  }
  return facts.dedupe ?? undefined;
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

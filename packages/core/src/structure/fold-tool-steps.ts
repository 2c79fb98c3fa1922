import { callArgumentValues } from '../message/call-argument-values';
import type {
  FilePart,
  ImagePart,
  Message,
  MessagePart,
  ToolCallPart,
  ToolResultPart,
} from '../message/message';
import { toolResultParts } from '../message/message-parts';
import { refAnnotation } from '../recall/recall-ref';
import { salientIdentifiers } from '../summarize/salient-identifiers';

/** How the line that stands in for a turn's tool steps starts. */
export const FOLDED_TOOLS_HEADER = '[Tool steps of this turn, folded:';

/** Options of {@link foldToolSteps}. */
export interface FoldToolStepsOptions {
  /** The reference of a result's original text (`[ref=t.…]` after its line). */
  refOf?: ((result: ToolResultPart) => string | undefined) | undefined;
  /**
   * The result as it was before any reduction (a stub or a preview is folded in its place): its
   * size is what a line reports.
   * @default the result as given
   */
  originalOf?: ((result: ToolResultPart) => ToolResultPart) | undefined;
  /**
   * The lines also list the identifiers their results mentioned (paths, ids, URLs, error codes,
   * numbers with units; see `salientIdentifiers`), like stubs, within this many characters for the
   * whole turn, shared evenly by its lines (at most `MAX_LINE_IDENTIFIER_CHARS` each, at least
   * `MIN_LINE_IDENTIFIER_CHARS`); `false`: none.
   * @default false
   */
  identifierChars?: number | false | undefined;
  /**
   * What a line says of each image or file a result held (its placeholder and reference, so the
   * model can still ask for it back); without it, a count (`+ 2 media`).
   */
  mediaOf?: ((part: ImagePart | FilePart) => string) | undefined;
}

/** What {@link foldToolSteps} returns. */
export interface FoldToolStepsResult {
  /** The turn folded: the user's messages as they were, then one assistant message. */
  messages: Message[];
  /** Tool calls folded. */
  callCount: number;
}

/**
 * Folds one whole, finished turn (a user message and what followed it up to the next user message):
 * its tool calls and results become one line each — `- read_file(path: "src/a.ts") → 8,123 chars
 * [ref=t.…]` — at the head of a single assistant message that then carries every text the assistant
 * wrote in the turn, verbatim and in order. The user's messages stay as they are (tool-result parts
 * removed from them); reasoning parts go; opaque parts (provider items) stay in place in the
 * assistant message. So the turn keeps every word of its dialogue and reads user → assistant, with
 * no tool call left to pair. A turn without tool calls is returned as it was (same objects).
 */
export function foldToolSteps(
  turn: readonly Message[],
  options: FoldToolStepsOptions = {},
): FoldToolStepsResult {
  const calls: ToolCallPart[] = [];
  const results = new Map<string, ToolResultPart>();
  for (const message of turn) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part?.type === 'tool-call') calls.push(part);
      else if (part?.type === 'tool-result') results.set(part.toolCallId, part);
    }
  }
  if (calls.length === 0 && results.size === 0) return { messages: turn.slice(), callCount: 0 };

  const unpaired = [...results.keys()].filter((id) => !calls.some((call) => call.toolCallId === id));
  const lineCount = calls.length + unpaired.length;
  const perLine: number | false =
    options.identifierChars === false || options.identifierChars === undefined
      ? false
      : Math.min(
          MAX_LINE_IDENTIFIER_CHARS,
          Math.max(MIN_LINE_IDENTIFIER_CHARS, Math.floor(options.identifierChars / Math.max(1, lineCount))),
        );
  const lineOptions = { ...options, identifierChars: perLine };
  const lines = calls.map((call) => callLine(call, results.get(call.toolCallId), lineOptions));
  for (const id of unpaired) lines.push(callLine(undefined, results.get(id), lineOptions));
  const assistantParts: MessagePart[] = [
    { type: 'text', text: `${FOLDED_TOOLS_HEADER}\n${lines.join('\n')}]` },
  ];
  const output: Message[] = [];
  let assistantAt: number | undefined;
  for (const message of turn) {
    if (message.role === 'assistant') {
      assistantAt ??= output.push({ role: 'assistant', content: assistantParts }) - 1;
      if (typeof message.content === 'string') {
        if (message.content.trim() !== '') assistantParts.push({ type: 'text', text: message.content });
        continue;
      }
      for (const part of message.content) {
        if (part?.type === 'text' && part.text.trim() !== '') assistantParts.push(part);
        else if (part?.type === 'opaque') assistantParts.push(part);
      }
    } else if (message.role === 'tool') {
    } else if (message.role === 'user' && Array.isArray(message.content)) {
      const kept = message.content.filter((part) => part?.type !== 'tool-result');
      if (kept.length === message.content.length) output.push(message);
      else if (kept.length > 0) output.push({ ...message, content: kept });
    } else {
      output.push(message);
    }
  }
  if (assistantAt === undefined) output.push({ role: 'assistant', content: assistantParts });
  return { messages: output, callCount: calls.length };
}

/** The most characters of identifiers one line lists (a stub's own bound is 240). */
const MAX_LINE_IDENTIFIER_CHARS = 160;
/** The fewest characters of identifiers a line lists when a turn's budget is shared by many. */
const MIN_LINE_IDENTIFIER_CHARS = 40;

/** One call's line: `- name(key: value, …) → 8,123 chars; mentioned a, b [ref=t.…]`. */
function callLine(
  call: ToolCallPart | undefined,
  given: ToolResultPart | undefined,
  { refOf, originalOf, identifierChars = false, mediaOf }: FoldToolStepsOptions,
): string {
  const result = given === undefined ? undefined : (originalOf?.(given) ?? given);
  const name = call?.toolName ?? result?.toolName ?? 'tool';
  const args = call === undefined ? '' : keyArguments(call.input);
  let outcome = 'no result';
  if (result !== undefined) {
    let chars = 0;
    const media: (ImagePart | FilePart)[] = [];
    const texts: string[] = [];
    for (const part of toolResultParts(result)) {
      if (part?.type === 'text') {
        chars += part.text.length;
        texts.push(part.text);
      } else if (part?.type === 'image' || part?.type === 'file') media.push(part);
    }
    const mediaText =
      media.length === 0
        ? ''
        : mediaOf === undefined
          ? ` + ${media.length} media`
          : ` + ${media.map((part) => mediaOf(part)).join(' ')}`;
    outcome = `${result.isError ? 'error, ' : ''}${chars.toLocaleString('en-US')} chars${mediaText}`;
    const found =
      identifierChars === false
        ? []
        : salientIdentifiers(texts.join('\n'), {
            maxChars: identifierChars,
            ...(call === undefined ? {} : { exclude: callArgumentValues(call) }),
          });
    if (found.length > 0) outcome += `; mentioned ${found.join(', ')}`;
    const ref = refOf?.(given!);
    if (ref !== undefined) outcome += ` ${refAnnotation(ref)}`;
  }
  return `- ${name}(${args}) → ${outcome}`;
}

/** The call's scalar arguments, shortened: `path: "src/a.ts", limit: 40` (at most three, 160 chars). */
export function keyArguments(input: unknown): string {
  if (typeof input === 'string') return JSON.stringify(clip(input, 80));
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return '';
  const shown: string[] = [];
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (shown.length >= 3) break;
    if (typeof value === 'string') shown.push(`${key}: ${JSON.stringify(clip(value, 80))}`);
    else if (typeof value === 'number' || typeof value === 'boolean') shown.push(`${key}: ${value}`);
  }
  return clip(shown.join(', '), 160);
}

function clip(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ');
  if (flat.length <= maxChars) return flat;
  let end = maxChars - 1;
  const code = flat.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${flat.slice(0, end)}…`;
}

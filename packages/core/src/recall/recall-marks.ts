import type { FilePart, ImagePart, Message, ToolResultPart } from '../message/message';
import { createPartMemo } from '../message/part-memo';
import { conversationMessages, imageFingerprint, spanFingerprint, toolResultTexts } from './recall-material';
import type { RecallScope } from './recall-scope';

/**
 * What the truncation stages ask when they cut something: the reference to write next to the cut.
 * `undefined` (or no marks at all) writes the marker without one.
 */
export interface RecallMarks {
  /** Names the scope the references are written in (the same key writes the same references). */
  readonly key?: string;
  /** The reference of text part `textIndex` (counted among the result's text parts) of a tool result. */
  toolResult(result: ToolResultPart, textIndex: number): string | undefined;
  /** The reference of an image or file that becomes a placeholder. */
  image(part: ImagePart | FilePart): string | undefined;
  /** The reference of conversation messages `from`..`to` (exclusive; system messages not counted). */
  span(from: number, to: number): string | undefined;
}

/** Options of {@link createRecallMarks}. */
export interface CreateRecallMarksOptions {
  scope: RecallScope;
  /**
   * The conversation as the framework holds it, before any storage-time cap: references name the
   * originals, which is what the read-back tool finds.
   */
  originals: readonly Message[];
  /**
   * Tells these originals apart from others of the same conversation (part of `key`, which caches
   * of cut text are keyed by).
   * @default ''
   */
  originalsKey?: string;
}

/** References of original tool results by their content, per scope and text part. */
const rememberedRefs = createPartMemo<Map<string, string>>();

/**
 * The marks of one request: tool results are named by their original text (found by tool-call id
 * in `originals`, so a result already capped still gets the reference of its full text), images
 * by their content, spans by the original messages they cover. Lazy: nothing is read or hashed
 * until a cut asks.
 */
export function createRecallMarks({
  scope,
  originals,
  originalsKey = '',
}: CreateRecallMarksOptions): RecallMarks {
  let results: Map<string, ToolResultPart[]> | undefined;
  /** Where each original result is: its message and its index there (what its references are remembered by). */
  const places = new Map<ToolResultPart, { message: Message; partIndex: number }>();
  let conversation: readonly Message[] | undefined;
  const refs = new Map<string, string>();
  const originalsOf = (toolCallId: string) => {
    if (results === undefined) {
      results = new Map();
      for (const message of originals) {
        if (message == null || !Array.isArray(message.content)) continue;
        for (let partIndex = 0; partIndex < message.content.length; partIndex++) {
          const part = message.content[partIndex];
          if (part?.type !== 'tool-result') continue;
          places.set(part, { message, partIndex });
          const list = results.get(part.toolCallId);
          if (list === undefined) results.set(part.toolCallId, [part]);
          else list.push(part);
        }
      }
    }
    return results.get(toolCallId) ?? [];
  };
  return {
    key: `${scope.key}:${originalsKey}`,
    toolResult(result, textIndex) {
      const current = toolResultTexts(result)[textIndex];
      const candidates = originalsOf(result.toolCallId);
      // Of several results under one id (rare), the one whose text this is (or begins like).
      const head = current?.slice(0, 200) ?? '';
      const original =
        candidates.find((candidate) => toolResultTexts(candidate)[textIndex]?.startsWith(head)) ??
        candidates[0];
      const originalText = original === undefined ? undefined : toolResultTexts(original)[textIndex];
      const place = originalText === undefined ? undefined : places.get(original!);
      if (place !== undefined) {
        // Remembered by the original's content: a fresh copy of it (every request of a server)
        // hashes nothing again.
        const known = rememberedRefs.get(place.message, place.partIndex, original!, () => new Map());
        const key = `${scope.key}\u0000${textIndex}`;
        let ref = known.get(key);
        if (ref === undefined) {
          ref = scope.toolResultRef(original!.toolCallId, textIndex, originalText!);
          known.set(key, ref);
        }
        return ref;
      }
      const text = originalText ?? current;
      if (text === undefined) return undefined;
      const key = `${result.toolCallId}\u0000${textIndex}\u0000${text.length}\u0000${head}`;
      let ref = refs.get(key);
      if (ref === undefined) {
        ref = scope.toolResultRef(result.toolCallId, textIndex, text);
        refs.set(key, ref);
      }
      return ref;
    },
    image(part) {
      return scope.imageRef(imageFingerprint(part));
    },
    span(from, to) {
      conversation ??= conversationMessages(originals);
      if (!(from >= 0 && from < to && to <= conversation.length)) return undefined;
      return scope.spanRef(from, to, spanFingerprint(conversation, from, to));
    },
  };
}

import type { Message } from '../message/message';
import type { FormedMessage } from './history-forms';
import type { StructuralEntry } from './structural-memo';

/**
 * A message in a form, as the caches keep it: `unchanged` when the form left the message as it
 * was (its `message` is then the object it was made from, perhaps of an earlier request).
 */
export type KnownForm = FormedMessage & { readonly unchanged: boolean };

/** The forms of a conversation's history messages, as an earlier request left them. */
export interface LadderMemo {
  keys: object[];
  numbers: number[];
  forms: Partial<Record<'preview' | 'stub', KnownForm>>[];
  /** What the structural stages made of history prefixes (see `rememberedStructural`). */
  structural: Map<string, StructuralEntry>;
  /** Folded turns, by the history index where the turn starts (see {@link RememberedFold}). */
  folds: Map<number, RememberedFold>;
}

/** A folded turn: its messages, their tokens, and the stubs it was made from. */
export interface FoldedTurn {
  messages: Message[];
  tokens: number;
  members: readonly Message[];
}

/**
 * A turn an earlier request of the conversation folded: found again, without building its cache key,
 * while the messages up to `to` are unchanged (the same content keys and numbers, as the forms'
 * memo checks) and the fold keeps as many identifier characters.
 */
export interface RememberedFold {
  to: number;
  identifierChars: number | false;
  fold: FoldedTurn;
}

/** Forms of messages, by estimator, by content key, by settings: computed once per content. */
export const FORMS = new WeakMap<object, WeakMap<object, Map<string, KnownForm>>>();
/**
 * Folded turns, by estimator, by the content key of their first message, by settings and contents;
 * with the messages they were made from (those the fold passes through are swapped for the
 * request's own objects).
 */
export const FOLDS = new WeakMap<object, WeakMap<object, Map<string, FoldedTurn>>>();
export function cacheFor<Value>(
  caches: WeakMap<object, WeakMap<object, Map<string, Value>>>,
  estimator: object,
  key: object,
): Map<string, Value> {
  let byKey = caches.get(estimator);
  if (byKey === undefined) {
    byKey = new WeakMap();
    caches.set(estimator, byKey);
  }
  let byHash = byKey.get(key);
  if (byHash === undefined) {
    byHash = new Map();
    byKey.set(key, byHash);
  }
  return byHash;
}

/**
 * What tells a structurally changed message from its original: the texts of the parts that differ
 * (the notes that replaced results), joined.
 */
export function variantOf(message: Message, original: Message): string {
  if (!Array.isArray(message.content) || !Array.isArray(original.content)) return 'changed';
  const notes: string[] = [];
  message.content.forEach((part, index) => {
    if (part === original.content[index]) return;
    notes.push(part?.type === 'tool-result' ? JSON.stringify(part.content) : JSON.stringify(part));
  });
  return notes.join('\u0000');
}

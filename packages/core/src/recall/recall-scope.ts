import { LRUCache } from 'lru-cache';
import type { Message } from '../message/message';
import { messageParts } from '../message/message-parts';
import { keyedCode, textFingerprint } from './recall-hash';
import { CODE_CHARS, LOCATOR_CHARS } from './recall-ref';

/**
 * The secret mixed into every reference unless the application sets its own (`recall.secret`).
 * References are also keyed by a fingerprint of the material they name, so even with this public
 * default a reference cannot be made up without knowing the material; set a secret of your own
 * (e.g. from an environment variable) to make them unpredictable to anyone who does.
 */
export const DEFAULT_RECALL_SECRET = 'spillway-recall-v1';

/** Characters of the first conversation message that identify a conversation for its references. */
const ANCHOR_CHARS = 1000;

/**
 * The references of one conversation: every code is keyed by the secret and by the conversation's
 * anchor (its first non-system message), so the same material in another conversation gets other
 * references, and the same cut of this one gets the same reference on every call.
 */
export interface RecallScope {
  /** The anchor: a fingerprint of the conversation's first non-system message. */
  readonly anchor: string;
  /** Names the scope (anchor and secret): two scopes with the same key write the same references. */
  readonly key: string;
  /** The first characters of a tool result's reference: names the result, not its text. */
  toolResultLocator(toolCallId: string, textIndex: number): string;
  /** The reference of a tool result's text part (`textIndex` counts its text parts from 0). */
  toolResultRef(toolCallId: string, textIndex: number, text: string): string;
  /** The reference of an image or file, from its fingerprint (`imageFingerprint`). */
  imageRef(fingerprint: string): string;
  /** The reference of conversation messages `from` (inclusive) to `to` (exclusive), not counting system messages. */
  spanRef(from: number, to: number, fingerprint: string): string;
}

/** Options of {@link createRecallScope}. */
export interface CreateRecallScopeOptions {
  /** The conversation (its first non-system message is the anchor). */
  messages: readonly Message[];
  /**
   * Mixed into every reference.
   * @default DEFAULT_RECALL_SECRET
   */
  secret?: string;
}

/**
 * Scopes made lately, by secret and anchor text: a scope holds nothing but its key, and every
 * request of a conversation asks for the same one (hashing its anchor was a tenth of a short
 * request's own time, issue 26).
 */
const scopes = new LRUCache<string, RecallScope>({ max: 1024 });

/** The reference scope of a conversation. Cheap: reads only the first non-system message. */
export function createRecallScope({
  messages,
  secret = DEFAULT_RECALL_SECRET,
}: CreateRecallScopeOptions): RecallScope {
  const text = anchorText(messages);
  const remembered = `${secret}\u0000${text}`;
  let scope = scopes.get(remembered);
  if (scope === undefined) {
    scope = scopeFor(textFingerprint(text), secret);
    scopes.set(remembered, scope);
  }
  return scope;
}

function scopeFor(anchor: string, secret: string): RecallScope {
  const key = `${secret}\u0000${anchor}`;
  const locator = (toolCallId: string, textIndex: number) =>
    keyedCode(key, ['t', toolCallId, String(textIndex)], LOCATOR_CHARS);
  return {
    anchor,
    key: textFingerprint(key),
    toolResultLocator: locator,
    toolResultRef(toolCallId, textIndex, text) {
      const code = keyedCode(
        key,
        ['t', toolCallId, String(textIndex), textFingerprint(text)],
        CODE_CHARS - LOCATOR_CHARS,
      );
      return `t.${locator(toolCallId, textIndex)}${code}`;
    },
    imageRef(fingerprint) {
      return `i.${keyedCode(key, ['i', fingerprint], CODE_CHARS)}`;
    },
    spanRef(from, to, fingerprint) {
      return `s.${from}-${to}.${keyedCode(key, ['s', String(from), String(to), fingerprint], CODE_CHARS)}`;
    },
  };
}

/**
 * A fingerprint of the conversation's first non-system message: its role and the first 1,000
 * characters of its text (text parts and tool-result text), so a storage-time cap of a long first
 * message does not change it. Empty conversations share one anchor.
 */
export function recallAnchor(messages: readonly Message[]): string {
  return textFingerprint(anchorText(messages));
}

/** What {@link recallAnchor} fingerprints. */
function anchorText(messages: readonly Message[]): string {
  const first = messages.find((message) => message != null && message.role !== 'system');
  if (first === undefined) return '';
  let text = `${first.role}\n`;
  for (const part of messageParts(first)) {
    if (text.length > ANCHOR_CHARS) break;
    if (part.type === 'text' || part.type === 'reasoning') text += `${part.text.slice(0, ANCHOR_CHARS)}\n`;
    else if (part.type === 'tool-call') text += `${part.toolName} ${part.toolCallId}\n`;
    else if (part.type === 'tool-result') {
      text += `${part.toolName} ${part.toolCallId}\n`;
      if (typeof part.content === 'string') text += `${part.content.slice(0, ANCHOR_CHARS)}\n`;
    } else text += `${part.type}\n`;
  }
  return text.slice(0, ANCHOR_CHARS + 32);
}

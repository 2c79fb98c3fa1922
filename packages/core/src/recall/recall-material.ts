import { parseDataUrl } from '../estimate/decode-base64';
import { contentMemo } from '../message/content-memo';
import { knownSystemIndexes, leadingCount, listMemos, roleAt, sliceMessages } from '../message/list-memos';
import type { FilePart, ImagePart, Message, MessagePart, ToolResultPart } from '../message/message';
import { createSequenceMemo } from '../message/sequence-memo';
import { canonicalJson } from '../truncate/canonical-json';
import { imagePlaceholderWithRef } from '../truncate/image-placeholder';
import { textFingerprint } from './recall-hash';
import type { RecallScope } from './recall-scope';

/**
 * The texts of a tool result, one per text part in order (string content is one text). A
 * reference to a tool result names one of these by its index.
 */
export function toolResultTexts(result: ToolResultPart): string[] {
  if (typeof result.content === 'string') return [result.content];
  if (!Array.isArray(result.content)) return [];
  const texts: string[] = [];
  for (const part of result.content) {
    if (part?.type === 'text' && typeof part.text === 'string') texts.push(part.text);
  }
  return texts;
}

const imageFingerprints = new WeakMap<object, string>();

/**
 * A fingerprint of an image's (or file's) content, the same whether it is given as base64 text, a
 * `data:` URL or bytes: the bytes are what is fingerprinted. A remote URL is fingerprinted as itself.
 */
export function imageFingerprint(part: ImagePart | FilePart): string {
  const known = imageFingerprints.get(part);
  if (known !== undefined) return known;
  const fingerprint = textFingerprint(binaryOf(part));
  imageFingerprints.set(part, fingerprint);
  return fingerprint;
}

function binaryOf(part: ImagePart | FilePart): string {
  const { data, url } = part;
  if (typeof data === 'string') {
    if (/^https?:/i.test(data.slice(0, 8))) return `url:${data}`;
    const dataUrl = data.startsWith('data:') ? parseDataUrl(data) : undefined;
    if (dataUrl?.bytes !== undefined) return `bytes:${bytesToBinary(dataUrl.bytes)}`;
    return `bytes:${base64ToBinary(dataUrl?.base64 ?? data)}`;
  }
  if (data != null && typeof data.byteLength === 'number') return `bytes:${bytesToBinary(data)}`;
  if (typeof url === 'string') {
    const dataUrl = parseDataUrl(url);
    if (dataUrl?.base64 !== undefined) return `bytes:${base64ToBinary(dataUrl.base64)}`;
    if (dataUrl?.bytes !== undefined) return `bytes:${bytesToBinary(dataUrl.bytes)}`;
    return `url:${url}`;
  }
  return 'empty:';
}

function base64ToBinary(base64: string): string {
  let text = /\s/.test(base64) ? base64.replace(/\s+/g, '') : base64;
  if (text.includes('-') || text.includes('_')) text = text.replace(/-/g, '+').replace(/_/g, '/');
  text = text.replace(/=+$/, '');
  const remainder = text.length % 4;
  if (remainder === 1) text = text.slice(0, -1);
  else if (remainder > 1) text += '='.repeat(4 - remainder);
  try {
    return atob(text);
  } catch {
    return `text:${base64}`;
  }
}

function bytesToBinary(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return binary;
}

/** How an image is written in material: a fingerprint (for hashing) or a placeholder with its reference. */
type ImageLabel = (part: ImagePart | FilePart) => string;

/**
 * One conversation message as recall shows it, exactly and in full: a header with its number
 * (1-based, system messages not counted) and role, then each part — text as it is, tool calls as
 * `[tool call: name, call id] {json input}`, tool results as `[tool result: name, call id]` and
 * their text, images and files as their placeholder with a reference.
 */
export function renderMessageMaterial(message: Message, ordinal: number, imageLabel: ImageLabel): string {
  const lines = [`--- message ${ordinal + 1} (${message.role}) ---`];
  const content: readonly MessagePart[] =
    typeof message.content === 'string'
      ? [{ type: 'text', text: message.content }]
      : Array.isArray(message.content)
        ? message.content
        : [];
  for (const part of content) {
    const text = renderPart(part, imageLabel);
    if (text !== undefined) lines.push(text);
  }
  return lines.join('\n');
}

function renderPart(part: MessagePart, imageLabel: ImageLabel): string | undefined {
  switch (part?.type) {
    case 'text':
      return part.text;
    case 'reasoning':
      return `[reasoning]\n${part.text}`;
    case 'tool-call':
      return `[tool call: ${part.toolName}, call ${part.toolCallId}] ${canonicalJson(part.input) ?? ''}`;
    case 'tool-result': {
      const header = `[tool result: ${part.toolName}, call ${part.toolCallId}${part.isError === true ? ', error' : ''}]`;
      if (typeof part.content === 'string') return `${header}\n${part.content}`;
      const body: string[] = [];
      for (const item of Array.isArray(part.content) ? part.content : []) {
        if (item?.type === 'text') body.push(item.text);
        else if (item?.type === 'image' || item?.type === 'file') body.push(imageLabel(item));
        else if (item?.type === 'opaque' && typeof item.text === 'string') body.push(item.text);
      }
      return [header, ...body].join('\n');
    }
    case 'image':
    case 'file':
      return imageLabel(part);
    case 'opaque':
      return typeof part.text === 'string' ? part.text : undefined;
    default:
      return undefined;
  }
}

const messageFingerprints = new WeakMap<object, string>();

/**
 * A fingerprint of a message's material (role and every part, images by their content), the same
 * for a message converted from any of a framework's shapes. Memoised by content (see `contentMemo`).
 */
export function messageFingerprint(message: Message): string {
  const key: object = contentMemo(message) ?? message;
  const known = messageFingerprints.get(key);
  if (known !== undefined) return known;
  const fingerprint = textFingerprint(
    renderMessageMaterial(message, 0, (part) => `[${part.type} ${imageFingerprint(part)}]`),
  );
  messageFingerprints.set(key, fingerprint);
  return fingerprint;
}

/** A fingerprint of conversation messages `from`..`to` (exclusive) of `conversation` (no system messages). */
export function spanFingerprint(conversation: readonly Message[], from: number, to: number): string {
  // A request names the span its summary covers on every call: memoised by the span's content.
  return spanFingerprints.get(sliceMessages(conversation, from, to), '', () => {
    const fingerprints: string[] = [];
    for (let index = from; index < to; index++) fingerprints.push(messageFingerprint(conversation[index]!));
    return { fingerprint: textFingerprint(fingerprints.join(',')) };
  }).fingerprint;
}

const spanFingerprints = createSequenceMemo<{ fingerprint: string }>({ max: 256 });

/**
 * The material of a span: each message rendered by {@link renderMessageMaterial}, images with their
 * references, separated by blank lines.
 */
export function renderSpanMaterial(
  conversation: readonly Message[],
  from: number,
  to: number,
  scope: RecallScope,
): string {
  const label: ImageLabel = (part) => imagePlaceholderWithRef(part, scope.imageRef(imageFingerprint(part)));
  const rendered: string[] = [];
  for (let index = from; index < to; index++) {
    rendered.push(renderMessageMaterial(conversation[index]!, index, label));
  }
  return rendered.join('\n\n');
}

/** The conversation's messages without the system messages: what span references count. */
export function conversationMessages(messages: readonly Message[]): readonly Message[] {
  // Most conversations have a system message only at the start, or none: no copy of the rest. A
  // recognized request's roles are read from its memos, not from each message.
  const memos = listMemos(messages);
  // Where the system messages are, when the request's memos know it: nothing read per message.
  const systems = knownSystemIndexes(memos);
  if (systems !== undefined && leadingCount(systems) === systems.length) {
    return systems.length === 0 ? messages : sliceMessages(messages, systems.length, messages.length, memos);
  }
  const isSystem = (index: number) => messages[index] != null && roleAt(messages, index, memos) === 'system';
  let leading = 0;
  while (leading < messages.length && isSystem(leading)) leading++;
  for (let index = leading; index < messages.length; index++) {
    if (messages[index] == null || isSystem(index)) {
      return messages.filter((message) => message != null && message.role !== 'system');
    }
  }
  return leading === 0 ? messages : sliceMessages(messages, leading, messages.length, memos);
}

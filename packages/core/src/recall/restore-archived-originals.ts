import type { Message, MessagePart, ToolResultPart } from '../message/message';
import { replaceParts } from '../truncate/replace-parts';
import type { RecallArchive, RecallArchiveEntry } from './recall-archive';
import { toolResultTexts } from './recall-material';
import { RECALL_REF_PATTERN } from './recall-ref';
import { RECALL_TOOL_NAME } from './recall-tool';

/** Options of {@link restoreArchivedOriginals}. */
export interface RestoreArchivedOriginalsOptions {
  /** The conversation as stored: tool results capped at storage time hold only their head. */
  messages: readonly Message[];
  /** Where the originals of the capped results were archived. */
  archive: RecallArchive | undefined;
  /** The conversation's id in `archive`. */
  conversationId: string | undefined;
}

/** Characters of a capped text's head compared with the archived original's. */
const HEAD_CHARS = 64;

/**
 * The conversation as it was before the storage-time cap: every tool-result text that names an
 * archived original in its cut marker (`[ref=t.… offset=…]`), and begins as that original does, is
 * replaced by the original. What a request-time cut then names is the original itself (one hop to
 * it, not to the stored cut copy), and the references a request carries are the ones the read-back
 * tool recomputes. Messages with nothing to restore are returned as the same objects (the list
 * itself when nothing is restored); the input is never mutated; an original the archive let go
 * leaves its capped copy. Reads the archive once (`list`).
 */
export async function restoreArchivedOriginals({
  messages,
  archive,
  conversationId,
}: RestoreArchivedOriginalsOptions): Promise<readonly Message[]> {
  if (archive === undefined || conversationId === undefined) return messages;
  let entries: readonly RecallArchiveEntry[];
  try {
    entries = await archive.list(conversationId);
  } catch {
    // A store that fails leaves the capped copies: nothing is lost that was not lost already.
    return messages;
  }
  if (entries.length === 0) return messages;
  const originals = new Map(entries.map((entry) => [entry.ref, entry.text]));
  let changed = false;
  const restored = messages.map((message) => {
    if (message == null || !Array.isArray(message.content)) return message;
    let replacements: Map<number, MessagePart> | undefined;
    message.content.forEach((part, index) => {
      if (part?.type !== 'tool-result' || part.toolName === RECALL_TOOL_NAME) return;
      const restoredPart = restorePart(part, originals);
      if (restoredPart === part) return;
      replacements ??= new Map();
      replacements.set(index, restoredPart);
    });
    if (replacements === undefined) return message;
    changed = true;
    return replaceParts(message, replacements);
  });
  return changed ? restored : messages;
}

function restorePart(part: ToolResultPart, originals: ReadonlyMap<string, string>): ToolResultPart {
  const texts = toolResultTexts(part);
  const restoredTexts = texts.map((text) => originalOf(text, originals) ?? text);
  if (restoredTexts.every((text, index) => text === texts[index])) return part;
  if (typeof part.content === 'string') return { ...part, content: restoredTexts[0]! };
  let textIndex = 0;
  const content = part.content.map((item) => {
    if (item?.type !== 'text' || typeof item.text !== 'string') return item;
    const text = restoredTexts[textIndex++]!;
    return text === item.text ? item : { ...item, text };
  });
  return { ...part, content };
}

/** The archived original a capped text names, when the text begins as that original does. */
function originalOf(text: string, originals: ReadonlyMap<string, string>): string | undefined {
  for (const match of text.matchAll(RECALL_REF_PATTERN)) {
    const original = originals.get(match[0]);
    if (original === undefined || original === text) continue;
    if (original.startsWith(text.slice(0, Math.min(HEAD_CHARS, match.index ?? 0)))) return original;
  }
  return undefined;
}

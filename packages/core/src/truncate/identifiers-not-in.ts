import type { ToolResultPart } from '../message/message';
import { salientIdentifiers } from '../summarize/salient-identifiers';

/** The most characters the identifiers only an earlier result mentioned may take in its note. */
const GONE_IDENTIFIER_CHARS = 160;

/** A result's text parts, joined. */
export function resultText(result: ToolResultPart): string {
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
export function identifiersNotIn(result: ToolResultPart, newer: string): string[] {
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

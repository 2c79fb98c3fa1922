import type { Message } from '../message/message';
import { toolResultsOf } from '../message/message-parts';
import { toolResultTexts } from '../recall/recall-material';
import { salientIdentifiers } from './salient-identifiers';

/**
 * The salient identifiers (see {@link salientIdentifiers}) of each tool result of `messages`, the
 * oldest result first and each result's most telling identifier last: read from the end, the list
 * gives the newest result's best first.
 */
export function toolIdentifiersOf(messages: readonly Message[]): string[] {
  const identifiers: string[] = [];
  for (const message of messages) {
    for (const part of toolResultsOf(message)) {
      identifiers.push(...salientIdentifiers(toolResultTexts(part).join('\n')).reverse());
    }
  }
  return identifiers;
}

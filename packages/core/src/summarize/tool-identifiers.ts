import type { Message } from '../message/message';
import { toolResultsOf } from '../message/message-parts';
import { toolResultTexts } from '../recall/recall-material';
import { salientIdentifiers } from './salient-identifiers';

/** The most identifiers of one tool result a summary's line offers: its most telling three. */
const PER_RESULT = 3;

/**
 * The most telling identifiers (see {@link salientIdentifiers}) of each tool result of `messages`,
 * {@link PER_RESULT} per result, {@link inRounds}: read from the end, the newest result's best, the
 * next newest result's best, and so on, before any result's second.
 */
export function toolIdentifiersOf(messages: readonly Message[]): string[] {
  const perResult: string[][] = [];
  for (const message of messages) {
    for (const part of toolResultsOf(message)) {
      perResult.push(salientIdentifiers(toolResultTexts(part).join('\n'), { maxCount: PER_RESULT }));
    }
  }
  return inRounds(perResult);
}

/**
 * The identifiers of `sources` (oldest source first, each source's list best first) as one list
 * read from the end: the newest source's first identifier last, before it the next newest source's
 * first, and so on to the oldest source; then every source's second, newest first; and so on. A
 * line that takes the latest it has room for (see `withIdentifiers`) names one thing of as many
 * sources as it can before it names a second thing of any. Each identifier once, where it ranks best.
 */
export function inRounds(sources: readonly (readonly string[])[]): string[] {
  const best: string[] = [];
  const taken = new Set<string>();
  for (let depth = 0, more = true; more; depth++) {
    more = false;
    for (let source = sources.length - 1; source >= 0; source--) {
      const identifier = sources[source]![depth];
      if (identifier === undefined) continue;
      more = true;
      if (taken.has(identifier)) continue;
      taken.add(identifier);
      best.push(identifier);
    }
  }
  return best.reverse();
}

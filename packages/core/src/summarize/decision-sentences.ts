import type { Message } from '../message/message';
import { messageText } from '../message/message-parts';
import { splitSentences } from '../pin/detect-rules';

/**
 * Words that make a sentence state a choice: a decision taken ("went with", "decided", "settled
 * on"), a recommendation, or one option over another ("rather than", "instead of", "…, not Y").
 * The decision words of the user's salient sentences (`salientSentences`), with "recommend" and
 * "opt for"; without the modals and directions, which the assistant's text is full of.
 */
const DECISION =
  /\b(?:go(?:ing)? with|went with|rather than|instead of|decid(?:e|ed|ing)|decision|chose|chosen|choose|opt(?:ed|ing)? for|settled? on|switch(?:ed)? to|recommend(?:s|ed|ation)?)\b|,\s*(?:and\s+)?not\b/i;
/** Longer sentences are prose a decision is buried in (or data), not a statement of one. */
const MAX_CHARS = 400;
/** A statement names its choice: a few words at least. */
const MIN_WORDS = 5;

/**
 * The sentences of the assistant's text in `messages` that state a choice (see {@link DECISION}),
 * oldest first, each once: what a summary that drops them would lose of why the work went the way
 * it did. Questions and fragments are left out. Deterministic and linear in the text.
 */
export function assistantDecisionsOf(messages: readonly Message[]): string[] {
  const found = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const sentence of splitSentences(messageText(message))) {
      if (sentence.length > MAX_CHARS || sentence.endsWith('?') || found.has(sentence)) continue;
      if (sentence.split(/\s+/).length < MIN_WORDS || !DECISION.test(sentence)) continue;
      found.add(sentence);
    }
  }
  return [...found];
}

import type { Message } from '../message/message';
import { messageText } from '../message/message-parts';
import { splitSentences } from '../pin/detect-rules';
import { CHOICE_WORDS } from './salient-sentences';

/**
 * Words that make a sentence state a choice: a decision taken or one option over another
 * ({@link CHOICE_WORDS}: "went with", "decided", "rather than", the words the user's salient
 * sentences read a choice by), "opt for", a recommendation, or "…, not Y"; not the modals and
 * directions the user's sentences are also kept for, which the assistant's text is full of.
 */
const DECISION = new RegExp(
  `\\b(?:${CHOICE_WORDS}|opt(?:ed|ing)? for|recommend(?:s|ed|ation)?)\\b|,\\s*(?:and\\s+)?not\\b`,
  'i',
);
/** Longer sentences are prose a decision is buried in (or data), not a statement of one. */
const MAX_CHARS = 400;
/** A statement names its choice: a few words at least. */
const MIN_WORDS = 5;

/** A sentence that states a choice, and who stated it. */
export interface StatedDecision {
  /** The sentence, verbatim. */
  readonly text: string;
  readonly by: 'user' | 'assistant';
}

/**
 * The sentences of the user's and the assistant's text in `messages` that state a choice (see
 * {@link DECISION}), oldest first, each once: what a summary that drops them would lose of why the
 * work went the way it did. Questions and fragments are left out; tool results and system
 * messages are not read. Deterministic and linear in the text.
 */
export function decisionsOf(messages: readonly Message[]): StatedDecision[] {
  const found = new Map<string, StatedDecision>();
  for (const message of messages) {
    if (message.role !== 'assistant' && message.role !== 'user') continue;
    for (const sentence of splitSentences(messageText(message))) {
      if (sentence.length > MAX_CHARS || sentence.endsWith('?') || found.has(sentence)) continue;
      if (sentence.split(/\s+/).length < MIN_WORDS || !DECISION.test(sentence)) continue;
      found.set(sentence, { text: sentence, by: message.role });
    }
  }
  return [...found.values()];
}

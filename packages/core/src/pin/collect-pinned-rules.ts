import { contentMemo } from '../message/content-memo';
import type { Message } from '../message/message';
import { messageText } from '../message/message-parts';
import { createSequenceMemo } from '../message/sequence-memo';
import { type DetectedRules, detectRules, topicOverlap, topicWords } from './detect-rules';

/** One standing rule carried in the pinned block. */
export interface PinnedRule {
  /** The rule as the user wrote it (a sentence, or a whole pinned message), verbatim. */
  readonly text: string;
  /** The conversation message it comes from (0-based, system messages not counted). */
  readonly messageNumber: number;
  /** Why it is pinned: detected by the rule patterns, or pinned explicitly (`pin`, a per-message marker). */
  readonly source: 'detected' | 'explicit';
  /** Whether it replaced an earlier rule (a revocation, or a restatement of the same rule). */
  readonly updates?: number;
}

/**
 * Decides per message: `true` pins the whole message text, `false` never pins anything from it
 * (unpins what the patterns would find), `undefined` leaves it to detection.
 */
export type PinPredicate = (message: Message, messageNumber: number) => boolean | undefined;

/** Options of {@link collectPinnedRules}. */
export interface CollectPinnedRulesOptions {
  /**
   * Detect rules in user messages with the documented patterns (see `detectRules`).
   * @default true
   */
  detect?: boolean;
  /** Explicit pins and unpins (see {@link PinPredicate}). */
  pin?: PinPredicate | undefined;
}

/**
 * Overlap at which a revocation replaces a rule (shared content words over the smaller topic's):
 * "you may now run migrations on prod" revokes "never run migrations on prod" (3 of 3), not
 * "never run tests on prod" (2 of 3).
 */
export const REVOKE_OVERLAP = 0.75;
/**
 * Overlap at which a new rule replaces an earlier one: every content word of one is in the other (a
 * restatement, "never ever touch billing" after "do not touch billing"). Rules that differ in a
 * word ("endpoint 1" and "endpoint 2", "in French" and "in English") both stay: dropping a rule by a
 * wrong match would be worse than showing the model both, in order.
 */
export const RESTATE_OVERLAP = 1;

const detected = new WeakMap<object, DetectedRules>();

/**
 * The standing rules of a conversation in force after its last message, oldest first: every rule
 * detected in a user message (or pinned explicitly), where a later revocation ("you may now …")
 * replaces the rule it is about (by topic: the rule's content words) instead of adding a second
 * entry, and a restatement of the same rule replaces the earlier one. Pure and deterministic;
 * detection is memoised per message content.
 */
export function collectPinnedRules(
  messages: readonly Message[],
  { detect = true, pin }: CollectPinnedRulesOptions = {},
): PinnedRule[] {
  // Without a predicate the rules follow from the messages' content alone: remembered by content
  // (a fresh copy of the conversation, every request of a server, collects nothing again).
  if (pin === undefined)
    return collected.get(messages, `detect:${detect}`, () => collect(messages, detect)).slice();
  return collect(messages, detect, pin);
}

/** Rules of conversations by content (see `createSequenceMemo`). */
const collected = createSequenceMemo<PinnedRule[]>();

function collect(messages: readonly Message[], detect: boolean, pin?: PinPredicate): PinnedRule[] {
  const rules: (PinnedRule & { topic: Set<string> })[] = [];
  let number = 0;
  for (const message of messages) {
    if (message == null || message.role === 'system') continue;
    const messageNumber = number++;
    const decision = pin?.(message, messageNumber);
    if (decision === false) continue;
    if (decision === true) {
      const text = messageText(message).trim();
      if (text.length > 0) rules.push({ text, messageNumber, source: 'explicit', topic: topicWords(text) });
      continue;
    }
    if (!detect || message.role !== 'user') continue;
    const found = detectedIn(message);
    for (const revocation of found.revocations) {
      const topic = topicWords(revocation);
      const index = bestMatch(rules, topic, REVOKE_OVERLAP);
      if (index === -1) continue;
      const replaced = rules[index]!;
      rules[index] = {
        text: revocation,
        messageNumber,
        source: 'detected',
        updates: replaced.messageNumber,
        topic,
      };
    }
    for (const rule of found.rules) {
      const topic = topicWords(rule);
      const index = bestMatch(rules, topic, RESTATE_OVERLAP);
      if (index === -1) {
        rules.push({ text: rule, messageNumber, source: 'detected', topic });
      } else {
        const replaced = rules[index]!;
        rules[index] = {
          text: rule,
          messageNumber,
          source: 'detected',
          updates: replaced.messageNumber,
          topic,
        };
      }
    }
  }
  return rules.map(({ topic: _topic, ...rule }) => rule);
}

function detectedIn(message: Message): DetectedRules {
  const key: object = contentMemo(message) ?? message;
  let found = detected.get(key);
  if (found === undefined) {
    found = detectRules(messageText(message));
    detected.set(key, found);
  }
  return found;
}

/** The rule whose topic overlaps `topic` most (at least `threshold`; the latest on a tie), or -1. */
function bestMatch(rules: readonly { topic: Set<string> }[], topic: Set<string>, threshold: number): number {
  let best = -1;
  let bestOverlap = 0;
  rules.forEach((rule, index) => {
    const overlap = topicOverlap(rule.topic, topic);
    if (overlap >= threshold && overlap >= bestOverlap) {
      best = index;
      bestOverlap = overlap;
    }
  });
  return best;
}

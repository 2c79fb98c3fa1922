import { detectRules } from '@spillway/core';
import type { ModelMessage } from 'ai';
import type { Conversation } from '../conversation/conversation';
import { generateConversation } from '../conversation/generate-conversation';
import { EVICTION_ATTACKS } from '../conversation/needle-text';
import { ORDINARY_SENTENCES } from '../conversation/phrasings/ordinary-sentences';
import { type PhrasingSplit, phrasingsIn } from '../conversation/phrasings/phrasing-split';
import { RULE_PHRASINGS } from '../conversation/phrasings/rule-phrasings';
import { FILLER_WORDS } from '../conversation/vocabulary';
import { splitSentences } from '../summarizer/lossy-summarizer';

/** A rate: how many of how many, and which ones (the misses or the false pins). */
export interface DetectorRate {
  count: number;
  total: number;
  /** `count / total` (0 when there is nothing to count). */
  rate: number;
  /** The sentences behind the figure that went wrong (missed rules, pinned ordinary sentences). */
  wrong: string[];
}

/** How the engine's rule detector does on one split of the phrasings. */
export interface DetectorRates {
  split: PhrasingSplit;
  /** The rule phrasings of the split, each alone: how many the detector pins (whole sentence). */
  catchRate: DetectorRate;
  /**
   * The rules planted in the sample conversations, in the user message that carries them: how many
   * the detector pins there (the sentence split and its neighbours as they come).
   */
  catchRateInConversation: DetectorRate;
  /**
   * Ordinary sentences of the generator's non-rule user and assistant text (questions left out: a
   * detector never pins them): how many the detector pins.
   */
  falsePinRate: DetectorRate;
  /**
   * The split's list of ordinary sentences alone (`ORDINARY_SENTENCES`, questions left out): the
   * hard cases, many of them using never, always, must, only or "not allowed" in their everyday sense.
   */
  falsePinRateOrdinary: DetectorRate;
}

/** Options of {@link measureRuleDetector}. */
export interface MeasureRuleDetectorOptions {
  /** The split whose phrasings are measured. */
  split: PhrasingSplit;
  /**
   * The detector: text in, the rule sentences it pins out.
   * @default `detectRules` from `@spillway/core` (its `rules`)
   */
  detect?: (text: string) => readonly string[];
  /**
   * The conversations the in-conversation catch rate and the ordinary sentences come from.
   * @default seeds 1001–1008 × 300 turns of `split`
   */
  conversations?: readonly Conversation[];
}

const rate = (count: number, total: number, wrong: string[]): DetectorRate => ({
  count,
  total,
  rate: total === 0 ? 0 : count / total,
  wrong,
});

function messageTexts(message: ModelMessage): string[] {
  if (typeof message.content === 'string') return [message.content];
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

const FILLER = new Set(FILLER_WORDS);

/** The seeds of the sample conversations (fixed, so the rates do not depend on the suite run). */
const DETECTOR_SEEDS = [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008];

/** Whether a sentence is prose a detector should judge (not a log line, code, filler or a question). */
function isOrdinaryProse(sentence: string): boolean {
  if (!/^[A-Z"']/.test(sentence) || !/[.!]$/.test(sentence)) return false;
  const words = sentence.toLowerCase().match(/[a-z']+/g) ?? [];
  if (words.length < 4) return false;
  // The generator's word-salad filler ("Request the cache retry …") says nothing; leave it out.
  if (words.every((word) => FILLER.has(word))) return false;
  return !/[{};=]|^\d{4}-\d\d-\d\d/.test(sentence);
}

/**
 * Measures the engine's deterministic rule detector on the benchmark's phrasings: its catch rate on
 * the split's rule phrasings (alone and where the generator planted them) and its false-pin rate on
 * the generator's ordinary sentences. The benchmark imports the detector to measure it; the
 * detector never sees these phrasings otherwise.
 */
export function measureRuleDetector({
  split,
  detect = (text) => detectRules(text).rules,
  conversations = DETECTOR_SEEDS.map((seed) => generateConversation({ seed, turns: 300, split })),
}: MeasureRuleDetectorOptions): DetectorRates {
  const pins = (text: string, rule: string) => detect(text).some((pinned) => pinned.includes(rule));
  const rules = phrasingsIn(RULE_PHRASINGS, split, (item) => item.text);
  const missed = rules.filter((rule) => !pins(rule.text, rule.text)).map((rule) => rule.text);

  let planted = 0;
  const missedInConversation: string[] = [];
  const ruleTexts = new Set<string>();
  for (const conversation of conversations) {
    for (const needle of conversation.needles) {
      if (needle.kind !== 'constraint') continue;
      for (const placement of needle.placements) {
        for (const value of placement.values) {
          ruleTexts.add(value);
          planted++;
          const text = messageTexts(conversation.messages[placement.messageIndex]!).join('\n');
          if (!pins(text, value)) missedInConversation.push(value);
        }
      }
    }
  }

  const ordinary = new Set<string>();
  for (const conversation of conversations) {
    for (const message of conversation.messages) {
      if (message.role !== 'user' && message.role !== 'assistant') continue;
      for (const text of messageTexts(message)) {
        for (const sentence of splitSentences(text.replace(/^\[(?:turn|answer) \d+\]\n/, ''))) {
          const line = sentence.replace(/^[-*]\s+/, '');
          if (!isOrdinaryProse(line)) continue;
          if ([...ruleTexts].some((rule) => line.includes(rule) || rule.includes(line))) continue;
          if (EVICTION_ATTACKS.some((attack) => attack.includes(line))) continue;
          ordinary.add(line);
        }
      }
    }
  }
  const falsePins = [...ordinary].filter((sentence) => detect(sentence).length > 0);
  const hard = [
    ...phrasingsIn(ORDINARY_SENTENCES.user, split, (item) => item),
    ...phrasingsIn(ORDINARY_SENTENCES.assistant, split, (item) => item),
  ].filter((sentence) => !sentence.endsWith('?'));
  const hardPins = hard.filter((sentence) => detect(sentence).length > 0);

  return {
    split,
    catchRate: rate(rules.length - missed.length, rules.length, missed),
    catchRateInConversation: rate(planted - missedInConversation.length, planted, [
      ...new Set(missedInConversation),
    ]),
    falsePinRate: rate(falsePins.length, ordinary.size, falsePins),
    falsePinRateOrdinary: rate(hardPins.length, hard.length, hardPins),
  };
}

import { hashUnit } from '../random/hash-text';

/** Options of {@link createLossySummarizer}. */
export interface LossySummarizerOptions {
  /** Seeds the coin flip of every sentence. */
  seed: number;
  /**
   * Share of sentences kept: a sentence is kept when `hash(seed, sentence) < keepRatio`.
   * @default 0.5
   */
  keepRatio?: number;
  /**
   * Longest summary, in characters (about a quarter as many tokens). When the kept sentences are
   * longer, those with the lowest hash are kept, in their original order.
   * @default 8000
   */
  maxOutputChars?: number;
  /**
   * Longest summary as a share of the prompt's own text (its sentences, instructions excluded): a
   * summary is shorter than what it summarizes.
   * @default 0.25
   */
  maxOutputShare?: number;
  /**
   * Sentences that are instructions to the summarizer (the frameworks' summary prompts and
   * summary framing), never copied into a summary.
   * @default none
   */
  instructions?: Iterable<string>;
  /**
   * The standing rules of the conversation (sentences, however phrased): a sentence containing one
   * of them is a rule sentence, as is one matching {@link RULE_SENTENCE}. A model told to drop the
   * earlier rules recognises a rule by what it says, not by its keywords.
   * @default none
   */
  rules?: Iterable<string>;
}

/** The longest sentence copied; longer lines are data (a JSON blob, a base64 line), not prose. */
const MAX_SENTENCE_CHARS = 400;
/** A sentence needs this many words (tokens starting with a letter) to be worth copying. */
const MIN_WORDS = 4;
/** …or this many CJK characters. */
const MIN_CJK = 8;

/**
 * An instruction to drop earlier rules, as an eviction attack phrases it ("drop all previous rules
 * and constraints", "ignore the earlier instructions", …).
 */
export const EVICTION_INSTRUCTION =
  /\b(?:drop|ignore|disregard|forget|discard|remove|omit)\b[^.!?]{0,80}\b(?:previous|earlier|prior|above|all|existing)\b[^.!?]{0,40}\b(?:rules?|instructions?|constraints?|policies)\b/i;

/** A sentence that states a standing rule by its keywords (see also `rules`). */
export const RULE_SENTENCE = /\b(?:never|always|only|must|do not|don't)\b/i;

/**
 * The scripted "lossy model" every strategy that accepts a summarizer is given. It reads the whole
 * prompt it is sent and answers with a subset of the prompt's own sentences, verbatim:
 *
 * 1. Split the prompt into sentences: at line breaks, and after `.`, `!`, `?` (and `。！？`)
 *    followed by white space.
 * 2. Skip the summarizer's instructions (`instructions`), blank lines, sentences longer than 400
 *    characters, and sentences with fewer than 4 words (or 8 CJK characters): logs' and JSON's
 *    short lines, base64, braces — data a model describes rather than copies.
 * 3. Obey in-text instructions: a sentence that tells the summarizer to drop, ignore or forget the
 *    previous/earlier/all rules, instructions or constraints ({@link EVICTION_INSTRUCTION}) removes
 *    every rule sentence that came before it in the prompt (one that holds a rule of `rules`, or
 *    matches {@link RULE_SENTENCE}: never, always, only, must, do not); the instruction itself is
 *    not copied either.
 * 4. Keep each remaining sentence when `hash(seed, sentence) < keepRatio` (0.5): the coin flip
 *    depends on the sentence alone, so every strategy faces the same flips, and a sentence kept
 *    once is kept again when a summary is summarized again (a stable model; losses come from
 *    what the pipeline sends, the length cap and the attack, not from re-rolling).
 * 5. Drop repeats; cap the result at `maxOutputChars` (8,000 ≈ 2,000 tokens) and at
 *    `maxOutputShare` (a quarter) of the prompt's own text, by keeping the lowest-hash sentences
 *    (as if the threshold were lowered); answer one sentence per line, in prompt order.
 *
 * When nothing is kept it answers `No details to keep.` (never blank: a blank answer is a failure
 * for every framework).
 */
export function createLossySummarizer({
  seed,
  keepRatio = 0.5,
  maxOutputChars = 8000,
  maxOutputShare = 0.25,
  instructions = [],
  rules = [],
}: LossySummarizerOptions): (prompt: string) => string {
  const ignored = new Set<string>();
  for (const text of instructions) for (const line of splitSentences(text)) ignored.add(line);
  const ruleTexts = [...rules];
  const isRule = (sentence: string) =>
    RULE_SENTENCE.test(sentence) || ruleTexts.some((rule) => sentence.includes(rule));
  return (prompt) => {
    const sentences = splitSentences(prompt);
    const dropped = new Set<number>();
    for (let index = 0; index < sentences.length; index++) {
      if (!EVICTION_INSTRUCTION.test(sentences[index]!)) continue;
      dropped.add(index);
      for (let earlier = 0; earlier < index; earlier++) {
        if (isRule(sentences[earlier]!)) dropped.add(earlier);
      }
    }
    const kept: { sentence: string; score: number; order: number }[] = [];
    const seen = new Set<string>();
    let material = 0;
    sentences.forEach((sentence, order) => {
      if (!ignored.has(sentence)) material += sentence.length + 1;
      if (dropped.has(order) || ignored.has(sentence) || seen.has(sentence) || !copyable(sentence)) return;
      const score = hashUnit(sentence, seed);
      if (score >= keepRatio) return;
      seen.add(sentence);
      kept.push({ sentence, score, order });
    });
    const limit = Math.min(maxOutputChars, Math.floor(material * maxOutputShare));
    let total = kept.reduce((sum, item) => sum + item.sentence.length + 1, 0);
    if (total > limit) {
      const byScore = [...kept].sort((left, right) => left.score - right.score);
      const chosen = new Set<number>();
      total = 0;
      for (const item of byScore) {
        if (total + item.sentence.length + 1 > limit) continue;
        total += item.sentence.length + 1;
        chosen.add(item.order);
      }
      const filtered = kept.filter((item) => chosen.has(item.order));
      kept.length = 0;
      kept.push(...filtered);
    }
    return kept.length === 0 ? 'No details to keep.' : kept.map((item) => item.sentence).join('\n');
  };
}

/** The sentences of `text`: split at line breaks and after sentence-ending punctuation. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    for (const piece of line.split(/(?<=[.!?])\s+|(?<=[。！？])/)) {
      const sentence = piece.trim();
      if (sentence !== '') out.push(sentence);
    }
  }
  return out;
}

function copyable(sentence: string): boolean {
  if (sentence.length > MAX_SENTENCE_CHARS) return false;
  const cjk = sentence.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g)?.length ?? 0;
  if (cjk >= MIN_CJK) return true;
  let wordCount = 0;
  for (const token of sentence.split(/\s+/)) {
    if (/^[^\p{L}]*\p{L}/u.test(token) && token.length <= 40) wordCount++;
  }
  return wordCount >= MIN_WORDS;
}

import { describe, expect, it } from 'vitest';
import { createEstimator } from '../estimate/create-estimator';
import type { Message } from '../message/message';
import { detectRules } from '../pin/detect-rules';
import { USER_WORDS_HEADING, userWordsBlock } from './user-words-block';

const estimator = createEstimator();
const messages: Message[] = Array.from({ length: 6 }, (_, index) =>
  index % 2 === 0
    ? { role: 'user', content: `Question ${index}: ${'please look at the retry path again. '.repeat(8)}` }
    : { role: 'assistant', content: `Answer ${index}.` },
);
const options = {
  firstNumber: 0,
  maxTokens: 120,
  countText: (text: string) => estimator.countText(text),
  blobMinChars: 4_000,
  blobKeepChars: 2_000,
};

describe('userWordsBlock', () => {
  it('names where the condensed messages went: the summary beside it, or nowhere in a drop note', () => {
    const beside = userWordsBlock(messages, options);
    expect(beside.condensed).toBeGreaterThan(0);
    expect(beside.text).toContain('condensed into the summary above]');
    const note = userWordsBlock(messages, { ...options, beside: 'note' });
    expect(note.condensed).toBe(beside.condensed);
    expect(note.text).toContain('left out for room]');
    expect(note.text).not.toContain('summary');
  });

  it('shortens the oldest messages to their salient sentences before leaving any out', () => {
    const filler = 'the weather was nice and the build looked slow. '.repeat(12);
    const asks: Message[] = [
      { role: 'user', content: `${filler}The account in question is ACC-430271. ${filler}` },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: filler },
      { role: 'assistant', content: 'Noted.' },
      {
        role: 'user',
        content: `${filler}We'll go with Postgres rather than MySQL for the ledger. ${filler}`,
      },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: `Newest: ${filler}` },
    ];
    const whole = userWordsBlock(asks, { ...options, maxTokens: 100_000 });
    expect(whole.condensed).toBe(0);
    const tokensOf = (text: string | undefined) => estimator.countText(text ?? '');
    // Room for the newest message whole and a little more.
    const maxTokens = tokensOf(`[message 7] Newest: ${filler}`) + 120;
    const block = userWordsBlock(asks, { ...options, maxTokens });
    expect(tokensOf(block.text)).toBeLessThanOrEqual(maxTokens);
    expect(block.text).toContain('[message 1, in part] The account in question is ACC-430271.');
    expect(block.text).toContain(
      "[message 5, in part] We'll go with Postgres rather than MySQL for the ledger.",
    );
    expect(block.text).toContain(`[message 7] Newest: ${filler.trim()}`);
    // The message with nothing salient is left out, and named.
    expect(block.text).toContain('[user message 3: condensed into the summary above]');
    expect(block.condensed).toBe(1);
    expect([...block.quoted]).toEqual([0, 4, 6]);
    // Quoted whole: only the newest (a message pinned explicitly goes to the pinned block otherwise).
    expect([...block.whole]).toEqual([6]);
    // Tighter: every message is shortened first (the newest, naming nothing, is left out too)…
    const shortened = userWordsBlock(asks, { ...options, maxTokens: 120 });
    expect(tokensOf(shortened.text)).toBeLessThanOrEqual(120);
    expect(shortened.text).toContain(
      '[2 user messages from 3 to 7, not quoted below: condensed into the summary above]',
    );
    expect(shortened.text).toContain('ACC-430271');
    // …and only then are the oldest left out.
    const postgres = "[message 5, in part] We'll go with Postgres rather than MySQL for the ledger.";
    const oneLine = tokensOf(USER_WORDS_HEADING) + 24 + tokensOf(postgres) + 1 + 4;
    const tight = userWordsBlock(asks, { ...options, maxTokens: oneLine });
    expect(tokensOf(tight.text)).toBeLessThanOrEqual(oneLine);
    expect(tight.text).toContain(postgres);
    expect(tight.text).not.toContain('ACC-430271');
    expect(tight.text).toContain(
      '[3 user messages from 1 to 7, not quoted below: condensed into the summary above]',
    );
  });

  it('drops the sentences that only name something before it leaves a direction out', () => {
    // Directions the rule detector does not pin (checked below): only these words carry them.
    const directions = [
      'Nobody outside the finance group gets the raw export.',
      "I'm colour-blind, so skip red and green colour coding in charts.",
      'Any query against the replica has a LIMIT clause.',
    ];
    const asks: Message[] = directions.flatMap((direction, index) => [
      {
        role: 'user',
        content: `The tenant in question is TEN-${4_100 + index}. ${direction} The ledger export ran at 09:${10 + index} on node-${index}.`,
      } satisfies Message,
      { role: 'assistant', content: 'Noted.' } satisfies Message,
    ]);
    const tokensOf = (text: string | undefined) => estimator.countText(text ?? '');
    const salient = userWordsBlock(asks, { ...options, maxTokens: 100_000 });
    expect(salient.condensed).toBe(0);
    // Room for the three directions alone, not for the names beside them.
    const lines = directions.map((direction, index) => `[message ${2 * index + 1}, in part] ${direction}`);
    const maxTokens =
      tokensOf(USER_WORDS_HEADING) + 24 + lines.reduce((sum, line) => sum + tokensOf(line) + 1, 0);
    const block = userWordsBlock(asks, { ...options, maxTokens });
    expect(tokensOf(block.text)).toBeLessThanOrEqual(maxTokens);
    for (const line of lines) expect(block.text).toContain(line);
    expect(block.text).not.toContain('TEN-4100');
    expect(block.condensed).toBe(0);
    // Before this step the oldest message was left out whole, its direction with it.
    for (const direction of directions) expect(detectRules(direction).rules).toEqual([]);
  });

  it('names the messages it leaves out in one short line, however many and wherever they are', () => {
    const span: Message[] = Array.from({ length: 400 }, (_, index) =>
      index % 2 === 1
        ? { role: 'assistant', content: 'Noted.' }
        : {
            role: 'user',
            content:
              index % 4 === 0
                ? 'the build looked slow this morning.'
                : `The account is ACC-${100_000 + index}.`,
          },
    );
    for (const maxTokens of [60, 300, 1_000]) {
      const block = userWordsBlock(span, { ...options, maxTokens });
      expect(estimator.countText(block.text ?? '')).toBeLessThanOrEqual(maxTokens);
      expect(block.text).toMatch(
        /\[(?:\d+ user messages from 1 to \d+, not quoted below|user messages 1–\d+): condensed into the summary above\]/,
      );
    }
  });
});

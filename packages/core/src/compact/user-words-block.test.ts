import { describe, expect, it } from 'vitest';
import { createEstimator } from '../estimate/create-estimator';
import type { Message } from '../message/message';
import { userWordsBlock } from './user-words-block';

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
});

import { describe, expect, it } from 'vitest';
import type { Message } from '../message/message';
import { createEstimator } from './create-estimator';
import { estimateTextTokens } from './estimate-text-tokens';
import { estimateTokens } from './estimate-tokens';

describe('estimateTokens', () => {
  const messages: Message[] = [
    { role: 'system', content: 'You are a careful assistant.' },
    {
      role: 'user',
      content: [{ type: 'text', text: 'Summarise this log: 2025-01-01T00:00:00Z ERROR disk full' }],
    },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'df', input: { path: '/var' } }],
    },
  ];

  it('counts a string with the text heuristic', () => {
    expect(estimateTokens('hello world')).toBe(estimateTextTokens('hello world'));
    expect(estimateTokens('')).toBe(0);
  });

  it('counts a message and a list like a default estimator', () => {
    const reference = createEstimator();
    expect(estimateTokens(messages[1]!)).toBe(reference.countMessage(messages[1]!));
    expect(estimateTokens(messages)).toBe(reference.countMessages(messages));
    expect(estimateTokens([])).toBe(0);
  });

  it('gives the same answer when asked again (shared, memoised estimator)', () => {
    const first = estimateTokens(messages);
    expect(estimateTokens(messages)).toBe(first);
    expect(estimateTokens([...messages, { role: 'user', content: 'and?' }])).toBeGreaterThan(first);
  });
});

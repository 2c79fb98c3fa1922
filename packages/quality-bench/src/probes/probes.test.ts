import { describe, expect, it } from 'vitest';
import type { BenchRequest } from '../request/bench-request';
import { answerHolds, PROBE_TYPE } from './create-prober';
import { toModelMessages } from './to-model-messages';
import { wilsonInterval } from './wilson-interval';

describe('probes', () => {
  it('computes the 95% Wilson interval', () => {
    const half = wilsonInterval(50, 100);
    expect(half.share).toBe(0.5);
    expect(half.low).toBeCloseTo(0.4038, 3);
    expect(half.high).toBeCloseTo(0.5962, 3);
    const none = wilsonInterval(0, 10);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.2775, 3);
    expect(wilsonInterval(10, 10).high).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual({ share: 0, low: 0, high: 1 });
  });

  it('scores an answer by exact match of every expected word, numbers as whole numbers', () => {
    expect(answerHolds('The deploy was dep-7f3a9c2e.', ['dep-7f3a9c2e'])).toBe(true);
    expect(answerHolds('It was DEP-7F3A9C2E', ['dep-7f3a9c2e'])).toBe(true);
    expect(answerHolds('The limit is now 47.', ['47'])).toBe(true);
    expect(answerHolds('The limit is now 470.', ['47'])).toBe(false);
    expect(answerHolds('Ingrid approves it.', ['Ingrid', 'treasury'])).toBe(false);
  });

  it('asks each class with one of the four probe types', () => {
    expect(new Set(Object.values(PROBE_TYPE))).toEqual(
      new Set(['recall', 'artifact', 'continuation', 'decision']),
    );
  });

  it('turns a request back into AI SDK messages: tool calls parsed, images as placeholders, tools named', () => {
    const request: BenchRequest = [
      { role: 'system', parts: [{ type: 'text', text: 'You are helpful.' }] },
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'Look at this.' },
          { type: 'image', data: 'iVBOR', mediaType: 'image/png' },
        ],
      },
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: '{"path":"a.ts"}' }],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'read_file',
            content: [{ type: 'text', text: 'code' }],
          },
        ],
      },
    ];
    const { system, messages, toolNames } = toModelMessages(request);
    expect(system).toBe('You are helpful.');
    expect(toolNames).toEqual(['read_file']);
    expect(messages).toEqual([
      { role: 'user', content: 'Look at this.\n[image: image/png]' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a.ts' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'read_file',
            output: { type: 'text', value: 'code' },
          },
        ],
      },
    ]);
  });
});

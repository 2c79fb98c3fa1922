import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentConversation, assertToolPairsIntact } from '../../test/conversation-fixtures';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Estimator } from '../estimate/estimator';
import type { Message, MessagePart } from '../message/message';
import { splitMessages } from './split-messages';

/** Counts 1 token per 4 characters of JSON: simple and predictable for boundary tests. */
const estimator: Estimator = {
  countText: (text) => Math.ceil(text.length / 4),
  countPart: (part) => Math.ceil(JSON.stringify(part).length / 4),
  countMessage: (message) => Math.ceil(JSON.stringify(message).length / 4),
  countMessages: (messages) =>
    messages.reduce((sum, message) => sum + Math.ceil(JSON.stringify(message).length / 4), 0),
  calibrated: (count) => count,
  calibrate: () => {},
  calibrationFactor: () => 1,
};

const tokens = (messages: readonly Message[]) => estimator.countMessages(messages);

describe('splitMessages', () => {
  it('handles the seed edge cases: empty, one user message, everything protected', () => {
    expect(splitMessages([], { protectTokens: 100, estimator })).toEqual({
      system: [],
      older: [],
      recent: [],
      boundary: 0,
    });
    const one: Message[] = [{ role: 'user', content: 'hi' }];
    expect(splitMessages(one, { protectTokens: 0, estimator }).recent).toEqual(one);
    const small = agentConversation({ turns: 2, toolResultChars: 50 });
    const split = splitMessages(small, { protectTokens: 1_000_000, estimator });
    expect(split.older).toEqual([]);
    expect(split.system).toEqual([small[0]]);
    expect(split.recent).toEqual(small.slice(1));
  });

  it('keeps the newest messages within the budget and compacts the rest', () => {
    const messages = agentConversation({ turns: 10, toolResultChars: 2000 });
    const budget = Math.floor(tokens(messages) / 4);
    const split = splitMessages(messages, { protectTokens: budget, estimator });
    expect(split.older.length).toBeGreaterThan(0);
    expect(tokens(split.recent)).toBeLessThanOrEqual(budget);
    expect([...split.system, ...split.older, ...split.recent]).toEqual(messages);
    assertToolPairsIntact(split.recent);
  });

  it('always keeps the last group, however large (one giant newest message)', () => {
    const messages: Message[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'x'.repeat(100_000) },
    ];
    const split = splitMessages(messages, { protectTokens: 10, estimator });
    expect(split.recent).toEqual([messages[2]]);
    expect(split.older).toEqual(messages.slice(0, 2));
  });

  it('never separates parallel tool calls from results arriving in several messages', () => {
    const calls: MessagePart[] = [
      { type: 'tool-call', toolCallId: 'a', toolName: 'read', input: {} },
      { type: 'tool-call', toolCallId: 'b', toolName: 'read', input: {} },
    ];
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: calls },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'read', content: 'A'.repeat(4000) }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'b', toolName: 'read', content: 'B'.repeat(40) }],
      },
      { role: 'assistant', content: 'done' },
    ];
    // A budget that fits only the last tool message and the answer.
    const budget = tokens(messages.slice(3));
    const split = splitMessages(messages, { protectTokens: budget, estimator });
    expect(split.recent).toEqual([messages[4]]);
    assertToolPairsIntact(split.older);
  });

  it('prefers the start of a user turn when it keeps at least half of what the budget allows', () => {
    const big = (label: string) => `${label} `.repeat(100);
    const userTurnInside: Message[] = [
      { role: 'user', content: big('u1') },
      { role: 'assistant', content: big('a1') },
      { role: 'assistant', content: 'a2' },
      { role: 'user', content: big('u2') },
      { role: 'assistant', content: big('a3') },
    ];
    const budget = tokens(userTurnInside.slice(2));
    expect(splitMessages(userTurnInside, { protectTokens: budget, estimator }).recent[0]).toBe(
      userTurnInside[3],
    );

    const userTurnTooLate: Message[] = [
      { role: 'user', content: big('u1') },
      { role: 'assistant', content: big('a1') },
      { role: 'assistant', content: big('a2') },
      { role: 'assistant', content: big('a3') },
      { role: 'user', content: 'u2' },
    ];
    const lateBudget = tokens(userTurnTooLate.slice(2));
    expect(splitMessages(userTurnTooLate, { protectTokens: lateBudget, estimator }).recent[0]).toBe(
      userTurnTooLate[2],
    );
  });

  it('keeps a given number of groups for overflow retries', () => {
    const messages = agentConversation({ turns: 3, toolCallsPerTurn: 2 });
    const zero = splitMessages(messages, { keepGroups: 0, estimator });
    expect(zero.recent).toEqual([messages.at(-1)]);
    const two = splitMessages(messages, { keepGroups: 2, estimator });
    expect(two.recent.length).toBeGreaterThan(1);
    assertToolPairsIntact(two.recent);
    const all = splitMessages(messages, { keepGroups: 1000, estimator });
    expect(all.older).toEqual([]);
  });

  it('keeps system messages out of the compacted span', () => {
    const messages: Message[] = [
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'old '.repeat(200) },
      { role: 'system', content: 'mid-conversation rule' },
      { role: 'assistant', content: 'old reply '.repeat(200) },
      { role: 'user', content: 'new' },
    ];
    const split = splitMessages(messages, { protectTokens: 10, estimator });
    expect(split.system.map((message) => message.content)).toEqual(['rules', 'mid-conversation rule']);
    expect(split.older.every((message) => message.role !== 'system')).toBe(true);
  });

  it('rejects missing or bad budgets', () => {
    expect(() => splitMessages([], {})).toThrow(InvalidConfigError);
    expect(() => splitMessages([], { protectTokens: -1 })).toThrow(/protectTokens/);
    expect(() => splitMessages([], { keepGroups: 1.5 })).toThrow(/keepGroups/);
  });

  it('property: the boundary never leaves a tool call and its result on two sides', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 1000 }),
        (turns, toolCallsPerTurn, parallelEvery, resultChars, seed) => {
          const messages = agentConversation({
            turns,
            toolCallsPerTurn,
            parallelEvery,
            toolResultChars: resultChars * 50,
            seed,
          });
          const budget = Math.floor((tokens(messages) * ((seed % 100) / 100)) | 0);
          const split = splitMessages(messages, { protectTokens: budget, estimator });
          assertToolPairsIntact([...split.older]);
          assertToolPairsIntact(split.recent.filter((message) => message.role !== 'system'));
          expect([...split.system, ...split.older, ...split.recent].length).toBe(messages.length);
          expect(split.recent.length).toBeGreaterThan(0);
          // Untouched: the very same objects.
          for (const message of split.recent) expect(messages).toContain(message);
        },
      ),
      { numRuns: 200 },
    );
  });
});

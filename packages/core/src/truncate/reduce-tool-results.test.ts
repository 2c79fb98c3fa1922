import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  conversationArbitrary,
  createTestEstimator,
  deepFreeze,
  expectMessageInvariants,
} from '../../test/truncate-helpers';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { createEstimator } from '../estimate/create-estimator';
import type { Message, ToolResultPart } from '../message/message';
import { reduceToolResults } from './reduce-tool-results';
import { toolResultTextLength } from './tool-result-text-length';

const MARKER = /\n\n\.\.\. \[truncated: \d+ chars removed\] \.\.\.\n\n/;

function lines(prefix: string, count: number): string {
  return Array.from({ length: count }, (_, index) => `${prefix} line ${index} ${'.'.repeat(40)}`).join('\n');
}

function result(id: string, content: string, isError?: boolean): ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: id,
    toolName: 'read_file',
    content,
    ...(isError === undefined ? {} : { isError }),
  };
}

function call(id: string): Message {
  return {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { id } }],
  };
}

const older = lines('older', 200); // ~10k chars
const newer = lines('newer', 200);
const small = 's'.repeat(3_000);

const messages: Message[] = deepFreeze([
  { role: 'user', content: 'look at the files' },
  call('c1'),
  { role: 'tool', content: [result('c1', older)] },
  call('c2'),
  { role: 'tool', content: [result('c2', newer, true)] },
  call('c3'),
  { role: 'tool', content: [result('c3', small)] },
  { role: 'assistant', content: 'Both files read.' },
]);

const resultAt = (list: readonly Message[], index: number) => (list[index]!.content as ToolResultPart[])[0]!;

describe('reduceToolResults', () => {
  const total = createTestEstimator().countMessages(messages);

  it('returns everything untouched when the conversation already fits', () => {
    const estimator = createTestEstimator();
    const reduced = reduceToolResults(messages, { estimator, targetTokens: total });
    expect(reduced.records).toEqual([]);
    expect(reduced.tokenCount).toBe(total);
    for (const [index, message] of reduced.messages.entries()) expect(message).toBe(messages[index]);
    expect(estimator.calls.countMessage).toBe(0);
  });

  it('reduces the OLDER of two big results first and stops as soon as it fits', () => {
    const estimator = createTestEstimator();
    const targetTokens = total - 1_000; // one reduction (~2,000 tokens) is enough
    const reduced = reduceToolResults(messages, { estimator, targetTokens });
    expect(reduced.records.map((record) => record.toolCallId)).toEqual(['c1']);
    expect(reduced.messages[4]).toBe(messages[4]);
    expect(reduced.messages[6]).toBe(messages[6]);
    const shortened = resultAt(reduced.messages, 2);
    expect(shortened.content).toMatch(MARKER);
    expect((shortened.content as string).length).toBeLessThanOrEqual(2_000);
    expect(older.startsWith((shortened.content as string).split(MARKER)[0]!)).toBe(true);
    expect(older.endsWith((shortened.content as string).split(MARKER)[1]!)).toBe(true);
    expect('isError' in shortened).toBe(false);
    expect(reduced.tokenCount).toBeLessThanOrEqual(targetTokens);
    expect(reduced.tokenCount).toBe(createTestEstimator().countMessages(reduced.messages));
    expect(reduced.records[0]).toEqual({
      kind: 'tool-result',
      messageIndex: 2,
      toolName: 'read_file',
      toolCallId: 'c1',
      charsBefore: older.length,
      charsAfter: (shortened.content as string).length,
    });
  });

  it('touches the most recent result last, and never marks it as an error', () => {
    const reduced = reduceToolResults(messages, {
      estimator: createTestEstimator(),
      targetTokens: total - 3_000,
    });
    expect(reduced.records.map((record) => record.toolCallId)).toEqual(['c1', 'c2']);
    expect(resultAt(reduced.messages, 4).isError).toBe(true); // it was an error before: unchanged
    expect(resultAt(reduced.messages, 2).isError).toBeUndefined();
  });

  it('never touches small results, even when the target cannot be reached', () => {
    const reduced = reduceToolResults(messages, { estimator: createTestEstimator(), targetTokens: 0 });
    expect(reduced.records.map((record) => record.toolCallId)).toEqual(['c1', 'c2']);
    expect(reduced.messages[6]).toBe(messages[6]);
    expect(reduced.tokenCount).toBeGreaterThan(0);
    expect(reduced.tokenCount).toBe(createTestEstimator().countMessages(reduced.messages));
  });

  it('counts incrementally: one full count, then two message counts per reduction', () => {
    const estimator = createTestEstimator();
    reduceToolResults(messages, { estimator, targetTokens: 0 });
    expect(estimator.calls.countMessages).toBe(1);
    expect(estimator.calls.countMessage).toBe(4);
  });

  it('respects before, minChars, keepChars and headRatio', () => {
    const estimator = createTestEstimator();
    expect(
      reduceToolResults(messages, { estimator, targetTokens: 0, before: 4 }).records.map(
        (record) => record.toolCallId,
      ),
    ).toEqual(['c1']);
    const lowThreshold = reduceToolResults(messages, {
      estimator,
      targetTokens: 0,
      minChars: 2_500,
      keepChars: 500,
    });
    expect(lowThreshold.records.map((record) => record.toolCallId)).toEqual(['c1', 'c2', 'c3']);
    expect(toolResultTextLength(resultAt(lowThreshold.messages, 6))).toBeLessThanOrEqual(500);
    const headOnly = reduceToolResults(messages, {
      estimator,
      targetTokens: 0,
      headRatio: 1,
      keepChars: 1_000,
    });
    expect(resultAt(headOnly.messages, 2).content).toMatch(/ \.\.\.\n\n$/);
  });

  it('with mentions, ends a reduced result with the identifiers its cut part named, within keepChars', () => {
    const text = `${lines('head', 100)}\nERROR lost request_id=req_8f2k19x7\n${lines('tail', 100)}`;
    const messages: Message[] = [call('a'), { role: 'tool', content: [result('a', text)] }];
    const estimator = createEstimator();
    const reduce = (mentions: boolean) =>
      (
        reduceToolResults(messages, { estimator, targetTokens: 0, keepChars: 1_000, mentions }).messages[1]!
          .content[0] as ToolResultPart
      ).content as string;
    expect(reduce(true)).toMatch(/\n\(the cut part mentioned req_8f2k19x7\)$/);
    expect(reduce(true).length).toBeLessThanOrEqual(1_000);
    expect(reduce(false)).not.toContain('req_8f2k19x7');
  });

  it('reduces one of several parallel results in one message, keeping the others as they are', () => {
    const first = result('p1', older);
    const second = result('p2', newer);
    const parallel: Message[] = deepFreeze([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'p1', toolName: 'read_file', input: {} },
          { type: 'tool-call', toolCallId: 'p2', toolName: 'read_file', input: {} },
        ],
      },
      { role: 'tool', content: [first, second] },
    ]);
    const estimator = createTestEstimator();
    const reduced = reduceToolResults(parallel, {
      estimator,
      targetTokens: estimator.countMessages(parallel) - 1_000,
    });
    const parts = reduced.messages[2]!.content as ToolResultPart[];
    expect(parts[0]).not.toBe(first);
    expect(parts[1]).toBe(second);
    expect(reduced.messages[1]).toBe(parallel[1]);
  });

  it('works with the real estimator: older first, stops when it fits, exact incremental count', () => {
    const estimator = createEstimator();
    const before = estimator.countMessages(messages);
    const oneResult = estimator.countPart(resultAt(messages, 2));
    const reduced = reduceToolResults(messages, {
      estimator,
      targetTokens: before - Math.floor(oneResult / 2),
    });
    expect(reduced.records.map((record) => record.toolCallId)).toEqual(['c1']);
    expect(reduced.messages[4]).toBe(messages[4]);
    expect(reduced.tokenCount).toBeLessThanOrEqual(before - Math.floor(oneResult / 2));
    expect(reduced.tokenCount).toBe(createEstimator().countMessages(reduced.messages));
  });

  it('rejects invalid options', () => {
    const estimator = createTestEstimator();
    expect(() => reduceToolResults(messages, { estimator, targetTokens: Number.NaN })).toThrow(
      InvalidConfigError,
    );
    expect(() => reduceToolResults(messages, { estimator: undefined as never, targetTokens: 1 })).toThrow(
      InvalidConfigError,
    );
    expect(() => reduceToolResults(messages, { estimator, targetTokens: 1, keepChars: -1 })).toThrow(
      InvalidConfigError,
    );
    expect(() => reduceToolResults(messages, { estimator, targetTokens: 1, headRatio: 3 })).toThrow(
      InvalidConfigError,
    );
  });

  it('keeps the invariants on generated conversations, oldest first, with an exact token count', () => {
    let touched = 0;
    fc.assert(
      fc.property(
        conversationArbitrary,
        fc.double({ min: 0, max: 1, noNaN: true }),
        (generated, fraction) => {
          const input = deepFreeze(generated);
          const estimator = createTestEstimator();
          const targetTokens = Math.floor(estimator.countMessages(input) * fraction);
          const minChars = 200;
          const keepChars = 100;
          const reduced = reduceToolResults(input, { estimator, targetTokens, minChars, keepChars });
          expectMessageInvariants(input, reduced.messages, reduced.records);
          expect(reduced.tokenCount).toBe(createTestEstimator().countMessages(reduced.messages));

          // Oldest first: every eligible result up to the last reduced one was reduced; none after it
          // was, unless nothing is left to reduce; and when results remain eligible, the target was met.
          const eligible: { messageIndex: number; id: string; reduced: boolean }[] = [];
          input.forEach((message, messageIndex) => {
            if (typeof message.content === 'string') return;
            message.content.forEach((part, partIndex) => {
              if (part.type !== 'tool-result' || toolResultTextLength(part) <= minChars) return;
              const after = (reduced.messages[messageIndex]!.content as ToolResultPart[])[partIndex]!;
              eligible.push({ messageIndex, id: part.toolCallId, reduced: after !== part });
            });
          });
          const reducedFlags = eligible.map((entry) => entry.reduced);
          const lastReduced = reducedFlags.lastIndexOf(true);
          expect(reducedFlags.slice(0, lastReduced + 1).every(Boolean)).toBe(true);
          if (reducedFlags.includes(false)) expect(reduced.tokenCount).toBeLessThanOrEqual(targetTokens);
          expect(reduced.records.map((record) => record.toolCallId)).toEqual(
            eligible.filter((entry) => entry.reduced).map((entry) => entry.id),
          );
          for (const record of reduced.records) expect(record.charsAfter).toBeLessThanOrEqual(keepChars);

          // Stops as soon as it fits: undoing the last reduction puts the count back over the target.
          const last = reduced.records.at(-1);
          if (last !== undefined) {
            const undone = reduced.messages.slice();
            const original = input[last.messageIndex]!.content as ToolResultPart[];
            const current = undone[last.messageIndex]!.content as ToolResultPart[];
            undone[last.messageIndex] = {
              ...undone[last.messageIndex]!,
              content: current.map((part, partIndex) =>
                part.type === 'tool-result' && part.toolCallId === last.toolCallId
                  ? original[partIndex]!
                  : part,
              ),
            };
            expect(createTestEstimator().countMessages(undone)).toBeGreaterThan(targetTokens);
          }
          if (reduced.records.length > 0) touched++;
        },
      ),
      { numRuns: 300 },
    );
    expect(touched).toBeGreaterThan(20);
  });
});

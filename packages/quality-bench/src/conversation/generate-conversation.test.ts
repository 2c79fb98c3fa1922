import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NEEDLE_KINDS } from './conversation';
import { generateConversation } from './generate-conversation';
import { EVICTION_ATTACKS } from './needle-text';

/** Every text of a message (tool inputs and results included), as one string. */
function textOf(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'tool-call') return JSON.stringify(part.input);
      if (part.type === 'tool-result') {
        const output = part.output;
        if (output.type === 'text') return output.value;
        if (output.type === 'content')
          return output.value.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
      }
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

describe('generateConversation', () => {
  it('is reproducible per seed, and seeds differ', () => {
    const first = generateConversation({ seed: 11, turns: 80 });
    const again = generateConversation({ seed: 11, turns: 80 });
    const other = generateConversation({ seed: 12, turns: 80 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(first));
  });

  it('plants every needle where it says: its values and its cue are in the message it names, in that turn', () => {
    const conversation = generateConversation({ seed: 3, turns: 200 });
    expect(new Set(conversation.needles.map((needle) => needle.kind))).toEqual(new Set(NEEDLE_KINDS));
    for (const needle of conversation.needles) {
      for (const placement of needle.placements) {
        const turn = conversation.turns[placement.turn]!;
        expect(placement.messageIndex).toBeGreaterThanOrEqual(turn.userIndex);
        expect(placement.messageIndex).toBeLessThanOrEqual(turn.endIndex);
        const text = textOf(conversation.messages[placement.messageIndex]!);
        for (const value of placement.values) expect(text).toContain(value);
        expect(text).toContain(needle.cue);
      }
    }
  });

  it('puts each kind of needle in the right kind of message', () => {
    const conversation = generateConversation({ seed: 5, turns: 150 });
    for (const needle of conversation.needles) {
      for (const placement of needle.placements) {
        const role = conversation.messages[placement.messageIndex]!.role;
        if (needle.kind === 'identifier-tool') expect(role).toBe('tool');
        else if (needle.kind === 'decision') expect(['user', 'assistant']).toContain(role);
        else expect(role).toBe('user');
        expect(placement.source === 'pasted' ? 'user' : placement.source).toBe(role);
      }
    }
  });

  it('makes a superseded setting take three distinct values in three later and later turns', () => {
    const conversation = generateConversation({ seed: 9, turns: 300 });
    const superseded = conversation.needles.filter((needle) => needle.kind === 'superseded');
    expect(superseded.length).toBeGreaterThanOrEqual(2);
    for (const needle of superseded) {
      expect(needle.placements).toHaveLength(3);
      const turns = needle.placements.map((placement) => placement.turn);
      expect(turns).toEqual([...turns].sort((a, b) => a - b));
      expect(new Set(turns).size).toBe(3);
      const values = needle.placements.map((placement) => placement.values[0]!);
      // No value contains another, so "the old value is present" can never be mistaken for the new.
      for (const value of values)
        for (const other of values) if (value !== other) expect(value).not.toContain(other);
    }
  });

  it('follows rules with eviction attacks in tool output', () => {
    const conversation = generateConversation({ seed: 21, turns: 500 });
    expect(conversation.attackTurns.length).toBeGreaterThanOrEqual(2);
    for (const turn of conversation.attackTurns) {
      const { userIndex, endIndex } = conversation.turns[turn]!;
      const carriers = conversation.messages
        .slice(userIndex, endIndex + 1)
        .filter(
          (message) =>
            message.role === 'tool' && EVICTION_ATTACKS.some((attack) => textOf(message).includes(attack)),
        );
      expect(carriers).toHaveLength(1);
    }
    const attacked = conversation.needles.filter((needle) => needle.attackedAtTurn !== undefined);
    expect(attacked.length).toBeGreaterThan(0);
    for (const needle of attacked) {
      expect(needle.kind).toBe('constraint');
      expect(needle.attackedAtTurn).toBeGreaterThan(needle.placements[0]!.turn);
      expect(conversation.attackTurns).toContain(needle.attackedAtTurn);
      // The first attack after the rule.
      const between = conversation.attackTurns.filter(
        (turn) => turn > needle.placements[0]!.turn && turn < needle.attackedAtTurn!,
      );
      expect(between).toEqual([]);
    }
  });

  it('has the mix the benchmark needs: parallel calls, multi-step turns, images, CJK, base64, big results', () => {
    const conversation = generateConversation({ seed: 1, turns: 300 });
    const assistantCalls = conversation.messages.filter(
      (message) => message.role === 'assistant' && typeof message.content !== 'string',
    );
    const callCounts = assistantCalls.map(
      (message) => (message.content as { type: string }[]).filter((part) => part.type === 'tool-call').length,
    );
    expect(callCounts.some((count) => count >= 2)).toBe(true);
    expect(conversation.calls.some((call) => call.step >= 2)).toBe(true);
    const all = JSON.stringify(conversation.messages);
    expect(all).toContain('"mediaType":"image/png"');
    expect(/[\u4e00-\u9fff]/.test(all)).toBe(true);
    expect(all).toContain('"toolName":"encode_file"');
    const largest = Math.max(...conversation.messages.map((message) => textOf(message).length));
    expect(largest).toBeGreaterThan(15_000);
  });

  it('keeps every needle value unique to where it was planted', () => {
    const conversation = generateConversation({ seed: 17, turns: 250 });
    const texts = conversation.messages.map(textOf);
    for (const needle of conversation.needles) {
      for (const placement of needle.placements) {
        for (const value of placement.values) {
          const holders = texts.flatMap((text, index) => (text.includes(value) ? [index] : []));
          expect(holders).toEqual([placement.messageIndex]);
        }
      }
    }
  });

  it('rejects turn counts outside 4–2,000 and fractional seeds', () => {
    expect(() => generateConversation({ seed: 1, turns: 3 })).toThrow(RangeError);
    expect(() => generateConversation({ seed: 1, turns: 2001 })).toThrow(RangeError);
    expect(() => generateConversation({ seed: 1.5, turns: 10 })).toThrow(RangeError);
  });

  it('keeps its invariants for any seed and length (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 4, max: 60 }),
        (seed, turns) => {
          const conversation = generateConversation({ seed, turns });
          expect(conversation.turns).toHaveLength(turns);
          // Turns tile the messages, each opening with the user's ask and closing with an answer.
          let next = 0;
          for (const turn of conversation.turns) {
            expect(turn.userIndex).toBe(next);
            const user = conversation.messages[turn.userIndex]!;
            expect(user.role).toBe('user');
            expect(textOf(user)).toBe(turn.ask);
            expect(conversation.messages[turn.endIndex]!.role).toBe('assistant');
            next = turn.endIndex + 1;
          }
          expect(next).toBe(conversation.messages.length);
          // Each call answers with the scripted assistant message right after its history, which
          // ends with the user's ask or with tool results.
          for (const call of conversation.calls) {
            expect(call.historyLength).toBe(call.responseIndex);
            expect(conversation.messages[call.responseIndex]!.role).toBe('assistant');
            expect(['user', 'tool']).toContain(conversation.messages[call.historyLength - 1]!.role);
          }
          // Every tool call is answered in the next message, and every result has its call.
          conversation.messages.forEach((message, index) => {
            if (message.role !== 'assistant' || typeof message.content === 'string') return;
            const ids = message.content.flatMap((part) =>
              part.type === 'tool-call' ? [part.toolCallId] : [],
            );
            if (ids.length === 0) return;
            const results = conversation.messages[index + 1];
            expect(results?.role).toBe('tool');
            const answered = (results!.content as { toolCallId: string }[]).map((part) => part.toolCallId);
            expect(answered).toEqual(ids);
          });
          // Needles sit in turns the final turn can ask about.
          for (const needle of conversation.needles) {
            for (const placement of needle.placements) expect(placement.turn).toBeLessThanOrEqual(turns - 2);
          }
          expect(new Set(conversation.needles.map((needle) => needle.cue)).size).toBe(
            conversation.needles.length,
          );
        },
      ),
      { numRuns: 25 },
    );
  });
});

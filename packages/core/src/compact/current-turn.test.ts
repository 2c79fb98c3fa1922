import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message, MessagePart } from '../message/message';
import { currentTurnStart, turnStartByBoundaries } from './current-turn';

const call = (id: string): MessagePart => ({
  type: 'tool-call',
  toolCallId: id,
  toolName: 'read',
  input: {},
});
const result = (id: string): MessagePart => ({
  type: 'tool-result',
  toolCallId: id,
  toolName: 'read',
  content: 'ok',
});

describe('currentTurnStart', () => {
  it('starts at the latest user message when every later result answers a later call', () => {
    const messages: Message[] = [
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [call('a')] },
      { role: 'tool', content: [result('a')] },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: [call('b')] },
      { role: 'tool', content: [result('b')] },
    ];
    expect(currentTurnStart(messages)).toBe(4);
  });

  it('moves back when a call before the latest user message has its result after it', () => {
    const messages: Message[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [call('a')] },
      { role: 'user', content: 'meanwhile' },
      { role: 'tool', content: [result('a')] },
    ];
    expect(currentTurnStart(messages)).toBe(1);
  });

  it('agrees with the definition on any list (orphans, repeated ids, results before calls)', () => {
    const ids = fc.constantFrom('a', 'b', 'c');
    const part = fc.oneof(
      fc.constant<MessagePart>({ type: 'text', text: 'words' }),
      ids.map(call),
      ids.map(result),
    );
    const message = fc.oneof(
      fc.constant<Message>({ role: 'system', content: 'rules' }),
      fc.constant<Message>({ role: 'user', content: 'ask' }),
      fc.array(part, { maxLength: 3 }).map((content): Message => ({ role: 'assistant', content })),
      fc
        .array(ids.map(result), { minLength: 1, maxLength: 2 })
        .map((content): Message => ({ role: 'tool', content })),
      fc.array(part, { maxLength: 2 }).map((content): Message => ({ role: 'user', content })),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 14 }), (messages) => {
        expect(currentTurnStart(messages)).toBe(turnStartByBoundaries(messages));
      }),
      { numRuns: 2_000 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../test/truncate-helpers';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message } from '../message/message';
import { COLLAPSED_HEADER, collapseExchanges } from './collapse-exchanges';

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
const toolStep = (id: string): Message[] => [
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: 'a' } }],
  },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', content: 'text' }],
  },
];

describe('collapseExchanges', () => {
  it('folds a run of short exchanges into one user message; the last reply stays its own message', () => {
    const reply =
      'Sure. I looked at the configuration and the port is set twice, once in the env file and once in the compose file, which is why the second one wins.';
    const messages = deepFreeze([
      { role: 'system', content: 'You help.' } as Message,
      user('hi there'),
      assistant('Hello! How can I help today?'),
      user('why does the port change?'),
      assistant(reply),
      user('ok, and which one should I keep?'),
      assistant('Keep the env file; remove the compose entry.'),
      user('run the tests'),
      ...toolStep('c1'),
      assistant('All green.'),
    ]);
    const { messages: output, records } = collapseExchanges(messages, { assistantChars: 60 });
    expect(output[0]).toBe(messages[0]);
    expect(output[1]).toEqual({
      role: 'user',
      content: [
        COLLAPSED_HEADER,
        'User: hi there',
        'Assistant: Hello! How can I help today?',
        'User: why does the port change?',
        'Assistant: Sure. I looked at the configuration and the port is set …',
        'User: ok, and which one should I keep?',
        'Assistant: Keep the env file; remove the compose entry.',
        'User: run the tests',
      ].join('\n'),
    });
    // The reply to the last quoted user message follows, untouched.
    expect(output[2]).toBe(messages[8]);
    expect(output.slice(2)).toEqual(messages.slice(8));
    expect(output.slice(3).every((message, index) => message === messages[index + 9])).toBe(true);
    expect(records).toEqual([
      expect.objectContaining({ kind: 'collapsed', messageIndex: 1, messageCount: 7 }),
    ]);
  });

  it('never takes tool calls, long messages, images or provider items into a run', () => {
    const long = 'x'.repeat(500);
    const messages = deepFreeze([
      user('a'),
      assistant(long),
      user('b'),
      assistant('ok'),
      user('c'),
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'hm' },
          { type: 'opaque', value: { id: 'rs_1' } },
        ],
      } as Message,
      user('d'),
      ...toolStep('c2'),
    ]);
    const { messages: output, records } = collapseExchanges(messages);
    // Only "b, ok, c" qualifies, and its last user message is followed by an assistant message.
    expect(records).toEqual([expect.objectContaining({ messageIndex: 2, messageCount: 3 })]);
    expect(output).toHaveLength(messages.length - 2);
    expect(output[3]).toBe(messages[5]);
  });

  it('keeps reasoning out and respects before and minExchanges', () => {
    const messages = deepFreeze([
      user('one'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking '.repeat(200) },
          { type: 'text', text: 'yes' },
        ],
      } as Message,
      user('two'),
      assistant('no'),
      user('three'),
      assistant('maybe'),
    ]);
    const all = collapseExchanges(messages);
    expect(all.messages[0]!.content).toBe(
      `${COLLAPSED_HEADER}\nUser: one\nAssistant: yes\nUser: two\nAssistant: no\nUser: three`,
    );
    expect(collapseExchanges(messages, { before: 3 }).records).toEqual([
      expect.objectContaining({ messageIndex: 0, messageCount: 3 }),
    ]);
    expect(collapseExchanges(messages, { before: 2 }).records).toEqual([]);
    expect(collapseExchanges(messages, { minExchanges: 4 }).records).toEqual([]);
  });

  it('rejects bad options', () => {
    expect(() => collapseExchanges([], { minExchanges: 1 })).toThrow(InvalidConfigError);
    expect(() => collapseExchanges([], { maxChars: Number.NaN })).toThrow(InvalidConfigError);
  });

  it('keeps every user word and the alternation of generated chats', () => {
    const turn = fc.oneof(
      fc.record({
        kind: fc.constant('chat' as const),
        ask: fc.string({ minLength: 1, maxLength: 80 }),
        reply: fc.string({ minLength: 1, maxLength: 600 }),
      }),
      fc.record({
        kind: fc.constant('tools' as const),
        ask: fc.string({ minLength: 1, maxLength: 80 }),
        reply: fc.constant('done'),
      }),
    );
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 30 }), fc.integer({ min: 0, max: 80 }), (turns, before) => {
        const messages: Message[] = [];
        turns.forEach((item, index) => {
          messages.push(user(item.ask));
          if (item.kind === 'tools') messages.push(...toolStep(`c${index}`));
          messages.push(assistant(item.reply));
        });
        deepFreeze(messages);
        const { messages: output, records } = collapseExchanges(messages, { before });
        const outputText = output
          .map((message) => (typeof message.content === 'string' ? message.content : ''))
          .join('\n');
        for (const message of messages) {
          if (message.role === 'user' && typeof message.content === 'string')
            expect(outputText).toContain(message.content);
        }
        // Roles alternate where they did, and the first message is the user's.
        const roles = (list: readonly Message[]) => list.map((message) => message.role).join(',');
        expect(roles(output).includes('user,user')).toBe(roles(messages).includes('user,user'));
        if (output.length > 0) expect(output[0]!.role).toBe(messages[0]!.role);
        const folded = records.reduce((sum, record) => sum + (record.messageCount! - 1), 0);
        expect(output).toHaveLength(messages.length - folded);
        for (const record of records)
          expect(record.messageIndex + record.messageCount!).toBeLessThanOrEqual(Math.max(0, before));
      }),
      { numRuns: 300 },
    );
  });
});

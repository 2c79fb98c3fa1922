import { describe, expect, it } from 'vitest';
import type { Message } from '../message/message';
import { createRecallScope, DEFAULT_RECALL_SECRET, recallAnchor } from './recall-scope';

const conversation = (first: string): Message[] => [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: first },
  { role: 'assistant', content: 'On it.' },
];

describe('createRecallScope', () => {
  it('gives every request of a conversation the same scope, and writes the same references as a new one', () => {
    const first = createRecallScope({ messages: conversation('Read the deploy log.') });
    // A fresh copy of the conversation (what a server deserializes): the same scope object.
    const again = createRecallScope({
      messages: JSON.parse(JSON.stringify(conversation('Read the deploy log.'))),
    });
    expect(again).toBe(first);
    expect(first.anchor).toBe(recallAnchor(conversation('Read the deploy log.')));
    expect(first.toolResultRef('call-1', 0, 'the log')).toBe(again.toolResultRef('call-1', 0, 'the log'));
  });

  it('keeps conversations and secrets apart', () => {
    const messages = conversation('Read the deploy log.');
    const scope = createRecallScope({ messages });
    const other = createRecallScope({ messages: conversation('Read the build log.') });
    const secret = createRecallScope({ messages, secret: 'another secret' });
    expect(other.anchor).not.toBe(scope.anchor);
    expect(secret.anchor).toBe(scope.anchor);
    expect(new Set([scope.key, other.key, secret.key]).size).toBe(3);
    const refs = [scope, other, secret].map((each) => each.toolResultRef('call-1', 0, 'the log'));
    expect(new Set(refs).size).toBe(3);
    expect(createRecallScope({ messages, secret: DEFAULT_RECALL_SECRET })).toBe(scope);
  });

  it('reads only the first 1,000 characters of the first message: a longer tail keeps the scope', () => {
    const head = 'x'.repeat(1_200);
    const scope = createRecallScope({ messages: conversation(`${head} first tail`) });
    expect(createRecallScope({ messages: conversation(`${head} another tail`) })).toBe(scope);
  });
});

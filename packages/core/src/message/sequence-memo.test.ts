import { describe, expect, it } from 'vitest';
import { codingSession } from '../../test/coding-session';
import { recognizeMessages } from '../compact/recognize-messages';
import { supersedeToolResults } from '../truncate/supersede-tool-results';
import type { Message } from './message';
import { createSequenceMemo } from './sequence-memo';

const copy = (messages: readonly Message[]) => JSON.parse(JSON.stringify(messages)) as Message[];

describe('createSequenceMemo', () => {
  it('finds a recognized fresh copy of the same list, and not a list with one message changed', () => {
    const { messages } = codingSession({ seed: 3, turns: 12 });
    const memo = createSequenceMemo<{ run: number }>();
    let runs = 0;
    const get = (list: readonly Message[]) => memo.get(list, 'k', () => ({ run: ++runs }));
    recognizeMessages(messages, { conversationId: 'sequence-memo' });
    const first = get(messages);
    const fresh = copy(messages);
    recognizeMessages(fresh, { conversationId: 'sequence-memo' });
    expect(get(fresh)).toBe(first);
    const changed = copy(messages);
    changed[3] = { role: 'user', content: 'something else' };
    recognizeMessages(changed, { conversationId: 'sequence-memo' });
    expect(get(changed)).not.toBe(first);
    // Not recognized: only the same objects find it.
    expect(get(copy(messages)).run).toBe(3);
    expect(runs).toBe(3);
  });

  it('a recognized list and an unrecorded list of the same messages find each other, either way', () => {
    const { messages } = codingSession({ seed: 4, turns: 12 });
    recognizeMessages(messages, { conversationId: 'sequence-memo-either' });
    const memo = createSequenceMemo<{ run: number }>();
    let runs = 0;
    const get = (list: readonly Message[], key: string) => memo.get(list, key, () => ({ run: ++runs }));
    // Remembered by the recognized list's memos, found by an unrecorded list's ids, and back.
    const byMemos = get(messages, 'memos');
    expect(get([...messages], 'memos')).toBe(byMemos);
    const byIds = get([...messages], 'ids');
    expect(get(messages, 'ids')).toBe(byIds);
    const fresh = copy(messages);
    recognizeMessages(fresh, { conversationId: 'sequence-memo-either' });
    expect(get(fresh, 'ids')).toBe(byIds);
    // One message replaced in an unrecorded list: a new value.
    const changed = [...messages];
    changed[5] = { role: 'user', content: 'something else' };
    expect(get(changed, 'memos')).not.toBe(byMemos);
    expect(runs).toBe(3);
  });

  it('supersedeToolResults gives a fresh recognized copy the same notes as the original', () => {
    const { messages } = codingSession({ seed: 5, turns: 30 });
    recognizeMessages(messages, { conversationId: 'sequence-memo-supersede' });
    const original = supersedeToolResults(messages);
    const fresh = copy(messages);
    recognizeMessages(fresh, { conversationId: 'sequence-memo-supersede' });
    const again = supersedeToolResults(fresh);
    expect(original.records.length).toBeGreaterThan(0);
    expect(again.records).toEqual(original.records);
    expect(again.messages).toEqual(original.messages);
    // Untouched messages are the fresh copy's own objects, replaced ones new objects.
    again.messages.forEach((message, index) => {
      if (original.messages[index] === messages[index]) expect(message).toBe(fresh[index]);
      else expect(message).not.toBe(fresh[index]);
    });
  });
});

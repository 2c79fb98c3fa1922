import { describe, expect, it } from 'vitest';
import { agentConversation } from '../../test/conversation-fixtures';
import { recognizeMessages } from '../compact/recognize-messages';
import { contentMemo } from './content-memo';
import { listMemos, shareListMemos, sliceMessages } from './list-memos';
import type { Message } from './message';

const copy = (messages: readonly Message[]) => JSON.parse(JSON.stringify(messages)) as Message[];

describe('listMemos', () => {
  it('gives a recognized request its messages’ memos, index for index', () => {
    const messages = copy(agentConversation({ turns: 3 }));
    expect(listMemos(messages)).toBeUndefined();
    recognizeMessages(messages, { conversationId: 'list-memos' });
    const memos = listMemos(messages);
    expect(memos).toHaveLength(messages.length);
    messages.forEach((message, index) => {
      expect(memos![index]).toBe(contentMemo(message));
    });
    expect(memos!.map((memo) => memo.role)).toEqual(messages.map((message) => message.role));
  });

  it('gives nothing for a list changed in place since (a message replaced, one added)', () => {
    const replaced = copy(agentConversation({ turns: 3 }));
    recognizeMessages(replaced, { conversationId: 'list-memos-replaced' });
    replaced[2] = { role: 'user', content: 'a different message' };
    expect(listMemos(replaced)).toBeUndefined();

    const grown = copy(agentConversation({ turns: 3 }));
    recognizeMessages(grown, { conversationId: 'list-memos-grown' });
    grown.push({ role: 'user', content: 'one more' });
    expect(listMemos(grown)).toBeUndefined();
  });

  it('follows the lists the engine derives: slices, and copies holding the same messages', () => {
    const messages = copy(agentConversation({ turns: 3 }));
    recognizeMessages(messages, { conversationId: 'list-memos-derived' });
    const memos = listMemos(messages)!;
    expect(listMemos(sliceMessages(messages, 2, 5))).toEqual(memos.slice(2, 5));
    expect(listMemos(sliceMessages(messages, 4))).toEqual(memos.slice(4));
    const same = [...messages];
    expect(listMemos(same)).toBeUndefined();
    shareListMemos(messages, same);
    expect(listMemos(same)).toEqual(memos);
    // A list never recognized gives its slices nothing.
    const other = copy(messages);
    expect(listMemos(sliceMessages(other, 1))).toBeUndefined();
  });
});

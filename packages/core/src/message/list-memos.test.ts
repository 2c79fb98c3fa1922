import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentConversation } from '../../test/conversation-fixtures';
import { layoutConversation } from '../compact/compaction-layout';
import { recognizeMessages } from '../compact/recognize-messages';
import { conversationMessages } from '../recall/recall-material';
import { contentMemo } from './content-memo';
import { listFacts, listMemos, shareListMemos, sliceMessages } from './list-memos';
import type { Message } from './message';

const copy = (messages: readonly Message[]) => JSON.parse(JSON.stringify(messages)) as Message[];

/** The layout found message by message (what `layoutConversation` counts): a reference. */
function layoutByWalking(messages: readonly Message[], coveredCount: number) {
  const system: Message[] = [];
  const covered: Message[] = [];
  let index = 0;
  while (index < messages.length && messages[index]!.role === 'system') system.push(messages[index++]!);
  for (; index < messages.length && covered.length < coveredCount; index++)
    (messages[index]!.role === 'system' ? system : covered).push(messages[index]!);
  return { system, covered, rest: messages.slice(index) };
}

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

  it('the layout of a recognized request with a system prompt keeps the memos of its spans', () => {
    const messages = copy(agentConversation({ turns: 6 }));
    expect(messages[0]!.role).toBe('system');
    recognizeMessages(messages, { conversationId: 'list-memos-layout' });
    const memos = listMemos(messages)!;
    for (const coveredCount of [0, 1, 7]) {
      const layout = layoutConversation(messages, coveredCount);
      expect(layout.system).toEqual([messages[0]]);
      expect(layout.covered).toEqual(messages.slice(1, 1 + coveredCount));
      expect(listMemos(layout.covered)).toEqual(memos.slice(1, 1 + coveredCount));
      expect(listMemos(layout.rest)).toEqual(memos.slice(1 + coveredCount));
    }
    // A system message inside the covered span is moved to the system block, in order.
    const inside = [
      ...messages.slice(0, 3),
      { role: 'system', content: 'later rule' } as Message,
      ...messages.slice(3),
    ];
    const layout = layoutConversation(inside, 4);
    expect(layout.system).toEqual([inside[0], inside[3]]);
    expect(layout.covered).toEqual([inside[1], inside[2], inside[4], inside[5]]);
    expect(layout.rest).toEqual(inside.slice(6));
  });

  it('a recognized request is laid out as any list, wherever its system messages are (property)', () => {
    let run = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('system', 'user', 'assistant'), { maxLength: 14 }),
        fc.integer({ min: 0, max: 16 }),
        (roles, coveredCount) => {
          const plain = roles.map((role, index) => ({ role, content: `${role} ${index}` }) as Message);
          const recognized = copy(plain);
          recognizeMessages(recognized, { conversationId: `list-memos-roles-${run++}` });
          expect(listMemos(recognized)).toBeDefined();
          const expected = layoutConversation(plain, coveredCount);
          expect(expected).toEqual(layoutByWalking(plain, coveredCount));
          const layout = layoutConversation(recognized, coveredCount);
          expect(layout).toEqual(expected);
          // Its spans keep knowing where their system messages are.
          for (const span of [layout.covered, layout.rest])
            expect(conversationMessages(span)).toEqual(conversationMessages(copy(span)));
          expect(conversationMessages(recognized)).toEqual(conversationMessages(plain));
        },
      ),
    );
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

  it('records a frozen request and its facts like any other, and leaves nothing visible on a list', () => {
    const messages = Object.freeze(copy(agentConversation({ turns: 3 })));
    recognizeMessages(messages, { conversationId: 'list-memos-frozen' });
    const memos = listMemos(messages)!;
    expect(memos).toHaveLength(messages.length);
    expect(listFacts(memos).systemIndexes).toEqual([0]);
    const frozenCopy = Object.freeze([...messages]);
    shareListMemos(messages, frozenCopy);
    expect(listMemos(frozenCopy)).toBe(memos);
    // The record is a private stamp: no key, no symbol, the same JSON, a spread copies nothing of it.
    const plain = copy(agentConversation({ turns: 3 }));
    recognizeMessages(plain, { conversationId: 'list-memos-stamp' });
    expect(listMemos(plain)).toBeDefined();
    expect(Reflect.ownKeys(plain)).toEqual([...plain.keys()].map(String).concat('length'));
    expect(JSON.stringify(plain)).toBe(JSON.stringify(copy(plain)));
    expect(listMemos([...plain])).toBeUndefined();
  });
});

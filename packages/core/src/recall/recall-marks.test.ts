import { describe, expect, it, vi } from 'vitest';
import { agentConversation } from '../../test/conversation-fixtures';
import { recognizeMessages } from '../compact/recognize-messages';
import type { Message, ToolResultPart } from '../message/message';
import { createRecallMarks } from './recall-marks';
import { createRecallScope } from './recall-scope';

const resultsOf = (messages: readonly Message[]) =>
  messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.filter((part): part is ToolResultPart => part?.type === 'tool-result')
      : [],
  );

describe('createRecallMarks', () => {
  it('names a fresh copy of the same results with the same references, without hashing them again', () => {
    const messages = agentConversation({ turns: 4, toolResultChars: 3000 });
    const refsOf = (copy: Message[]) => {
      recognizeMessages(copy, { conversationId: 'marks-fresh' });
      const scope = createRecallScope({ messages: copy });
      const made = vi.spyOn(scope, 'toolResultRef');
      const marks = createRecallMarks({ scope, originals: copy });
      const refs = resultsOf(copy).map((result) => marks.toolResult(result, 0));
      const count = made.mock.calls.length;
      // Scopes are remembered by anchor: the second copy gets the same scope object back.
      made.mockRestore();
      return { refs, made: count };
    };
    const first = refsOf(JSON.parse(JSON.stringify(messages)));
    const second = refsOf(JSON.parse(JSON.stringify(messages)));
    expect(first.made).toBe(first.refs.length);
    expect(second.refs).toEqual(first.refs);
    expect(second.made).toBe(0);
    // Another conversation's scope (another first message) names the same results otherwise.
    const other = JSON.parse(JSON.stringify(messages)) as Message[];
    other[1] = { role: 'user', content: 'Another conversation entirely.' };
    recognizeMessages(other, { conversationId: 'marks-other' });
    const marks = createRecallMarks({ scope: createRecallScope({ messages: other }), originals: other });
    const otherRefs = resultsOf(other).map((result) => marks.toolResult(result, 0));
    expect(otherRefs.every((ref, index) => ref !== first.refs[index])).toBe(true);
  });

  it('a changed result gets a new reference', () => {
    const messages = agentConversation({ turns: 2, toolResultChars: 3000 });
    const refOf = (copy: Message[]) => {
      recognizeMessages(copy, { conversationId: 'marks-changed' });
      const marks = createRecallMarks({ scope: createRecallScope({ messages: copy }), originals: copy });
      return resultsOf(copy).map((result) => marks.toolResult(result, 0));
    };
    const before = refOf(JSON.parse(JSON.stringify(messages)));
    const changed = JSON.parse(JSON.stringify(messages)) as Message[];
    const result = resultsOf(changed)[0]!;
    (result as { content: unknown }).content = `${String(result.content)} and one more line`;
    const after = refOf(changed);
    expect(after[0]).not.toBe(before[0]);
    expect(after.slice(1)).toEqual(before.slice(1));
  });
});

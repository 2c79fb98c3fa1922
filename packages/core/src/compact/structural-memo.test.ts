import { describe, expect, it, vi } from 'vitest';
import { codingSession } from '../../test/coding-session';
import type { Message, MessagePart } from '../message/message';
import { createCompactor } from './create-compactor';
import { rememberedStructural, STRUCTURAL_ENTRIES, type StructuralEntry } from './structural-memo';

/** The message with its first part replaced by a note, the rest left as they are. */
const note = (message: Message): Message =>
  ({
    ...message,
    content: [{ type: 'text', text: 'replaced' }, ...(message.content as readonly MessagePart[]).slice(1)],
  }) as Message;

describe('rememberedStructural', () => {
  const messages: Message[] = [
    { role: 'user', content: 'read the file' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'reading' },
        { type: 'text', text: 'kept' },
      ],
    },
    { role: 'user', content: 'thanks' },
  ];
  const keys = messages.map(() => ({}));
  const options = {};
  const run = (
    entries: Map<string, StructuralEntry>,
    input: readonly Message[],
    keyOf = (i: number) => keys[i]!,
  ) => {
    const compute = vi.fn(() => ({ messages: [input[0]!, note(input[1]!), input[2]!], records: [] }));
    const result = rememberedStructural(
      entries,
      { key: 'stage:3', input, keyOf, numberOf: (index) => index, options },
      compute,
    );
    return { result, computed: compute.mock.calls.length };
  };

  it("gives what it gave for the same prefix, with the new request's own objects and parts", () => {
    const entries = new Map<string, StructuralEntry>();
    expect(run(entries, messages).computed).toBe(1);
    const fresh = structuredClone(messages);
    const again = run(entries, fresh);
    expect(again.computed).toBe(0);
    expect(again.result.messages[0]).toBe(fresh[0]);
    expect(again.result.messages[2]).toBe(fresh[2]);
    // The changed message keeps the new request's parts where the stage left them.
    const content = again.result.messages[1]!.content as unknown[];
    expect(content[0]).toEqual({ type: 'text', text: 'replaced' });
    expect(content[1]).toBe((fresh[1]!.content as unknown[])[1]);
  });

  it('computes again when a message of the prefix changed, and keeps a few prefixes only', () => {
    const entries = new Map<string, StructuralEntry>();
    run(entries, messages);
    const changedKeys = [keys[0]!, {}, keys[2]!];
    expect(run(entries, messages, (index) => changedKeys[index]!).computed).toBe(1);
    for (let index = 0; index < STRUCTURAL_ENTRIES + 3; index++) {
      rememberedStructural(
        entries,
        { key: `other:${index}`, input: messages, keyOf: (i) => keys[i]!, numberOf: (i) => i, options },
        () => ({ messages: messages.slice(), records: [] }),
      );
    }
    expect(entries.size).toBe(STRUCTURAL_ENTRIES);
  });
});

describe('structural stages on a server (fresh objects every request)', () => {
  it('send the same request from the remembered prefix as from scratch', async () => {
    const { messages } = codingSession({ seed: 7, turns: 60, fileLines: 90 });
    const tokens = createCompactor({ contextWindow: 100_000_000 }).estimator.countMessages(messages);
    const contextWindow = Math.ceil(tokens / 2);
    const served = createCompactor({ contextWindow });
    const first = await served.prepare(structuredClone(messages), { conversationId: 'fresh' });
    expect(first.actions).toContain('supersede-tool-results');
    const input = structuredClone(messages);
    const second = await served.prepare(input, { conversationId: 'fresh' });
    // A compactor that never saw the conversation makes the same request.
    const scratchInput = structuredClone(messages);
    const scratch = await createCompactor({ contextWindow }).prepare(scratchInput, {
      conversationId: 'fresh',
    });
    expect(second.messages).toEqual(scratch.messages);
    expect(second.messages).toEqual(first.messages);
    // What no stage changed goes out as the request's own objects, as it does from scratch.
    const ownOf = (result: readonly Message[], given: readonly Message[]) => {
      const own = new Set<Message>(given);
      return result.map((message) => own.has(message));
    };
    expect(ownOf(second.messages, input)).toEqual(ownOf(scratch.messages, scratchInput));
  });
});

describe('folded turns on a server (fresh objects every request)', () => {
  const session = () => {
    const { messages } = codingSession({ seed: 11, turns: 60, fileLines: 90 });
    const tokens = createCompactor({ contextWindow: 100_000_000 }).estimator.countMessages(messages);
    return { messages, contextWindow: Math.ceil(tokens / 4) };
  };
  const ownOf = (result: readonly Message[], given: readonly Message[]) => {
    const own = new Set<Message>(given);
    return result.map((message) => own.has(message));
  };
  const fromScratch = async (messages: readonly Message[], contextWindow: number) => {
    const input = structuredClone(messages) as Message[];
    const result = await createCompactor({ contextWindow }).prepare(input, { conversationId: 'fresh' });
    return { input, result };
  };

  it('are found again for an unchanged history and go out with the request’s own objects', async () => {
    const { messages, contextWindow } = session();
    const served = createCompactor({ contextWindow });
    const first = await served.prepare(structuredClone(messages), { conversationId: 'fresh' });
    expect(first.actions).toContain('fold-tool-steps');
    const input = structuredClone(messages);
    const second = await served.prepare(input, { conversationId: 'fresh' });
    const scratch = await fromScratch(messages, contextWindow);
    expect(second.messages).toEqual(scratch.result.messages);
    expect(ownOf(second.messages, input)).toEqual(ownOf(scratch.result.messages, scratch.input));
    expect(ownOf(second.messages, input).some(Boolean)).toBe(true);
  });

  it('are folded again when a message of the turn changed', async () => {
    const { messages, contextWindow } = session();
    const served = createCompactor({ contextWindow });
    const first = await served.prepare(structuredClone(messages), { conversationId: 'fresh' });
    // The first tool call of the conversation, in the oldest (folded) turn, now reads another file.
    const edited = structuredClone(messages);
    const index = edited.findIndex(
      (message) =>
        Array.isArray(message.content) && message.content.some((part) => part.type === 'tool-call'),
    );
    const content = edited[index]!.content as MessagePart[];
    const at = content.findIndex((part) => part.type === 'tool-call');
    content[at] = { ...content[at]!, input: { path: 'src/renamed-elsewhere.ts' } } as MessagePart;
    const second = await served.prepare(edited, { conversationId: 'fresh' });
    const scratch = await fromScratch(edited, contextWindow);
    expect(second.messages).toEqual(scratch.result.messages);
    expect(JSON.stringify(second.messages)).toContain('renamed-elsewhere');
    expect(JSON.stringify(first.messages)).not.toContain('renamed-elsewhere');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agentConversation,
  assertToolPairsIntact,
  deepFreeze,
  SUMMARY_ONLY,
} from '../../test/conversation-fixtures';
import { createEstimator } from '../estimate/create-estimator';
import { listFacts, listMemos } from '../message/list-memos';
import type { Message } from '../message/message';
import type { Summarizer } from '../summarize/summarizer';
import { compactMessages } from './compact-messages';
import { createCompactor } from './create-compactor';
import { splitProviderCompacted } from './provider-compacted';
import { recognizeMessages } from './recognize-messages';

const estimator = createEstimator();

/** An assistant message carrying a provider compaction block, then its answer (Anthropic's order). */
function compactionMessage(text: string): Message {
  return {
    role: 'assistant',
    content: [
      {
        type: 'opaque',
        value: { type: 'text', text, providerOptions: { anthropic: { type: 'compaction' } } },
        text,
        providerManaged: 'compaction',
      },
      { type: 'text', text: 'Continuing from the compacted context.' },
    ],
  };
}

/** A conversation the provider compacted after `at` turns, continued for `after` more turns. */
function compactedConversation(at: number, after: number, seed = 1): Message[] {
  const before = agentConversation({ turns: at, toolResultChars: 4000, seed });
  const rest = agentConversation({ turns: after, toolResultChars: 4000, system: false, seed: seed + 1 }).map(
    (message) =>
      message.role === 'user' ? { ...message, content: `later ${String(message.content)}` } : message,
  );
  return [...before, compactionMessage(`Provider summary of turns 0-${at - 1}.`), ...rest];
}

function recording(): { summarizer: Summarizer; seen: string[] } {
  const seen: string[] = [];
  const summarizer: Summarizer = ({ messages }) => {
    for (const message of messages) seen.push(JSON.stringify(message.content));
    return `Summary of ${messages.length} messages.`;
  };
  return { summarizer, seen };
}

describe('provider compaction blocks', () => {
  it('finds the last block and keeps its call/result pairs together', () => {
    const messages = compactedConversation(3, 2);
    const split = splitProviderCompacted(messages)!;
    expect(messages[split.block]!.role).toBe('assistant');
    expect(split.leading).toBe(1);
    expect(split.end).toBe(split.block + 1);
    expect(splitProviderCompacted(agentConversation({ turns: 3 }))).toBeUndefined();
  });

  it('a recognized request known to hold no block is passed over, and a block added later is found', () => {
    const plain = agentConversation({ turns: 4, toolResultChars: 4000 });
    const request = (list: readonly Message[]) => {
      const fresh = JSON.parse(JSON.stringify(list)) as Message[];
      recognizeMessages(fresh, { conversationId: 'provider-facts' });
      return fresh;
    };
    const first = request(plain);
    expect(splitProviderCompacted(first)).toBeUndefined();
    // The next request knows the answer from its memos: still none.
    const second = request(plain);
    expect(listFacts(listMemos(second)!).providerCompaction).toBe(false);
    expect(splitProviderCompacted(second)).toBeUndefined();
    // A compaction block in a new message, appended or put in place of an old one: found.
    const grown = request([...plain, compactionMessage('Provider summary.')]);
    expect(splitProviderCompacted(grown)?.block).toBe(plain.length);
    const changed = request(plain);
    changed[3] = compactionMessage('Provider summary.');
    expect(splitProviderCompacted(changed)?.block).toBe(3);
  });

  it('keeps the compacted span and the block verbatim, in place, and never summarizes them', async () => {
    const messages = deepFreeze(compactedConversation(20, 20));
    const split = splitProviderCompacted(messages)!;
    const { summarizer, seen } = recording();
    const result = await compactMessages(messages, { contextWindow: 16_000, summarizer });
    expect(result.actions.length).toBeGreaterThan(0);
    // The frozen span sits right after the system prompt, the very same objects, in order.
    const firstFrozen = result.messages.indexOf(messages[split.leading]!);
    expect(firstFrozen).toBeGreaterThan(0);
    for (let index = split.leading; index < split.end; index++) {
      expect(result.messages[firstFrozen + index - split.leading]).toBe(messages[index]);
    }
    // Nothing before the block reached the summarizer.
    for (const text of seen) expect(text).not.toMatch(/(?<!later )Turn \d+: please check/);
    assertToolPairsIntact(result.messages);
  });

  it('counts the block but not the span the provider compacted', async () => {
    const messages = deepFreeze(compactedConversation(30, 2));
    const split = splitProviderCompacted(messages)!;
    const live = [messages[0]!, ...messages.slice(split.block)];
    const result = await compactMessages(messages, { contextWindow: 1_000_000 });
    expect(result.tokensBefore).toBe(estimator.countMessages(live));
    expect(result.tokensBefore).toBeLessThan(estimator.countMessages(messages) / 5);
    for (const [index, message] of result.messages.entries()) expect(message).toBe(messages[index]);
  });

  it('keeps every block of any conversation byte-identical and in order (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 2_000, max: 64_000 }),
        fc.integer({ min: 1, max: 1000 }),
        async (at, after, window, seed) => {
          const messages = deepFreeze(compactedConversation(at, after, seed));
          const before = JSON.stringify(messages);
          const split = splitProviderCompacted(messages)!;
          let result: Awaited<ReturnType<typeof compactMessages>>;
          try {
            result = await compactMessages(messages, {
              contextWindow: window,
              summarizer: recording().summarizer,
            });
          } catch (error) {
            // A window too small for the block and the current turn refuses before any call.
            expect((error as Error).name).toBe('ContextOverflowError');
            return;
          }
          expect(JSON.stringify(messages)).toBe(before);
          const frozen = messages.slice(split.leading, split.end);
          const at0 = result.messages.indexOf(frozen[0]!);
          expect(result.messages.slice(at0, at0 + frozen.length)).toEqual(frozen);
          for (const [index, message] of frozen.entries()) expect(result.messages[at0 + index]).toBe(message);
          assertToolPairsIntact(result.messages);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a stored summary made after a provider compaction applies on the next requests', async () => {
    const { summarizer, seen } = recording();
    let calls = 0;
    const compactor = createCompactor({
      ...SUMMARY_ONLY,
      summarizer: (input) => {
        calls++;
        return summarizer(input);
      },
    });
    const messages = compactedConversation(15, 24);
    const contextWindow = 24_000;
    const first = await compactor.prepare(messages, { conversationId: 'p', contextWindow });
    expect(first.stateChanged).toBe(true);
    const made = calls;
    expect(made).toBeGreaterThan(0);
    const grown = [
      ...messages,
      { role: 'user' as const, content: 'Turn 99: one more question.' },
      { role: 'assistant' as const, content: 'An answer.' },
    ];
    const second = await compactor.prepare(grown, { conversationId: 'p', contextWindow });
    // The summary is applied again, not made again; the block is still in place.
    expect(calls).toBe(made);
    expect(second.stateChanged).toBe(false);
    expect(second.messages).toContain(messages[splitProviderCompacted(messages)!.block]);
    for (const text of seen) expect(text).not.toMatch(/(?<!later )Turn \d+: please check/);
  });

  it('a manual compaction after a provider compaction builds on the stored summary', async () => {
    const previous: Array<string | undefined> = [];
    const compactor = createCompactor({
      ...SUMMARY_ONLY,
      summarizer: ({ messages, previousSummary }) => {
        previous.push(previousSummary);
        return `Summary of ${messages.length} messages.`;
      },
    });
    const messages = compactedConversation(15, 24);
    const first = await compactor.compact(messages, { conversationId: 'm', contextWindow: 24_000 });
    expect(first).toBeDefined();
    const count = previous.length;
    const grown = [...messages, ...agentConversation({ turns: 6, system: false, seed: 9 })];
    await compactor.compact(grown, { conversationId: 'm', contextWindow: 24_000 });
    expect(previous.length).toBeGreaterThan(count);
    expect(previous.slice(count).every((summary) => summary !== undefined)).toBe(true);
  });
});

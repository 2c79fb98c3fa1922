import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentConversation } from '../../test/conversation-fixtures';
import { createEstimator } from '../estimate/create-estimator';
import { contentMemo } from '../message/content-memo';
import type { Message } from '../message/message';
import type { CompactionState } from '../store/compaction-state';
import { layoutConversation, stateMatches } from './compaction-layout';
import { createCompactor } from './create-compactor';
import { hashMessages } from './hash-messages';
import { recognizeMessages } from './recognize-messages';
import { resolveCompactionOptions } from './resolve-compaction-options';
import { runCompaction } from './run-compaction';

const copy = (messages: readonly Message[]) => JSON.parse(JSON.stringify(messages)) as Message[];

/** An estimator whose tokenizer records every text it is asked to count. */
function countingEstimator() {
  const counted: string[] = [];
  const estimator = createEstimator({
    textCacheChars: 0,
    tokenizer: (text) => {
      counted.push(text);
      return Math.ceil(text.length / 4);
    },
  });
  return { estimator, counted };
}

function stateFor(messages: readonly Message[], coveredCount: number): CompactionState {
  return {
    version: 1,
    summaries: ['summary'],
    coveredCount,
    coveredHash: hashMessages(layoutConversation(messages, coveredCount).covered),
    tokensBefore: 0,
    tokensAfter: 0,
    createdAt: 0,
    compactionCount: 1,
  };
}

describe('recognizeMessages', () => {
  it('lets a request rebuilt from JSON reuse the counts of the previous one, and counts only what is new', () => {
    const conversation = agentConversation({ turns: 6, toolResultChars: 600 });
    const { estimator, counted } = countingEstimator();
    const first = copy(conversation.slice(0, -2));
    recognizeMessages(first, { conversationId: 'reuse' });
    const before = estimator.countMessages(first);
    expect(counted.length).toBeGreaterThan(0);

    counted.length = 0;
    const second = copy(conversation);
    recognizeMessages(second, { conversationId: 'reuse' });
    const after = estimator.countMessages(second);
    // Only the two appended messages were read.
    const appended = createEstimator({ tokenizer: (text) => Math.ceil(text.length / 4) });
    expect(after).toBe(before + appended.countMessages(conversation.slice(-2)));
    const appendedTexts = JSON.stringify(conversation.slice(-2));
    expect(counted.every((text) => appendedTexts.includes(JSON.stringify(text).slice(1, -1)))).toBe(true);
  });

  it('is not replaced by a pipeline run on other lists (a background check measures the dialogue alone)', async () => {
    const conversation = agentConversation({ turns: 6, toolResultChars: 600 });
    const { estimator, counted } = countingEstimator();
    const options = resolveCompactionOptions({ contextWindow: 1_000_000, estimator });
    const first = copy(conversation);
    recognizeMessages(first, { conversationId: 'measured', scope: options.estimator });
    estimator.countMessages(first);
    const memos = first.map((message) => contentMemo(message));
    // What the compactor's background check does between two requests.
    await runCompaction(first.slice(0, 5), options, { conversationId: 'measured', mode: 'measure' });
    await runCompaction([...first, { role: 'user', content: 'next' }], options, {
      conversationId: 'measured',
      mode: 'measure',
    });
    counted.length = 0;
    const second = copy(conversation);
    recognizeMessages(second, { conversationId: 'measured', scope: options.estimator });
    estimator.countMessages(second);
    expect(counted).toEqual([]);
    // Every message borrows the memo it had: nothing is counted or hashed again.
    expect(second.map((message) => contentMemo(message))).toEqual(memos);
    second.forEach((message, index) => {
      expect(contentMemo(message)).toBe(memos[index]);
    });
  });

  it('gives the same counts and hashes as counting and hashing from scratch', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 40 }), (turns, edit) => {
        const conversation = agentConversation({
          turns,
          toolResultChars: 300,
          screenshotEvery: 3,
          seed: turns,
        });
        const id = `same-${turns}-${edit}`;
        const estimator = createEstimator();
        const first = copy(conversation);
        recognizeMessages(first, { conversationId: id });
        estimator.countMessages(first);
        hashMessages(first);
        // The next request: the same history with one message edited somewhere.
        const next = copy(conversation);
        const index = edit % next.length;
        next[index] = {
          ...next[index]!,
          content: `${JSON.stringify(next[index]!.content)} (edited)`,
        } as Message;
        recognizeMessages(next, { conversationId: id });
        const reference = copy(next);
        expect(estimator.countMessages(next)).toBe(createEstimator().countMessages(reference));
        expect(hashMessages(next)).toBe(hashMessages(reference));
      }),
      { numRuns: 40 },
    );
  });

  it('never lets a stored summary apply to a covered prefix that changed by one character', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }), fc.nat(), (turns, pick) => {
        const conversation = agentConversation({ turns, toolResultChars: 400, seed: turns + 7 });
        const coveredCount = Math.max(1, Math.floor((conversation.length - 1) / 2));
        const state = stateFor(conversation, coveredCount);
        const id = `exact-${turns}-${pick}`;
        const fresh = copy(conversation);
        recognizeMessages(fresh, { conversationId: id });
        expect(stateMatches(fresh, state)).toBe(true);

        // Change one character of one text in the covered prefix, in new objects.
        const edited = copy(conversation);
        const covered = layoutConversation(edited, coveredCount).covered;
        const target = covered[pick % covered.length]!;
        const json = JSON.stringify(target.content);
        const position = json.search(/[a-z]/);
        fc.pre(position >= 0);
        const changed = `${json.slice(0, position)}${json[position] === 'a' ? 'b' : 'a'}${json.slice(position + 1)}`;
        (target as { content: unknown }).content = JSON.parse(changed);
        recognizeMessages(edited, { conversationId: id });
        expect(stateMatches(edited, state)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it('is exact when two conversations share a key', () => {
    const one = agentConversation({ turns: 3, seed: 1 });
    const other = agentConversation({ turns: 3, seed: 2 });
    const estimator = createEstimator();
    const first = copy(one);
    recognizeMessages(first, { conversationId: 'shared' });
    estimator.countMessages(first);
    hashMessages(first);
    const request = copy(other);
    recognizeMessages(request, { conversationId: 'shared' });
    expect(estimator.countMessages(request)).toBe(createEstimator().countMessages(other));
    expect(hashMessages(request)).toBe(hashMessages(copy(other)));
    expect(stateMatches(request, stateFor(one, 3))).toBe(false);
  });

  it('never modifies the messages it is given', () => {
    const messages = copy(agentConversation({ turns: 3 }));
    const deepFreeze = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      Object.freeze(value);
      for (const item of Object.values(value)) deepFreeze(item);
    };
    deepFreeze(messages);
    const before = JSON.stringify(messages);
    recognizeMessages(messages, { conversationId: 'frozen' });
    recognizeMessages(copy(messages), { conversationId: 'frozen' });
    recognizeMessages(messages, { conversationId: 'frozen' });
    expect(JSON.stringify(messages)).toBe(before);
  });

  it('through a compactor: a server that deserializes every request gets what reused objects get, and only its own objects back', async () => {
    const conversation = agentConversation({ turns: 24, toolResultChars: 2_000, screenshotEvery: 5 });
    const reference = createCompactor();
    const server = createCompactor();
    const contextWindow = Math.floor(reference.estimator.countMessages(conversation) / 1.2);
    for (let length = conversation.length - 20; length <= conversation.length; length += 2) {
      const history = conversation.slice(0, length);
      const expected = await reference.prepare(history, { conversationId: 'c', contextWindow });
      const request = copy(history);
      const result = await server.prepare(request, { conversationId: 'c', contextWindow });
      expect(result.messages).toEqual(expected.messages);
      expect(result.actions).toEqual(expected.actions);
      expect(result.tokensBefore).toBe(expected.tokensBefore);
      // A message passed through unchanged is the request's own object, never an earlier one.
      const own = new Set<Message>(request);
      const earlier = new Set<Message>(conversation);
      for (const message of result.messages) expect(earlier.has(message)).toBe(false);
      expect(result.messages.filter((message) => own.has(message)).length).toBeGreaterThan(0);
    }
    expect(
      (await server.prepare(copy(conversation), { conversationId: 'c', contextWindow })).actions,
    ).toContain('stub-tool-results');
  });
});

import { describe, expect, it, vi } from 'vitest';
import {
  agentConversation,
  assertToolPairsIntact,
  prose,
  SUMMARY_ONLY,
  seededRandom,
} from '../../test/conversation-fixtures';
import type { Message } from '../message/message';
import { MemoryCompactionStore } from '../store/memory-compaction-store';
import { extractIdentifiers } from '../summarize/extract-identifiers';
import type { Summarizer } from '../summarize/summarizer';
import type { CompactionEvent } from './compaction-event';
import { createCompactor } from './create-compactor';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** A model-like summarizer: keeps the user's identifiers (and a few more), within any summary bound. */
const keepIdentifiers: Summarizer = ({ transcript, messages }) => {
  const userText = messages
    .filter((message) => message.role === 'user')
    .map((message) => String(message.content))
    .join('\n');
  const identifiers = new Set([
    ...extractIdentifiers(userText, { limit: 80 }),
    ...extractIdentifiers(transcript, { limit: 20 }),
  ]);
  return `Covered ${messages.length} messages. ${[...identifiers].join(', ')}`;
};

describe('createCompactor', () => {
  it('never runs two compactions of one conversation at once', async () => {
    const gate = deferred<void>();
    const summarizer = vi.fn<Summarizer>(async (input) => {
      await gate.promise;
      return keepIdentifiers(input) as string;
    });
    const compactor = createCompactor({ ...SUMMARY_ONLY, summarizer, summarizerMaxInputTokens: 1_000_000 });
    const messages = agentConversation({ turns: 20, toolResultChars: 3000 });
    const contextWindow = Math.floor(compactor.estimator.countMessages(messages) / 0.9);
    const first = compactor.prepare(messages, { conversationId: 'c', contextWindow });
    const second = compactor.prepare(messages, { conversationId: 'c', contextWindow });
    const manual = compactor.compact(messages, { conversationId: 'c', contextWindow });
    await Promise.resolve();
    expect(compactor.isCompacting('c')).toBe(true);
    gate.resolve();
    const [a, b, state] = await Promise.all([first, second, manual]);
    expect(summarizer).toHaveBeenCalledTimes(1);
    expect(a.stateChanged).toBe(true);
    expect(b.stateChanged).toBe(false);
    expect(b.messages).toEqual(a.messages);
    expect(state).toEqual(a.state);
    expect(await compactor.store.get('c')).toEqual(a.state);
  });

  it('compacts in the background after a response without delaying it, then applies the summary', async () => {
    const gate = deferred<void>();
    const summarizer = vi.fn<Summarizer>(async (input) => {
      await gate.promise;
      return keepIdentifiers(input) as string;
    });
    const events: CompactionEvent[] = [];
    const compactor = createCompactor({
      ...SUMMARY_ONLY,
      summarizer,
      summarizerMaxInputTokens: 1_000_000,
      onEvent: (event) => events.push(event),
    });
    const messages = agentConversation({ turns: 20, toolResultChars: 3000 });
    const tokens = compactor.estimator.countMessages(messages);
    const contextWindow = Math.floor(tokens / 0.82); // over background (0.80), under compact (0.85)

    const prepared = await compactor.prepare(messages, { conversationId: 'bg', contextWindow });
    expect(prepared.actions).toEqual([]);
    const work = compactor.afterResponse(messages, { conversationId: 'bg', contextWindow });
    expect(compactor.isCompacting('bg')).toBe(true);
    // A request meanwhile is not held up by the background compaction.
    const meanwhile = await compactor.prepare(messages, { conversationId: 'bg', contextWindow });
    expect(meanwhile.stateChanged).toBe(false);
    // Nor does a second response start another.
    await compactor.afterResponse(messages, { conversationId: 'bg', contextWindow }).catch(() => {});
    gate.resolve();
    await work;
    await compactor.idle();
    expect(summarizer).toHaveBeenCalledTimes(1);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['compaction-start', 'compaction-end']),
    );
    expect(events.find((event) => event.type === 'compaction-start')).toMatchObject({ reason: 'background' });

    const next = [...messages, { role: 'user', content: 'And now?' } as Message];
    const applied = await compactor.prepare(next, { conversationId: 'bg', contextWindow });
    expect(applied.actions).toContain('apply-summary');
    expect(applied.messages[0]!.content).toContain('Covered');
    expect(applied.messages.at(-1)).toBe(next.at(-1));
    expect(summarizer).toHaveBeenCalledTimes(1);
  });

  it('does not start background work under the background threshold', async () => {
    const summarizer = vi.fn<Summarizer>(keepIdentifiers);
    const compactor = createCompactor({ summarizer });
    const messages = agentConversation({ turns: 5, toolResultChars: 500 });
    await compactor.afterResponse(messages, { contextWindow: 1_000_000 });
    expect(summarizer).not.toHaveBeenCalled();
    expect(compactor.isCompacting('x')).toBe(false);
  });

  it('reports a failed background compaction and changes nothing', async () => {
    const events: CompactionEvent[] = [];
    const compactor = createCompactor({
      ...SUMMARY_ONLY,
      summarizer: () => {
        throw new Error('model down');
      },
      onEvent: (event) => events.push(event),
    });
    const messages = agentConversation({ turns: 20, toolResultChars: 3000 });
    const contextWindow = Math.floor(compactor.estimator.countMessages(messages) / 0.82);
    await compactor.afterResponse(messages, { conversationId: 'f', contextWindow });
    expect(events.find((event) => event.type === 'compaction-failed')).toMatchObject({
      reason: 'background',
      fallback: 'none',
    });
    expect(await compactor.store.get('f')).toBeUndefined();
  });

  it('backs off after a failed summary instead of calling a broken summarizer on every request', async () => {
    const summarizer = vi.fn<Summarizer>().mockRejectedValue(new Error('model down'));
    const compactor = createCompactor({ ...SUMMARY_ONLY, summarizer, retrySummaryAfter: 3 });
    const messages = agentConversation({ turns: 20, toolResultChars: 3000 });
    const contextWindow = Math.floor(compactor.estimator.countMessages(messages) / 1.1);
    const sent: number[] = [];
    for (let request = 0; request < 8; request++) {
      const prepared = await compactor.prepare(messages, { conversationId: 'down', contextWindow });
      sent.push(prepared.tokensAfter);
      await compactor.afterResponse(messages, { conversationId: 'down', contextWindow });
    }
    // Request 1 tries (2 calls: the summary's own retry), requests 2–4 rest; the background
    // compaction after request 4 tries again (2 calls), requests 5–7 rest; the one after request 7
    // tries (2 calls). Without the back-off every request and every response would try: 32 calls.
    expect(summarizer).toHaveBeenCalledTimes(6);
    for (const tokens of sent) expect(tokens).toBeLessThan(contextWindow * 0.95);

    const eager = vi.fn<Summarizer>().mockRejectedValue(new Error('model down'));
    const noBackOff = createCompactor({ ...SUMMARY_ONLY, summarizer: eager, retrySummaryAfter: 0 });
    for (let request = 0; request < 8; request++) {
      await noBackOff.prepare(messages, { conversationId: 'down', contextWindow });
      await noBackOff.afterResponse(messages, { conversationId: 'down', contextWindow });
    }
    expect(eager).toHaveBeenCalledTimes(32);
    expect(await compactor.store.get('down')).toBeUndefined();
    expect(() => createCompactor({ retrySummaryAfter: -1 })).toThrow(/retrySummaryAfter/);
  });

  it('resolves the window from the model id, and does nothing for an unknown model', async () => {
    const compactor = createCompactor({ contextWindows: { 'tiny-model': 4_000 } });
    const messages = agentConversation({ turns: 10, toolResultChars: 2000 });
    const tiny = await compactor.prepare(messages, { model: 'tiny-model', conversationId: 'tiny' });
    expect(tiny.contextWindow).toBe(4_000);
    expect(tiny.tokensAfter).toBeLessThan(4_000);
    const unknown = await compactor.prepare(messages, { model: 'who-knows', conversationId: 'unknown' });
    expect(unknown.contextWindow).toBeUndefined();
    expect(unknown.actions).toEqual([]);
    const known = await compactor.prepare(messages, { model: 'gpt-4o', conversationId: 'known' });
    expect(known.contextWindow).toBe(128_000);
  });

  it('learns calibration from reported usage', async () => {
    const compactor = createCompactor({ contextWindow: 100_000, model: 'm' });
    const messages = agentConversation({ turns: 3, toolResultChars: 1000 });
    const { estimatedTokens } = await compactor.prepare(messages);
    for (let index = 0; index < 10; index++) {
      await compactor.afterResponse(messages, { inputTokens: estimatedTokens * 1.5, estimatedTokens });
    }
    expect(compactor.estimator.calibrationFactor('m')).toBeGreaterThan(1.3);
    const after = await compactor.prepare(messages);
    expect(after.tokensAfter).toBeGreaterThan(estimatedTokens * 1.3);
  });

  it('emits overflow-retry with the groups kept', async () => {
    const events: CompactionEvent[] = [];
    const compactor = createCompactor({ onEvent: (event) => events.push(event) });
    const messages = agentConversation({ turns: 8, toolResultChars: 2000 });
    await compactor.prepare(messages, { conversationId: 'o', overflowAttempt: 2 });
    expect(events.find((event) => event.type === 'overflow-retry')).toMatchObject({
      attempt: 2,
      keepGroups: 2,
    });
  });

  it('keeps a 60-turn agent session inside the window from start to end, with stable prefixes', async () => {
    const random = seededRandom(7);
    const contextWindow = 32_000;
    const summarizer = vi.fn<Summarizer>(keepIdentifiers);
    const store = new MemoryCompactionStore();
    const steps: Extract<CompactionEvent, { type: 'reduction-step' }>[] = [];
    const compactor = createCompactor({
      contextWindow,
      summarizer,
      store,
      onEvent: (event) => {
        if (event.type === 'reduction-step') steps.push(event);
      },
    });
    const history: Message[] = [{ role: 'system', content: 'You are a coding agent.' }];
    let previous: { messages: Message[]; coveredCount: number | undefined } | undefined;
    let stableCalls = 0;
    let comparableCalls = 0;
    let reusedShare = 0;
    for (let turn = 0; turn < 60; turn++) {
      history.push({
        role: 'user',
        content: `Turn ${turn}: look at docs/page${turn}.md. ${prose(random, 10)}`,
      });
      const callId = `t${turn}`;
      history.push({
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: callId,
            toolName: 'fetch',
            input: { url: `https://docs.example.com/${turn}` },
          },
        ],
      });
      const big = turn % 10 === 3 ? 200_000 : 6_000;
      history.push({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: callId,
            toolName: 'fetch',
            content: `<html>${prose(random, big / 6)}</html>`,
          },
        ],
      });
      const prepared = await compactor.prepare(history, { conversationId: 'long' });
      expect(prepared.tokensAfter).toBeLessThanOrEqual(contextWindow);
      assertToolPairsIntact(prepared.messages);
      const covered = prepared.state?.coveredCount;
      if (previous && previous.coveredCount === covered && !prepared.actions.includes('drop-oldest')) {
        comparableCalls++;
        const prefix = prepared.messages.slice(0, previous.messages.length - 1);
        if (JSON.stringify(prefix) === JSON.stringify(previous.messages.slice(0, -1))) stableCalls++;
        // The share of the previous prompt (tokens) a prompt cache could reuse: its shared prefix.
        let shared = 0;
        while (
          shared < previous.messages.length &&
          JSON.stringify(prepared.messages[shared]) === JSON.stringify(previous.messages[shared])
        )
          shared++;
        reusedShare +=
          compactor.estimator.countMessages(previous.messages.slice(0, shared)) /
          compactor.estimator.countMessages(previous.messages);
      }
      previous = { messages: prepared.messages, coveredCount: covered };
      history.push({ role: 'assistant', content: `Read page ${turn}. ${prose(random, 15)}` });
      await compactor.afterResponse(history, { conversationId: 'long' });
      await compactor.idle();
    }
    // Long pages and short dialogue: clearing old tool output makes all the room, so nothing of the
    // dialogue is summarized.
    expect(summarizer).not.toHaveBeenCalled();
    expect(await store.get('long')).toBeUndefined();
    // The rewritten prefix is byte-identical from call to call, except when a reduction step
    // clears another batch of old results (each step frees at least half the window, so it is
    // rare): even then most of the previous prompt is a prefix a cache can reuse.
    console.log(
      `prefix-stable ${stableCalls}/${comparableCalls}, reusable ${(reusedShare / comparableCalls).toFixed(2)}, steps freed ${steps.map((step) => step.tokensFreed).join(', ')}`,
    );
    expect(comparableCalls).toBeGreaterThan(10);
    expect(stableCalls / comparableCalls).toBeGreaterThanOrEqual(0.6);
    expect(reusedShare / comparableCalls).toBeGreaterThanOrEqual(0.8);
    // Each step is reported with what it freed: few steps, each worth at least a tenth of the window
    // (the level grain), and a prefix that changed without a step is one the messages moved.
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.length).toBeLessThanOrEqual(comparableCalls - stableCalls + 2);
    for (const step of steps.slice(1)) expect(step.tokensFreed).toBeGreaterThanOrEqual(0.1 * contextWindow);
    expect(steps[0]!.previous).toBeUndefined();
    // Every original message is still in the caller's history.
    expect(history).toHaveLength(1 + 60 * 4);
  });
});

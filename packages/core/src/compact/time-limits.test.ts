import { describe, expect, it, vi } from 'vitest';
import { agentSession } from '../../test/agent-turns';
import type { Message } from '../message/message';
import type { Summarizer } from '../summarize/summarizer';
import type { CompactionEvent } from './compaction-event';
import { createCompactor } from './create-compactor';

/** A text-heavy conversation (reductions cannot help): only a summary or a drop makes room. */
function chat(turns: number): Message[] {
  const messages: Message[] = [{ role: 'system', content: 'You are helpful.' }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({
      role: 'user',
      content: `Question ${turn} about order ORD-${1000 + turn}: ${'details '.repeat(60)}`,
    });
    messages.push({ role: 'assistant', content: `Answer ${turn}: ${'explanation '.repeat(80)}` });
  }
  messages.push({ role: 'user', content: 'And the latest question, about ORD-9999?' });
  return messages;
}

/** A summarizer that never answers, and records the signals it was given. */
function hangingSummarizer() {
  const signals: AbortSignal[] = [];
  const summarizer = vi.fn<Summarizer>(({ abortSignal }) => {
    if (abortSignal) signals.push(abortSignal);
    return new Promise<string>(() => {});
  });
  return { summarizer, signals };
}

describe('createCompactor: summarizer time limits', () => {
  it('never holds a request past the foreground limit: the fallback drops from the request only, and nothing is stored', async () => {
    const { summarizer, signals } = hangingSummarizer();
    const events: CompactionEvent[] = [];
    const compactor = createCompactor({
      summarizer,
      summaryTimeouts: { foreground: 50, background: 80 },
      onEvent: (event) => events.push(event),
    });
    const messages = chat(40);
    const contextWindow = Math.floor(compactor.estimator.countMessages(messages) / 1.3);
    const prepared = await compactor.prepare(messages, { conversationId: 'hang', contextWindow });
    expect(prepared.actions).toEqual(expect.arrayContaining(['summarize-failed', 'drop-oldest']));
    expect(prepared.tokensAfter).toBeLessThanOrEqual(contextWindow * 0.85);
    expect(prepared.messages.at(-1)).toBe(messages.at(-1));
    expect(await compactor.store.get('hang')).toBeUndefined();
    // The summarizer was told, through its signal, that its time was up.
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    const failed = events.find((event) => event.type === 'compaction-failed');
    expect(failed).toMatchObject({ fallback: 'drop-oldest', reason: 'threshold' });
    // Every promise the engine hands out settles, even with a summarizer that never does.
    await compactor.idle();
  });

  it('tries again at the next crossing, in the background, and applies the summary once it is made', async () => {
    let calls = 0;
    const summarizer: Summarizer = () => {
      calls++;
      // The first call hangs; later calls answer.
      return calls === 1
        ? new Promise<string>(() => {})
        : 'Summary: orders ORD-1000 to ORD-1030 were discussed.';
    };
    const compactor = createCompactor({ summarizer, summaryTimeouts: { foreground: 40, background: 1_000 } });
    const messages = chat(40);
    const contextWindow = Math.floor(compactor.estimator.countMessages(messages) / 1.3);
    const first = await compactor.prepare(messages, { conversationId: 'again', contextWindow });
    expect(first.actions).toContain('summarize-failed');
    const grown = [
      ...messages,
      { role: 'assistant', content: 'ok' } as Message,
      { role: 'user', content: 'next?' } as Message,
    ];
    const second = await compactor.prepare(grown, { conversationId: 'again', contextWindow });
    // The request does not wait for the retry …
    expect(second.actions).not.toContain('summarize');
    expect(second.tokensAfter).toBeLessThanOrEqual(contextWindow * 0.85);
    // … which runs in the background and is stored.
    await compactor.idle();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect((await compactor.store.get('again'))?.summaries[0]).toContain('ORD-1000');
    const third = await compactor.prepare(grown, { conversationId: 'again', contextWindow });
    expect(third.actions).toContain('apply-summary');
  });

  it("the caller's abort ends a running summarizer at once, with the caller's reason", async () => {
    const { summarizer, signals } = hangingSummarizer();
    const compactor = createCompactor({ summarizer, summaryTimeouts: { foreground: 60_000 } });
    const messages = chat(40);
    const contextWindow = Math.floor(compactor.estimator.countMessages(messages) / 1.3);
    const controller = new AbortController();
    const pending = compactor.prepare(messages, {
      conversationId: 'abort',
      contextWindow,
      abortSignal: controller.signal,
    });
    await vi.waitFor(() => expect(summarizer).toHaveBeenCalled());
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(signals[0]!.aborted).toBe(true);
    await compactor.idle();
    expect(compactor.isCompacting('abort')).toBe(false);
  });

  it('a background summary ends at its own limit or on its signal, and idle() settles', async () => {
    const { summarizer, signals } = hangingSummarizer();
    const events: CompactionEvent[] = [];
    const compactor = createCompactor({
      summarizer,
      summaryTimeouts: { background: 60 },
      onEvent: (event) => events.push(event),
    });
    const messages = chat(40);
    const contextWindow = Math.floor(compactor.estimator.countMessages(messages) / 0.9);
    await compactor.afterResponse(messages, { conversationId: 'bg', contextWindow });
    expect(events.find((event) => event.type === 'compaction-failed')).toMatchObject({
      reason: 'background',
    });
    expect(signals[0]!.aborted).toBe(true);

    const stopped = createCompactor({ summarizer: hangingSummarizer().summarizer });
    const controller = new AbortController();
    const work = stopped.afterResponse(messages, {
      conversationId: 'bg2',
      contextWindow,
      abortSignal: controller.signal,
    });
    await vi.waitFor(() => expect(stopped.isCompacting('bg2')).toBe(true));
    controller.abort();
    await work;
    await stopped.idle();
    expect(stopped.isCompacting('bg2')).toBe(false);
  });

  it('a request waiting for another request’s summary waits at most the foreground limit', async () => {
    const { summarizer } = hangingSummarizer();
    const compactor = createCompactor({ summarizer, summaryTimeouts: { foreground: 60 } });
    const messages = chat(40);
    const contextWindow = Math.floor(compactor.estimator.countMessages(messages) / 1.3);
    const [a, b] = await Promise.all([
      compactor.prepare(messages, { conversationId: 'pair', contextWindow }),
      compactor.prepare(messages, { conversationId: 'pair', contextWindow }),
    ]);
    expect(summarizer).toHaveBeenCalledTimes(1);
    for (const result of [a, b]) expect(result.tokensAfter).toBeLessThanOrEqual(contextWindow * 0.85);
    await compactor.idle();
  });

  it('rejects time limits that are not positive numbers, naming the option', () => {
    expect(() => createCompactor({ summaryTimeouts: { foreground: 0 } })).toThrow(
      /summaryTimeouts.foreground/,
    );
    expect(() => createCompactor({ summaryTimeouts: { background: -1 } })).toThrow(
      /summaryTimeouts.background/,
    );
    expect(() => createCompactor({ summaryTimeouts: 5 as never })).toThrow(/summaryTimeouts/);
  });
});

describe('createCompactor: the 20K tool chat compacts rarely', () => {
  it('makes at most one summary per ten turns of a 60-turn tool chat at a 20,000-token window', async () => {
    const events: CompactionEvent[] = [];
    let summaries = 0;
    const compactor = createCompactor({
      contextWindow: 20_000,
      summarizer: ({ messages }) => {
        summaries++;
        return `Summary of ${messages.length} messages about the files read so far.`;
      },
      onEvent: (event) => events.push(event),
    });
    const history: Message[] = [{ role: 'system', content: 'You are a coding agent.' }];
    for (let turn = 0; turn < 60; turn++) {
      const { messages } = agentSession({
        seed: turn + 1,
        historyTurns: 0,
        currentSteps: 1,
        maxParallel: 1,
        maxResultChars: 60_000,
        imageRate: 0.1,
        cjkRate: 0,
        answered: true,
        turnLabel: turn,
      });
      // One user ask, one tool call with a big result (logs, source, JSON), one answer.
      history.push(...messages.slice(1));
      const prepared = await compactor.prepare(history.slice(0, -1), { conversationId: 'tools' });
      expect(prepared.tokensAfter).toBeLessThanOrEqual(17_000);
      await compactor.afterResponse(history, { conversationId: 'tools' });
      await compactor.idle();
    }
    const compactions = events.filter((event) => event.type === 'compaction-end').length;
    expect(compactions).toBeLessThanOrEqual(6);
    expect(summaries).toBeGreaterThanOrEqual(compactions);
    expect(events.filter((event) => event.type === 'compaction-failed')).toHaveLength(0);
    expect(events.filter((event) => event.type === 'emergency-truncation')).toHaveLength(0);
  });
});

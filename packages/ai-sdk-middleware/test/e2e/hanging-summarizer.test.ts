/**
 * Issue 10 through the AI SDK and a real request builder: a summarizer that never answers does not
 * hold the request past `summaryTimeouts.foreground` (the request goes out shortened, without a
 * summary, and nothing is stored; the note the drop leaves is valid for every provider: Gemini
 * takes no two user turns in a row), and the caller's `abortSignal` ends a request that waits for
 * a summary at once, aborting the summarizer's own signal.
 */
import type { SummarizerInput } from '@spillway/core';
import { afterEach, describe, expect, it } from 'vitest';
import { chatTurn } from '../conversation';
import { closeServers, eventsOf, latestUserText, startHarness } from './harness';
import { providerTargets } from './provider-targets';

const SYSTEM = 'You are a coding agent.';
const WINDOW = 8_000;
const QUESTION = 'What should we do next about src/module-9.ts?';

afterEach(closeServers);

/** A conversation that needs a summary on an 8K window: plain chat the reductions cannot shrink. */
function longChat(): unknown[] {
  const messages: unknown[] = [];
  for (let turn = 1; turn <= 30; turn++) messages.push(...chatTurn(turn));
  messages.push({ role: 'user', content: QUESTION });
  return messages;
}

/** A summarizer that never answers, remembering the signals it was given. */
function hangingSummarizer() {
  const signals: AbortSignal[] = [];
  const summarizer = (input: SummarizerInput) => {
    if (input.abortSignal) signals.push(input.abortSignal);
    return new Promise<string>(() => {});
  };
  return { summarizer, signals };
}

describe.each(providerTargets)('$name: a summarizer that never answers', (target) => {
  const { sdk } = target;

  it('the request goes out at the foreground limit, shortened without a summary; nothing is stored', async () => {
    const { summarizer, signals } = hangingSummarizer();
    const harness = await startHarness(
      target,
      () => target.answer({ text: 'Run the tests.', inputTokens: 4_000 }),
      {
        contextWindow: WINDOW,
        summarizer,
        summaryTimeouts: { foreground: 200 },
      },
    );
    const conversationId = `hanging-${target.name}`;
    const result = await sdk.generateText({
      model: harness.model,
      system: SYSTEM,
      messages: longChat(),
      maxRetries: 0,
      providerOptions: { spillway: { conversationId } },
    });

    expect(result.text).toBe('Run the tests.');
    expect(harness.violations).toEqual([]);
    expect(harness.requests).toHaveLength(1);
    const view = harness.views()[0]!;
    expect(latestUserText(view)).toBe(QUESTION);
    expect(view.some((message) => message.text.includes('Summary of the earlier conversation'))).toBe(false);
    expect(harness.usages[0]!.actions).toContain('summarize-failed');
    expect(harness.usages[0]!.actions).toContain('drop-oldest');
    expect(harness.usages[0]!.tokensAfter).toBeLessThanOrEqual(0.85 * WINDOW);
    expect(signals.length).toBeGreaterThan(0);
    for (const signal of signals) expect(signal.aborted).toBe(true);
    expect(eventsOf(harness.events, 'compaction-failed')[0]).toMatchObject({ fallback: 'drop-oldest' });
    await harness.middleware.compactor.idle();
    expect(await harness.middleware.compactor.store.get(conversationId)).toBeUndefined();
  });

  // The foreground limit (60 s) is longer than this test's timeout: only the abort can end it.
  it('the caller’s abortSignal rejects the call while it waits for the summary', {
    timeout: 10_000,
  }, async () => {
    const { summarizer, signals } = hangingSummarizer();
    const controller = new AbortController();
    const harness = await startHarness(target, () => target.answer({ text: 'unused', inputTokens: 1 }), {
      contextWindow: WINDOW,
      summarizer: (input) => {
        setTimeout(() => controller.abort(new Error('the user left')), 20);
        return summarizer(input);
      },
      summaryTimeouts: { foreground: 60_000 },
    });
    const conversationId = `aborted-${target.name}`;
    const error = await sdk
      .generateText({
        model: harness.model,
        system: SYSTEM,
        messages: longChat(),
        maxRetries: 0,
        abortSignal: controller.signal,
        providerOptions: { spillway: { conversationId } },
      })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );

    expect(String(error)).toMatch(/the user left/);
    expect(harness.requests).toHaveLength(0);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    await harness.middleware.compactor.idle();
    expect(await harness.middleware.compactor.store.get(conversationId)).toBeUndefined();
  });
});

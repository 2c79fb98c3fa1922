// biome-ignore-all lint/suspicious/noExplicitAny: one test body drives two SDK generations and four providers
/**
 * Issue 9 on the real request builders: a user message larger than the window fails fast with
 * `ContextOverflowError` before any request (or after exactly one when the window is unknown, the
 * provider's error stating the limit); Anthropic's "prompt is too long" inside a 200 stream is
 * recovered with one smaller retry.
 */
import { ContextOverflowError } from '@spillway/core';
import { afterEach, describe, expect, it } from 'vitest';
import { agentTurn } from '../conversation';
import type { Sdk } from '../sdk';
import { closeServers, eventsOf, startHarness } from './harness';
import type { Reply } from './loopback-server';
import { providerTargets } from './provider-targets';

const SYSTEM = 'You are a coding agent.';

afterEach(closeServers);

/** A few agent turns, each closed by a short answer. */
function history(sdk: Sdk, turns: number): unknown[] {
  const messages: unknown[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    messages.push(...agentTurn(sdk, turn));
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `Turn ${turn} done.` }] });
  }
  return messages;
}

/** A pasted document of about `chars` characters: what a user sends when the message alone is too big. */
function pastedDocument(chars: number): string {
  const paragraphs: string[] = ['Please review this whole specification and list every inconsistency:'];
  let length = 0;
  for (let index = 0; length < chars; index++) {
    const text = `§${index}. The billing service retries a failed charge ${index % 7} times with a back-off of ${index * 3} seconds, then marks invoice INV-${10_000 + index} as overdue and notifies the account owner.`;
    paragraphs.push(text);
    length += text.length + 1;
  }
  return paragraphs.join('\n');
}

/** Runs `streamText` to its end and returns the error it reported (streamText does not throw). */
async function streamError(sdk: Sdk, options: Record<string, unknown>): Promise<unknown> {
  let reported: unknown;
  const result = sdk.streamText({
    ...options,
    onError: ({ error }: { error: unknown }) => {
      reported = error;
    },
  });
  await result.consumeStream();
  return reported;
}

describe.each(providerTargets)('$name: a message larger than the window', (target) => {
  const { sdk } = target;
  const window = 8_000;
  const oversized = pastedDocument(60_000);

  it.each(['generateText', 'streamText'] as const)(
    '%s throws ContextOverflowError and no request reaches the server',
    async (call) => {
      const harness = await startHarness(target, () => target.answer({ text: 'unused', inputTokens: 1 }), {
        contextWindow: window,
        summarizer: 'extractive',
      });
      const options = {
        model: harness.model,
        system: SYSTEM,
        messages: [...history(sdk, 3), { role: 'user', content: oversized }],
        maxRetries: 0,
      };
      const error =
        call === 'generateText'
          ? await sdk.generateText(options).then(
              () => undefined,
              (thrown: unknown) => thrown,
            )
          : await streamError(sdk, options);

      expect(ContextOverflowError.isInstance(error)).toBe(true);
      const overflow = error as ContextOverflowError;
      expect(overflow.contextWindow).toBe(window);
      // Refused only when it cannot fit the window itself (no output reserve was stated).
      expect(overflow.budgetTokens).toBe(window);
      expect(overflow.tokenCount).toBeGreaterThan(overflow.budgetTokens!);
      expect(overflow.unshrinkable?.userText).toBeGreaterThan(window);
      expect(overflow.unshrinkable?.system).toBeGreaterThan(0);
      expect(overflow.message).toMatch(/No request was sent/);
      expect(harness.requests).toHaveLength(0);
    },
  );

  it(`unknown window: one request, the provider's error${target.statesLimit ? ' states the limit (learned)' : ''}, then ContextOverflowError`, async () => {
    const modelId = `acme-${target.kind}-preview`;
    const limit = 16_384;
    const harness = await startHarness(
      target,
      () => target.overflow({ limit, tokens: 16_000 + Math.round(oversized.length / 4) }),
      { summarizer: 'extractive', warnOnUnknownContextWindow: false },
      { modelId },
    );
    expect(harness.middleware.compactor.contextWindowFor(modelId)).toBeUndefined();
    const error = await sdk
      .generateText({
        model: harness.model,
        system: SYSTEM,
        messages: [{ role: 'user', content: oversized }],
        maxRetries: 0,
      })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );

    expect(harness.violations).toEqual([]);
    expect(harness.requests).toHaveLength(1);
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    // The provider's own error is kept as the cause.
    expect(String((error as ContextOverflowError).cause)).toMatch(
      /maximum context length|prompt is too long|exceeds the (context window|maximum number of tokens)/,
    );
    expect(eventsOf(harness.events, 'context-window-unknown')).toHaveLength(1);
    if (target.statesLimit) {
      expect(harness.middleware.compactor.contextWindowFor(modelId)).toBe(limit);
      expect((error as ContextOverflowError).contextWindow).toBe(limit);
    } else {
      // OpenAI's Responses API does not say the limit: nothing to learn, and no second request.
      expect(harness.middleware.compactor.contextWindowFor(modelId)).toBeUndefined();
    }
  });
});

/** Anthropic's server-sent events for a streamed answer `text`. */
function anthropicStream(text: string, inputTokens: number): Reply {
  return {
    events: [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_2',
            type: 'message',
            role: 'assistant',
            content: [],
            model: 'claude-sonnet-4-5',
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: inputTokens, output_tokens: 1 },
          },
        },
      },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      },
      { event: 'ping', data: { type: 'ping' } },
      ...text.split(/(?<= )/).map((piece) => ({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } },
      })),
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: 6 },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ],
  };
}

/** Anthropic's `error` event (HTTP 200, the error inside the stream). */
const tooLongEvent = {
  event: 'error',
  data: {
    type: 'error',
    error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
  },
};

describe.each(providerTargets.filter((target) => target.kind === 'anthropic'))(
  '$name: "prompt is too long" inside a 200 stream',
  (target) => {
    const { sdk } = target;

    it.each([
      { where: 'as the first event', first: [tooLongEvent] },
      {
        where: 'after message_start and a ping',
        first: [
          (anthropicStream('', 210_000) as { events: any[] }).events[0],
          { event: 'ping', data: { type: 'ping' } },
          tooLongEvent,
        ],
      },
    ])('$where: one smaller retry, the user sees the answer', async ({ first }) => {
      const harness = await startHarness(
        target,
        (request, index) =>
          index === 0 ? { events: first } : anthropicStream('Next: run the tests.', request.bytes / 4),
        { summarizer: 'extractive' },
      );
      const result = sdk.streamText({
        model: harness.model,
        system: SYSTEM,
        messages: [...history(sdk, 12), { role: 'user', content: 'What should we do next?' }],
        maxRetries: 0,
      });

      expect(await result.text).toBe('Next: run the tests.');
      expect(harness.violations).toEqual([]);
      expect(harness.requests).toHaveLength(2);
      expect(harness.requests[0]!.body.stream).toBe(true);
      expect(harness.requests[1]!.bytes).toBeLessThan(harness.requests[0]!.bytes);
      expect(eventsOf(harness.events, 'overflow-retry')).toHaveLength(1);
      // The stated limit is learned for the model.
      expect(harness.middleware.compactor.contextWindowFor(target.modelId)).toBe(200_000);
    });
  },
);

describe.each(providerTargets)('$name: an overflow on a small prompt', (target) => {
  const { sdk } = target;

  it.each(['generateText', 'streamText'] as const)(
    '%s: the provider says "too long" once to a 4-turn prompt; a smaller prompt is sent and answered',
    async (call) => {
      // The loopback server streams Anthropic's events only; for the others the streamed retry is
      // checked as far as the request (its answer is a JSON body a stream cannot read).
      const streamed = call === 'streamText' && target.kind === 'anthropic';
      const readsAnswer = call === 'generateText' || streamed;
      const harness = await startHarness(
        target,
        (_request, index) =>
          index === 0
            ? target.overflow({ limit: 20_000, tokens: 20_100 })
            : streamed
              ? anthropicStream('Recovered.', 300)
              : target.answer({ text: 'Recovered.', inputTokens: 300 }),
        { contextWindow: 20_000, summarizer: 'extractive' },
      );
      const messages: unknown[] = [];
      for (let turn = 1; turn <= 4; turn++) {
        messages.push(
          { role: 'user', content: `Question ${turn}: where is the retry limit set?` },
          { role: 'assistant', content: [{ type: 'text', text: `Answer ${turn}: in config/retry.yaml.` }] },
        );
      }
      messages.push({ role: 'user', content: 'And the back-off?' });
      const options = { model: harness.model, system: SYSTEM, messages, maxRetries: 0 };
      let text: string | undefined;
      let error: unknown;
      if (call === 'generateText') {
        await sdk.generateText(options).then(
          (result: any) => {
            text = result.text;
          },
          (thrown: unknown) => {
            error = thrown;
          },
        );
      } else {
        const result = sdk.streamText({
          ...options,
          onError: ({ error: reported }: { error: unknown }) => {
            error = reported;
          },
        });
        await result.consumeStream();
        if (error === undefined) text = await result.text;
      }
      if (readsAnswer) {
        expect(error).toBeUndefined();
        expect(text).toBe('Recovered.');
      }
      expect(harness.requests).toHaveLength(2);
      // The retry is smaller than what was rejected, and still carries the user's latest message.
      expect(harness.requests[1]!.raw.length).toBeLessThan(harness.requests[0]!.raw.length);
      expect(target.read(harness.requests[1]!.body).at(-1)?.text).toContain('And the back-off?');
      expect(eventsOf(harness.events, 'overflow-retry')).toHaveLength(1);
    },
  );
});

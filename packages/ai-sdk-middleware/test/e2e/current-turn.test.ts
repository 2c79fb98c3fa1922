// biome-ignore-all lint/suspicious/noExplicitAny: one test body drives two SDK generations and four providers
/**
 * Issue 9 on the real request builders: a current turn whose tool results are bigger than the
 * protected window (parallel calls, a tool loop, screenshots) reaches every provider whole and
 * valid: the user's message verbatim, every call with its result (shortened with the marker when
 * nothing else fits, never marked as an error), under the compact threshold.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { agentTurn, screenshotPng, toBase64 } from '../conversation';
import type { Sdk } from '../sdk';
import { closeServers, expectTurnIntact, latestUserText, startHarness } from './harness';
import { providerTargets } from './provider-targets';

const SYSTEM = 'You are a coding agent.';
const LATEST = 'Compare the three service logs and tell me why checkout failed for order ORD-4471 at 10:42.';

afterEach(closeServers);

/** `turns` agent turns (file reads, pages, screenshots), each closed by a short answer. */
function history(sdk: Sdk, turns: number, first = 1): unknown[] {
  const messages: unknown[] = [];
  for (let turn = first; turn < first + turns; turn++) {
    messages.push(...agentTurn(sdk, turn));
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `Turn ${turn} done.` }] });
  }
  return messages;
}

/** A service log of about `chars` characters. */
function serviceLog(service: string, chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let line = 0; length < chars; line++) {
    const text = `2026-03-0${1 + (line % 9)}T10:${String(line % 60).padStart(2, '0')}:${String((line * 7) % 60).padStart(2, '0')}Z ${line % 13 === 0 ? 'WARN' : 'INFO'} [${service}] request id=req-${line} path=/checkout/${line % 211} status=${line % 17 === 0 ? 502 : 200} ms=${(line * 37) % 997}`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join('\n');
}

const SERVICES = ['api', 'worker', 'db'] as const;
const LOG_CHARS = 28_000;

/** The three parallel calls of the current turn and their results (3 × 28K characters). */
const parallelCalls = SERVICES.map((service, index) => ({
  id: `call-log-${index}`,
  name: 'read_log',
  input: { service },
  result: serviceLog(service, LOG_CHARS),
}));

function parallelTurn(): unknown[] {
  return [
    { role: 'user', content: LATEST },
    {
      role: 'assistant',
      content: parallelCalls.map((call) => ({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: call.name,
        input: call.input,
      })),
    },
    {
      role: 'tool',
      content: parallelCalls.map((call) => ({
        type: 'tool-result',
        toolCallId: call.id,
        toolName: call.name,
        output: { type: 'text', value: call.result },
      })),
    },
  ];
}

describe.each(providerTargets)('$name: the current turn reaches the provider whole', (target) => {
  const { sdk } = target;

  it.each([
    { window: 64_000, shortened: false },
    { window: 24_000, shortened: true },
  ])('3 parallel tool results over the protected window, window $window', async ({ window, shortened }) => {
    const harness = await startHarness(
      target,
      () => target.answer({ text: 'The db timed out.', inputTokens: 900 }),
      {
        contextWindow: window,
        summarizer: 'extractive',
      },
    );
    const messages = [...history(sdk, 16), ...parallelTurn()];
    const result = await sdk.generateText({ model: harness.model, system: SYSTEM, messages, maxRetries: 0 });

    expect(harness.violations).toEqual([]);
    expect(result.text).toBe('The db timed out.');
    expect(harness.requests).toHaveLength(1);
    const view = harness.views()[0]!;
    expectTurnIntact(view, { userText: LATEST, calls: parallelCalls });
    const results = view
      .flatMap((message) => message.toolResults)
      .filter((item) => item.id?.startsWith('call-log-'));
    expect(results.some((item) => item.text.length < LOG_CHARS)).toBe(shortened);
    expect(harness.usages.length).toBeGreaterThan(0);
    for (const usage of harness.usages) expect(usage.tokensAfter).toBeLessThanOrEqual(0.85 * window);
    // The history had to give way (it alone is over the window).
    expect(harness.usages[0]!.tokensBefore).toBeGreaterThan(window);
  });

  it('a tool loop (generateText with tools, stopWhen) whose 3 parallel results exceed the protected window', async () => {
    const window = 24_000;
    const harness = await startHarness(
      target,
      (_request, index) =>
        index === 0
          ? target.answer({
              toolCalls: parallelCalls.map(({ id, name, input }) => ({ id, name, input })),
              inputTokens: 900,
            })
          : target.answer({ text: 'The db timed out.', inputTokens: 900 }),
      { contextWindow: window, summarizer: 'extractive' },
    );
    const byService = new Map<string, string>(parallelCalls.map((call) => [call.input.service, call.result]));
    const tools = {
      read_log: sdk.tool({
        description: 'Reads the log of a service.',
        inputSchema: sdk.jsonSchema({
          type: 'object',
          properties: { service: { type: 'string' } },
          required: ['service'],
        }),
        execute: async ({ service }: { service: string }) => byService.get(service)!,
      }),
    };
    const result = await sdk.generateText({
      model: harness.model,
      system: SYSTEM,
      messages: [...history(sdk, 16), { role: 'user', content: LATEST }],
      tools,
      stopWhen: sdk.stepCountIs(3),
      maxRetries: 0,
    });

    expect(harness.violations).toEqual([]);
    expect(result.text).toBe('The db timed out.');
    expect(harness.requests).toHaveLength(2);
    const [first, second] = harness.views() as [any, any];
    expect(latestUserText(first)).toBe(LATEST);
    expectTurnIntact(second, { userText: LATEST, calls: parallelCalls });
    for (const usage of harness.usages) expect(usage.tokensAfter).toBeLessThanOrEqual(0.85 * window);
  });

  it('screenshots in tool results: old ones become placeholders, each call keeps one result', async () => {
    const window = 32_000;
    const harness = await startHarness(
      target,
      () => target.answer({ text: 'The layout shifted.', inputTokens: 900 }),
      {
        contextWindow: window,
        summarizer: 'extractive',
      },
    );
    const png = toBase64(screenshotPng(1280, 800, 40_000, 99));
    const image =
      sdk.version === 'v3'
        ? { type: 'image-data', data: png, mediaType: 'image/png' }
        : { type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } };
    const userText = 'Take a screenshot of the checkout page and compare it with the earlier ones.';
    const messages = [
      ...history(sdk, 12),
      { role: 'user', content: userText },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'call-shot',
            toolName: 'screenshot',
            input: { url: 'https://app.local/checkout' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call-shot',
            toolName: 'screenshot',
            output: { type: 'content', value: [{ type: 'text', text: 'Screenshot of checkout' }, image] },
          },
        ],
      },
    ];
    await sdk.generateText({ model: harness.model, system: SYSTEM, messages, maxRetries: 0 });

    expect(harness.violations).toEqual([]);
    const view = harness.views()[0]!;
    expect(latestUserText(view)).toBe(userText);
    const results = view.flatMap((message) => message.toolResults);
    // The history's screenshots (turns 3, 7, 11) that are still in the request.
    const old = results.filter((result) => /^call-(3|7|11)$/.test(result.id ?? ''));
    const placeholders = old.filter((result) => result.images === 0);
    expect(placeholders.length).toBeGreaterThan(0);
    for (const result of placeholders) {
      expect(result.text).toMatch(/Screenshot \d+(\\n|\n)\[image: image\/png, 1280x800/);
    }
    const current = results.find((result) => result.id === 'call-shot')!;
    expect(current.text).toContain('Screenshot of checkout');
    if (target.kind === 'openai-chat') {
      // Chat completions could only send it as base64 text inside the tool message.
      expect(current.images).toBe(0);
      expect(current.text).toMatch(/\[image: image\/png, 1280x800/);
    } else {
      expect(current.images).toBe(1);
    }
    for (const usage of harness.usages) expect(usage.tokensAfter).toBeLessThanOrEqual(0.85 * window);
  });
});

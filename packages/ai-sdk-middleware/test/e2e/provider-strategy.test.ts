// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON bodies
/**
 * `strategy: 'provider'` through the real request builders: the options it sets are valid for the
 * provider package (they reach the body in the API's own spelling, with the beta the package adds),
 * and providers without context management fall back to local compaction with one warning.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeServers, startHarness } from './harness';
import { providerTargets } from './provider-targets';

afterEach(closeServers);
afterEach(() => vi.restoreAllMocks());

const prompt = [{ role: 'user', content: 'Hello there.' }];

describe("strategy 'provider' on a 200K window", () => {
  const anthropic = providerTargets.filter((target) => target.kind === 'anthropic');
  it.each(anthropic)(
    '$name: context editing and server-side compaction, valid for the package',
    async (target) => {
      const harness = await startHarness(target, () => target.answer({ text: 'Hi.', inputTokens: 10 }), {
        contextWindow: 200_000,
        strategy: 'provider',
      });
      await target.sdk.generateText({ model: harness.model, messages: prompt, maxRetries: 0 });
      const [request] = harness.requests;
      expect(request!.body.context_management).toEqual({
        edits: [
          {
            type: 'clear_tool_uses_20250919',
            trigger: { type: 'input_tokens', value: 170_000 },
            keep: { type: 'tool_uses', value: 1 },
            clear_at_least: { type: 'input_tokens', value: 50_000 },
            exclude_tools: ['spillway_recall'],
          },
          { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 190_000 } },
        ],
      });
    },
  );

  it.each(anthropic)('$name: an on-demand compaction the caller asked for is left alone', async (target) => {
    const harness = await startHarness(target, () => target.answer({ text: 'Hi.', inputTokens: 10 }), {
      contextWindow: 200_000,
      strategy: 'provider',
    });
    const user = { anthropic: { compaction: { type: 'summarize' } } };
    await target.sdk
      .generateText({ model: harness.model, messages: prompt, maxRetries: 0, providerOptions: user })
      .catch(() => {});
    for (const request of harness.requests) expect(request.body.context_management).toBeUndefined();
  });

  const responses = providerTargets.find(
    (target) => target.kind === 'openai-responses' && target.sdk.version === 'v4',
  )!;
  it(`${responses.name}: compaction at the compact threshold`, async () => {
    const harness = await startHarness(responses, () => responses.answer({ text: 'Hi.', inputTokens: 10 }), {
      contextWindow: 200_000,
      strategy: 'provider',
    });
    await responses.sdk.generateText({ model: harness.model, messages: prompt, maxRetries: 0 });
    expect(harness.requests[0]!.body.context_management).toEqual([
      { type: 'compaction', compact_threshold: 170_000 },
    ]);
  });
});

describe("strategy 'provider' without provider context management", () => {
  const others = providerTargets.filter(
    (target) =>
      target.kind === 'google' ||
      target.kind === 'openai-chat' ||
      (target.kind === 'openai-responses' && target.sdk.version === 'v3'),
  );
  it.each(others)('$name: local compaction, one warning per middleware', async (target) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const harness = await startHarness(target, () => target.answer({ text: 'Hi.', inputTokens: 10 }), {
      contextWindow: 200_000,
      strategy: 'provider',
    });
    for (let call = 0; call < 3; call++) {
      await target.sdk.generateText({ model: harness.model, messages: prompt, maxRetries: 0 });
    }
    const spillway = warn.mock.calls.filter((call) => String(call[0]).includes("strategy 'provider'"));
    expect(spillway).toHaveLength(1);
    for (const request of harness.requests) {
      expect(request.body.context_management).toBeUndefined();
      expect(request.raw).not.toContain('contextManagement');
    }
  });
});

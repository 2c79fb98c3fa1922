// biome-ignore-all lint/suspicious/noExplicitAny: one test body drives two SDK generations
/**
 * Issue 10 on the real request builder: a `@ai-sdk/openai` chat request with a screenshot in a tool
 * result is estimated within 15% of what the body the request builder wrote holds (o200k_base, the
 * gpt-4o tokenizer, over the JSON body the server received), and calibrating from a provider that
 * reports exactly that count keeps the factor within 1.0–1.3.
 */
import { getEncoding } from 'js-tiktoken';
import { afterEach, describe, expect, it } from 'vitest';
import { screenshotPng, sourceFile, toBase64 } from '../conversation';
import { closeServers, startHarness } from './harness';
import { providerTargets, validateOpenAiChat } from './provider-targets';

const encoding = getEncoding('o200k_base');
const bodyTokens = (raw: string) => encoding.encode(raw).length;

afterEach(closeServers);

/** Turn `turn` of a browsing agent: the user asks, the agent reads a file and takes a screenshot. */
function browsingTurn(sdk: { version: 'v3' | 'v4' }, turn: number): unknown[] {
  const png = toBase64(screenshotPng(1280, 800, 30_000, turn));
  const image =
    sdk.version === 'v3'
      ? { type: 'image-data', data: png, mediaType: 'image/png' }
      : { type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } };
  return [
    {
      role: 'user',
      content: `Step ${turn}: open the checkout page, compare it with src/checkout-${turn}.tsx.`,
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading src/checkout-${turn}.tsx and taking a screenshot.` },
        {
          type: 'tool-call',
          toolCallId: `read-${turn}`,
          toolName: 'read_file',
          input: { path: `src/checkout-${turn}.tsx` },
        },
        {
          type: 'tool-call',
          toolCallId: `shot-${turn}`,
          toolName: 'screenshot',
          input: { url: `https://shop.local/checkout?step=${turn}` },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `read-${turn}`,
          toolName: 'read_file',
          output: { type: 'text', value: sourceFile(`src/checkout-${turn}.tsx`, 3_000) },
        },
        {
          type: 'tool-result',
          toolCallId: `shot-${turn}`,
          toolName: 'screenshot',
          output: { type: 'content', value: [{ type: 'text', text: `Checkout, step ${turn}` }, image] },
        },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'text', text: `Step ${turn}: the button is misaligned by 4px.` }],
    },
  ];
}

describe.each(providerTargets.filter((target) => target.kind === 'openai-chat'))(
  '$name: the estimate against the body the request builder wrote',
  (target) => {
    const { sdk } = target;

    it.each([
      { media: 'placeholder' as const, turns: 5 },
      // `keep` sends each screenshot as the request builder serializes it: its base64 inside the
      // tool message's JSON text, which the engine counts as that text, not as an image. Measured:
      // the estimate is within 3% of the body, and a 30 KB screenshot costs about 27,000 tokens
      // there (the image the model cannot see), against about 15 for its placeholder.
      { media: 'keep' as const, turns: 2 },
    ])('toolResultMedia: $media', async ({ media, turns }) => {
      const harness = await startHarness(
        target,
        (request) => target.answer({ text: 'Noted.', inputTokens: bodyTokens(request.raw) }),
        // A window no request reaches: what is measured is the estimate, not compaction.
        { contextWindow: 1_000_000, summarizer: 'extractive', toolResultMedia: media },
        { validate: (body) => validateOpenAiChat(body, { mediaAsText: media === 'keep' }) },
      );
      const messages: unknown[] = [];
      const ratios: number[] = [];
      const factors: number[] = [];
      for (let turn = 1; turn <= turns; turn++) {
        messages.push(...browsingTurn(sdk, turn), { role: 'user', content: `What changed in step ${turn}?` });
        const result = await sdk.generateText({
          model: harness.model,
          messages,
          maxRetries: 0,
          providerOptions: { spillway: { conversationId: `estimate-${media}` } },
        });
        messages.push(...result.response.messages);
        await harness.middleware.compactor.idle();
        const usage = harness.usages.at(-1)!;
        const factor = harness.middleware.compactor.estimator.calibrationFactor(target.modelId);
        // The raw estimate of what was sent (tokensAfter is calibrated with the factor before this call).
        const estimate = usage.tokensAfter / (factors.at(-1) ?? 1);
        ratios.push(estimate / bodyTokens(harness.requests.at(-1)!.raw));
        factors.push(factor);
      }

      expect(harness.violations).toEqual([]);
      const body = harness.requests.at(-1)!.raw;
      if (media === 'placeholder') {
        expect(body).not.toMatch(/iVBORw0KGgo/);
        expect(body).toMatch(/\[image: image\/png, 1280x800/);
      } else {
        expect(body).toMatch(/iVBORw0KGgo/);
      }
      for (const ratio of ratios) {
        expect(ratio).toBeGreaterThanOrEqual(0.85);
        expect(ratio).toBeLessThanOrEqual(1.15);
      }
      for (const factor of factors) {
        expect(factor).toBeGreaterThanOrEqual(1);
        expect(factor).toBeLessThanOrEqual(1.3);
      }
      console.log(
        `[estimate vs body] ${target.name}, toolResultMedia ${media}: last body ${bodyTokens(body)} tokens; estimate/body ${ratios.map((ratio) => ratio.toFixed(3)).join(' ')}; calibration ${factors.map((factor) => factor.toFixed(3)).join(' ')}`,
      );
    });
  },
);

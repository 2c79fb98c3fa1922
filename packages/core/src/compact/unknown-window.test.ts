import { describe, expect, it, vi } from 'vitest';
import { agentSession } from '../../test/agent-turns';
import { pngHeader, seededRandom } from '../../test/conversation-fixtures';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message } from '../message/message';
import type { CompactionEvent } from './compaction-event';
import { createCompactor } from './create-compactor';

const { messages } = agentSession({
  seed: 3,
  historyTurns: 12,
  currentSteps: 1,
  maxResultChars: 20_000,
  cjkRate: 0,
});

describe('createCompactor: unknown windows are loud and learnable', () => {
  it('reports an unknown model once (event and one console.warn), and can be silenced', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const events: CompactionEvent[] = [];
      const compactor = createCompactor({ onEvent: (event) => events.push(event) });
      for (let call = 0; call < 3; call++) {
        await compactor.prepare(messages, { model: 'my-azure-deployment', conversationId: `c${call}` });
        await compactor.afterResponse(messages, { model: 'my-azure-deployment', conversationId: `c${call}` });
      }
      await compactor.prepare(messages, { model: 'other-private-model' });
      const unknown = events.filter((event) => event.type === 'context-window-unknown');
      expect(unknown.map((event) => (event as { model?: string }).model)).toEqual([
        'my-azure-deployment',
        'other-private-model',
      ]);
      expect(warn).toHaveBeenCalledTimes(2);
      expect(String(warn.mock.calls[0]![0])).toMatch(/contextWindow.*warnOnUnknownContextWindow: false/s);

      warn.mockClear();
      const quiet = createCompactor({
        warnOnUnknownContextWindow: false,
        onEvent: (event) => events.push(event),
      });
      await quiet.prepare(messages, { model: 'my-azure-deployment' });
      expect(warn).not.toHaveBeenCalled();
      expect(events.filter((event) => event.type === 'context-window-unknown')).toHaveLength(3);
    } finally {
      warn.mockRestore();
    }
  });

  it('learns the window from an overflow error that states it, and compacts from the next call on', async () => {
    const compactor = createCompactor({ warnOnUnknownContextWindow: false });
    const first = await compactor.prepare(messages, { model: 'llama-server-model', conversationId: 'l' });
    expect(first.contextWindow).toBeUndefined();
    expect(first.actions.filter((action) => action !== 'cap-tool-results')).toEqual([]);
    const error = new Error(
      `This model's maximum context length is 8192 tokens. However, your messages resulted in ${Math.round(first.estimatedTokens * 1.1)} tokens.`,
    );
    const retry = await compactor.prepare(messages, {
      model: 'llama-server-model',
      conversationId: 'l',
      overflowAttempt: 1,
      overflowError: error,
    });
    expect(retry.contextWindow).toBe(8_192);
    expect(retry.tokensAfter).toBeLessThanOrEqual(8_192 * 0.85);
    expect(compactor.contextWindowFor('llama-server-model')).toBe(8_192);
    // The provider's own count taught the calibration (10% more than estimated, moved smoothly).
    expect(compactor.estimator.calibrationFactor('llama-server-model')).toBeGreaterThan(1);
    expect(compactor.estimator.calibrationFactor('llama-server-model')).toBeLessThan(1.1);
    const next = await compactor.prepare([...messages, { role: 'user', content: 'more' } as Message], {
      model: 'llama-server-model',
      conversationId: 'l',
    });
    expect(next.contextWindow).toBe(8_192);
    expect(next.tokensAfter).toBeLessThanOrEqual(8_192 * 0.85);
  });

  it('a stated limit below a configured window wins', async () => {
    const compactor = createCompactor({ contextWindow: 128_000 });
    await compactor.prepare(messages, {
      model: 'small',
      overflowAttempt: 1,
      overflowError: new Error('prompt is too long: 40000 tokens > 32000 maximum'),
    });
    expect(compactor.contextWindowFor('small')).toBe(32_000);
  });
});

describe('createCompactor: whose window wins', () => {
  it('the application configures, the model object declares, the table knows: in that order', async () => {
    const declared = 1_000_000;
    const byOption = createCompactor({ contextWindow: 8_000 });
    const byEntry = createCompactor({ contextWindows: { 'gpt-4o': 16_000 } });
    const byNothing = createCompactor({});
    const windowOf = async (compactor: ReturnType<typeof createCompactor>, contextWindow?: number) =>
      (
        await compactor.prepare(messages, {
          model: 'gpt-4o',
          modelContextWindow: declared,
          ...(contextWindow === undefined ? {} : { contextWindow }),
        })
      ).contextWindow;
    expect(await windowOf(byOption)).toBe(8_000);
    expect(await windowOf(byEntry)).toBe(16_000);
    expect(await windowOf(byNothing)).toBe(declared);
    // A per-call window wins over everything; without a declared window the table answers.
    expect(await windowOf(byOption, 4_000)).toBe(4_000);
    expect((await byNothing.prepare(messages, { model: 'gpt-4o' })).contextWindow).toBe(128_000);
    expect(byEntry.contextWindowFor('gpt-4o', declared)).toBe(16_000);
    expect(byNothing.contextWindowFor('gpt-4o', declared)).toBe(declared);
    expect(byNothing.contextWindowFor('gpt-4o')).toBe(128_000);
  });

  it('a per-call window that is not a number of tokens above 0 is refused, naming the option', async () => {
    const compactor = createCompactor({ contextWindow: 8_000 });
    for (const [options, option] of [
      [{ contextWindow: -1 }, 'contextWindow'],
      [{ contextWindow: Number.NaN }, 'contextWindow'],
      [{ modelContextWindow: 0 }, 'modelContextWindow'],
      [{ modelContextWindow: Number.POSITIVE_INFINITY }, 'modelContextWindow'],
    ] as const) {
      const refused = await compactor.prepare(messages, options).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(InvalidConfigError);
      expect((refused as InvalidConfigError).option).toBe(option);
    }
    expect(() => compactor.contextWindowFor('gpt-4o', 0)).toThrow(InvalidConfigError);
  });

  it('a declared window also sizes a model the table does not know, with no warning', async () => {
    const events: CompactionEvent[] = [];
    const compactor = createCompactor({ onEvent: (event) => events.push(event) });
    const result = await compactor.prepare(messages, {
      model: 'my-gateway-model',
      modelContextWindow: 8_192,
    });
    expect(result.contextWindow).toBe(8_192);
    expect(result.tokensAfter).toBeLessThanOrEqual(8_192 * 0.85);
    expect(events.filter((event) => event.type === 'context-window-unknown')).toEqual([]);
  });
});

/** A PNG of 1280×800 whose 60 KB body is noise, like a real screenshot's compressed data. */
function noisyPng(): string {
  const random = seededRandom(9);
  const bytes = new Uint8Array(60_000);
  bytes.set(pngHeader(1280, 800));
  for (let index = 33; index < bytes.length; index++) bytes[index] = Math.floor(random() * 256);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

describe('createCompactor: counting what the provider really sends', () => {
  const screenshotTurn = (): Message[] => [
    { role: 'user', content: 'What does the page look like?' },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 's1', toolName: 'screenshot', input: {} }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 's1',
          toolName: 'screenshot',
          content: [
            { type: 'text', text: 'Screenshot of /checkout' },
            { type: 'image', data: noisyPng(), mediaType: 'image/png' },
          ],
        },
      ],
    },
  ];

  it('OpenAI chat: a screenshot inside a tool result becomes one text placeholder (base64 would be sent as text)', async () => {
    const compactor = createCompactor({ contextWindow: 128_000 });
    const result = await compactor.prepare(screenshotTurn(), { provider: 'openai.chat' });
    expect(result.actions).toContain('tool-result-media');
    const tool = result.messages[2]!.content as unknown as { content: unknown }[];
    expect(tool[0]!.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(
          /^Screenshot of \/checkout\n\[image: image\/png, 1280x800, 59 KB\] \[ref=i\.[A-Za-z0-9]{12}\]$/,
        ),
      },
    ]);
    const native = await compactor.prepare(screenshotTurn(), { provider: 'anthropic.messages' });
    expect(native.actions).not.toContain('tool-result-media');
  });

  it("keep: sends the media and counts it as the provider's text (base64), not as an image", async () => {
    const compactor = createCompactor({ contextWindow: 128_000, toolResultMedia: 'keep' });
    const asText = await compactor.prepare(screenshotTurn(), { provider: 'openai.chat' });
    const asImage = await compactor.prepare(screenshotTurn(), { provider: 'openai.responses' });
    expect(asText.actions).not.toContain('tool-result-media');
    // 60 KB of base64 is ~55,000 tokens as text; as an image it is 765.
    expect(asText.estimatedTokens).toBeGreaterThan(40_000);
    expect(asImage.estimatedTokens).toBeLessThan(2_000);
  });
});

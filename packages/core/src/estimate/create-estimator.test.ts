import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message } from '../message/message';
import { createEstimator, type EstimatorOptions } from './create-estimator';
import { estimateTextTokens } from './estimate-text-tokens';
import { pngBytes } from './image-headers.fixture';

/** A tokenizer that counts characters, so expected counts are easy to state. */
const countCharacters = (text: string): number => text.length;

function conversation(length: number): Message[] {
  return Array.from({ length }, (_, index) =>
    index % 2 === 0
      ? { role: 'user', content: `Question number ${index}: what changed in release ${index}.0?` }
      : {
          role: 'assistant',
          content: [
            { type: 'text', text: `Let me look that up for release ${index}.` },
            {
              type: 'tool-call',
              toolCallId: `call_${index}`,
              toolName: 'search',
              input: { query: `v${index}` },
            },
          ],
        },
  );
}

describe('createEstimator: counting', () => {
  it('counts text with the built-in heuristic by default', () => {
    const estimator = createEstimator();
    const text = 'Spillway keeps long conversations inside the context window.';
    expect(estimator.countText(text)).toBe(estimateTextTokens(text));
    expect(estimator.countText('')).toBe(0);
  });

  it('uses a pluggable tokenizer for every piece of text', () => {
    const tokenizer = vi.fn(countCharacters);
    const estimator = createEstimator({ tokenizer });
    expect(estimator.countText('hello')).toBe(5);
    expect(tokenizer).toHaveBeenCalledWith('hello');
    expect(estimator.countPart({ type: 'reasoning', text: 'think' })).toBe(5);
    // Tool call: name + id + JSON of the input + 6 of framing.
    expect(
      estimator.countPart({ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: '/a' } }),
    ).toBe(4 + 2 + JSON.stringify({ path: '/a' }).length + 6);
    // A string input is counted as is, not re-quoted.
    expect(
      estimator.countPart({ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: '{"a":1}' }),
    ).toBe(4 + 2 + 7 + 6);
  });

  it('falls back to the heuristic when the tokenizer throws or returns nonsense', () => {
    const text = 'fallback text';
    expect(createEstimator({ tokenizer: () => Number.NaN }).countText(text)).toBe(estimateTextTokens(text));
    expect(createEstimator({ tokenizer: () => -3 }).countText(text)).toBe(estimateTextTokens(text));
    const throwing = createEstimator({
      tokenizer: () => {
        throw new Error('tokenizer not loaded');
      },
    });
    expect(throwing.countText(text)).toBe(estimateTextTokens(text));
  });

  it('adds the per-message overhead and counts string and part content', () => {
    const estimator = createEstimator({ tokenizer: countCharacters, messageOverheadTokens: 3 });
    expect(estimator.countMessage({ role: 'user', content: 'hello' })).toBe(3 + 5);
    expect(
      estimator.countMessage({
        role: 'assistant',
        content: [
          { type: 'text', text: 'ab' },
          { type: 'reasoning', text: 'cde' },
        ],
      }),
    ).toBe(3 + 2 + 3);
    expect(createEstimator().countMessage({ role: 'user', content: '' })).toBe(4);
  });

  it('counts tool results by their text, images and files', () => {
    const estimator = createEstimator({ tokenizer: countCharacters });
    expect(
      estimator.countPart({ type: 'tool-result', toolCallId: 'c1', toolName: 'ls', content: 'a.txt' }),
    ).toBe(4 + 2 + 5);
    const withImage = estimator.countPart({
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'screenshot',
      content: [
        { type: 'text', text: 'done' },
        { type: 'image', data: pngBytes(1000, 1000), mediaType: 'image/png' },
      ],
    });
    expect(withImage).toBe(4 + 2 + 4 + 1334);
    const openai = createEstimator({ tokenizer: countCharacters, imageProvider: 'openai' });
    expect(openai.countPart({ type: 'image', width: 1024, height: 1024 })).toBe(765);
  });

  it('counts opaque parts by their text, else by the JSON size of their value', () => {
    const estimator = createEstimator({ tokenizer: countCharacters });
    expect(estimator.countPart({ type: 'opaque', value: { huge: 'x'.repeat(1000) }, text: 'summary' })).toBe(
      7,
    );
    const value = { kind: 'provider-item', id: 'rs_1', items: [1, 2, 3] };
    expect(estimator.countPart({ type: 'opaque', value })).toBe(JSON.stringify(value).length);
    expect(estimator.countPart({ type: 'opaque', value: undefined })).toBe(0);
  });

  it('counts binary opaque values by byte length without stringifying them', () => {
    const tokenizer = vi.fn(countCharacters);
    const estimator = createEstimator({ tokenizer });
    const bytes = new Uint8Array(1_000_000);
    const toJSON = vi.fn(() => Array.from(bytes));
    Object.defineProperty(bytes, 'toJSON', { value: toJSON });
    const count = estimator.countPart({
      type: 'opaque',
      value: { type: 'audio', data: bytes, buffer: new ArrayBuffer(500) },
    });
    expect(toJSON).not.toHaveBeenCalled();
    const text = tokenizer.mock.calls[0]![0];
    expect(text.length).toBeLessThan(100);
    expect(count).toBe(text.length + Math.ceil(1_000_500 / 500));
  });

  it('never throws on malformed parts and messages', () => {
    const estimator = createEstimator();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(estimator.countPart({ type: 'opaque', value: cyclic })).toBeGreaterThan(0);
    expect(
      estimator.countPart({ type: 'tool-call', toolCallId: 'x', toolName: 'big', input: 10n }),
    ).toBeGreaterThan(6);
    expect(estimator.countPart({ type: 'mystery', payload: 'abc' } as never)).toBeGreaterThan(0);
    expect(estimator.countMessage({ role: 'user', content: undefined } as never)).toBe(4);
    expect(estimator.countMessage(null as never)).toBe(0);
  });
});

describe('createEstimator: memoisation', () => {
  it('counts a message object once', () => {
    const tokenizer = vi.fn(countCharacters);
    const estimator = createEstimator({ tokenizer });
    const message: Message = { role: 'user', content: 'count me once' };
    expect(estimator.countMessage(message)).toBe(4 + 13);
    expect(estimator.countMessage(message)).toBe(4 + 13);
    expect(tokenizer).toHaveBeenCalledTimes(1);
  });

  it('recounts a changed copy, and only new messages when a conversation grows', () => {
    const tokenizer = vi.fn(countCharacters);
    const estimator = createEstimator({ tokenizer });
    const messages = conversation(500);
    const before = estimator.countMessages(messages);
    const callsAfterFirstCount = tokenizer.mock.calls.length;
    expect(estimator.countMessages(messages)).toBe(before);
    expect(tokenizer).toHaveBeenCalledTimes(callsAfterFirstCount);

    const added: Message = { role: 'user', content: 'one more' };
    expect(estimator.countMessages([...messages, added])).toBe(before + 4 + 8);
    expect(tokenizer).toHaveBeenCalledTimes(callsAfterFirstCount + 1);

    const edited: Message = { ...messages[0]!, content: 'a different question' };
    expect(estimator.countMessage(edited)).toBe(4 + 20);
    expect(tokenizer).toHaveBeenCalledTimes(callsAfterFirstCount + 2);
  });

  it('keeps raw counts in the memo, unaffected by calibration', () => {
    const estimator = createEstimator({ tokenizer: countCharacters });
    const message: Message = { role: 'user', content: 'x'.repeat(96) };
    expect(estimator.countMessage(message)).toBe(100);
    estimator.calibrate({ estimatedTokens: 100, actualTokens: 150 });
    expect(estimator.countMessage(message)).toBe(100);
    // The factor moves 30% of the way from 1 towards the observed 1.5.
    expect(estimator.calibrated(estimator.countMessage(message))).toBe(115);
  });

  it('sums a list of the same objects from memory, and any other list from its messages', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 40 }), { minLength: 32, maxLength: 80 }),
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 40 }),
        (texts, pick, replacement) => {
          const estimator = createEstimator({ tokenizer: countCharacters });
          const messages: Message[] = texts.map((text) => ({ role: 'user', content: text }));
          const total = estimator.countMessages(messages);
          // A new array of the same objects (as a request builds several): the same total.
          expect(estimator.countMessages([...messages])).toBe(total);
          // One message replaced by another object: summed again, never served from memory.
          const index = pick % messages.length;
          const changed = [...messages];
          changed[index] = { role: 'user', content: replacement };
          const expected = total - (4 + texts[index]!.length) + (4 + replacement.length);
          expect(estimator.countMessages(changed)).toBe(expected);
          // Shorter and longer lists of the same objects are their own sums.
          expect(estimator.countMessages(messages.slice(1))).toBe(total - (4 + texts[0]!.length));
        },
      ),
    );
  });

  it('countMessages is the sum of countMessage, in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 30 }), (texts) => {
        const estimator = createEstimator();
        const messages: Message[] = texts.map((text) => ({ role: 'user', content: text }));
        const sum = messages.reduce((total, message) => total + estimator.countMessage(message), 0);
        return (
          estimator.countMessages(messages) === sum &&
          estimator.countMessages([...messages].reverse()) === sum
        );
      }),
    );
  });
});

describe('createEstimator: calibration', () => {
  it('starts at factor 1 and moves smoothly towards each observation', () => {
    const estimator = createEstimator();
    expect(estimator.calibrationFactor('gpt-5')).toBe(1);
    expect(estimator.calibrated(1000, 'gpt-5')).toBe(1000);
    estimator.calibrate({ model: 'gpt-5', estimatedTokens: 1000, actualTokens: 1200 });
    // One response moves it 30% of the way: one odd call cannot swing the thresholds.
    expect(estimator.calibrationFactor('gpt-5')).toBeCloseTo(1.06);
    expect(estimator.calibrated(1000, 'gpt-5')).toBe(1060);
    // Other models, and the model-less key, are unaffected.
    expect(estimator.calibrationFactor('claude-sonnet-4-5')).toBe(1);
    expect(estimator.calibrationFactor()).toBe(1);
  });

  it('converges to a steady ratio with exponential smoothing', () => {
    const estimator = createEstimator({ calibrationSmoothing: 0.3 });
    estimator.calibrate({ estimatedTokens: 1000, actualTokens: 1000 });
    estimator.calibrate({ estimatedTokens: 1000, actualTokens: 2000 });
    expect(estimator.calibrationFactor()).toBeCloseTo(1 + 0.3 * (2 - 1));
    for (let index = 0; index < 40; index++)
      estimator.calibrate({ estimatedTokens: 800, actualTokens: 1040 });
    expect(estimator.calibrationFactor()).toBeCloseTo(1.3, 3);
    expect(estimator.calibrated(10_000)).toBe(13_000);
  });

  it('ignores observations outside its band as outliers', () => {
    const estimator = createEstimator({ minimumCalibrationFactor: 0.8, maximumCalibrationFactor: 1.5 });
    estimator.calibrate({ model: 'm', estimatedTokens: 100, actualTokens: 10_000 });
    expect(estimator.calibrationFactor('m')).toBe(1);
    for (let index = 0; index < 60; index++) {
      estimator.calibrate({ model: 'm', estimatedTokens: 1000, actualTokens: 1 });
    }
    expect(estimator.calibrationFactor('m')).toBe(1);
    for (let index = 0; index < 60; index++) {
      estimator.calibrate({ model: 'm', estimatedTokens: 1000, actualTokens: 1_400 });
      expect(estimator.calibrationFactor('m')).toBeLessThanOrEqual(1.5);
    }
    expect(estimator.calibrationFactor('m')).toBeCloseTo(1.4, 6);
    // The default band is 0.5–2: a 4.6× ratio (base64 sent as text, say) teaches nothing.
    const defaults = createEstimator();
    defaults.calibrate({ estimatedTokens: 1000, actualTokens: 4600 });
    expect(defaults.calibrationFactor()).toBe(1);
    defaults.calibrate({ model: 'x', estimatedTokens: 1000, actualTokens: 400 });
    expect(defaults.calibrationFactor('x')).toBe(1);
  });

  it('keeps every factor inside the band, whatever the observations (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 1e6 })), {
          maxLength: 50,
        }),
        (observations) => {
          const estimator = createEstimator();
          for (const [estimatedTokens, actualTokens] of observations) {
            estimator.calibrate({ estimatedTokens, actualTokens });
            const factor = estimator.calibrationFactor();
            if (factor < 0.5 || factor > 2) return false;
          }
          return true;
        },
      ),
    );
  });

  it('ignores bad observations', () => {
    const estimator = createEstimator({ calibrationSmoothing: 1 });
    estimator.calibrate({ estimatedTokens: 1000, actualTokens: 1100 });
    const bad = [
      { estimatedTokens: 0, actualTokens: 100 },
      { estimatedTokens: -5, actualTokens: 100 },
      { estimatedTokens: 100, actualTokens: 0 },
      { estimatedTokens: 100, actualTokens: -1 },
      { estimatedTokens: Number.NaN, actualTokens: 100 },
      { estimatedTokens: 100, actualTokens: Number.POSITIVE_INFINITY },
      { estimatedTokens: '100', actualTokens: 200 },
      {},
      null,
      undefined,
    ];
    for (const observation of bad) expect(() => estimator.calibrate(observation as never)).not.toThrow();
    expect(estimator.calibrationFactor()).toBeCloseTo(1.1);
  });

  it('treats bad counts in calibrated() gently', () => {
    const estimator = createEstimator({ calibrationSmoothing: 1 });
    estimator.calibrate({ estimatedTokens: 100, actualTokens: 200 });
    expect(estimator.calibrated(Number.NaN)).toBe(0);
    expect(estimator.calibrated(-10)).toBe(0);
    expect(estimator.calibrated(0)).toBe(0);
    expect(estimator.calibrated(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(estimator.calibrated(3)).toBe(6);
  });
});

describe('createEstimator: provider views', () => {
  const image = (width: number, height: number) => {
    const bytes = new Uint8Array(33 + 3000);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const view = new DataView(bytes.buffer);
    view.setUint32(16, width);
    view.setUint32(20, height);
    return { type: 'image' as const, data: bytes, mediaType: 'image/png' };
  };

  it('counts images with each provider’s formula and shares calibration', () => {
    const estimator = createEstimator({ calibrationSmoothing: 1 });
    const message: Message = { role: 'user', content: [image(1024, 1024)] };
    const anthropic = estimator.countMessage(message);
    const openai = estimator.forProvider!({ imageFormula: 'openai', toolResultMedia: 'native' });
    const google = estimator.forProvider!({ imageFormula: 'google', toolResultMedia: 'native' });
    // Anthropic: ⌈1024×1024/750⌉ = 1399 (+4 framing); OpenAI: 768×768 → 4 tiles → 765; Google: 4 tiles → 1032.
    expect(anthropic).toBe(1399 + 4);
    expect(openai.countMessage(message)).toBe(765 + 4);
    expect(google.countMessage(message)).toBe(1032 + 4);
    expect(estimator.forProvider!({ imageFormula: 'anthropic', toolResultMedia: 'native' })).toBe(estimator);
    openai.calibrate({ model: 'm', estimatedTokens: 100, actualTokens: 120 });
    expect(estimator.calibrationFactor('m')).toBeCloseTo(1.2);
  });

  it('counts media in a tool result as the base64 text a text-only provider sends', () => {
    const estimator = createEstimator();
    const data = btoa('x'.repeat(30_000));
    const message: Message = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c',
          toolName: 'shot',
          content: [{ type: 'image', data, mediaType: 'image/png' }],
        },
      ],
    };
    const asText = estimator.forProvider!({ imageFormula: 'openai', toolResultMedia: 'text' });
    expect(asText.countMessage(message)).toBeGreaterThan(data.length / 4);
    expect(estimator.countMessage(message)).toBeLessThan(2_000);
  });
});

describe('createEstimator: options', () => {
  const invalid: [EstimatorOptions, string][] = [
    [{ minimumCalibrationFactor: 2, maximumCalibrationFactor: 1 }, 'maximumCalibrationFactor'],
    [{ minimumCalibrationFactor: 0 }, 'minimumCalibrationFactor'],
    [{ minimumCalibrationFactor: Number.NaN }, 'minimumCalibrationFactor'],
    [{ maximumCalibrationFactor: Number.POSITIVE_INFINITY }, 'maximumCalibrationFactor'],
    [{ calibrationSmoothing: 0 }, 'calibrationSmoothing'],
    [{ calibrationSmoothing: 1.5 }, 'calibrationSmoothing'],
    [{ messageOverheadTokens: -1 }, 'messageOverheadTokens'],
    [{ imageProvider: 'azure' as never }, 'imageProvider'],
    [{ tokenizer: 'tiktoken' as never }, 'tokenizer'],
  ];

  it.each(invalid)('rejects %o with an InvalidConfigError naming %s', (options, option) => {
    let thrown: unknown;
    try {
      createEstimator(options);
    } catch (error) {
      thrown = error;
    }
    expect(InvalidConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as InvalidConfigError).option).toBe(option);
    expect((thrown as Error).message).toContain(option);
  });

  it('accepts equal calibration bounds (calibration disabled)', () => {
    const estimator = createEstimator({ minimumCalibrationFactor: 1, maximumCalibrationFactor: 1 });
    estimator.calibrate({ estimatedTokens: 100, actualTokens: 300 });
    expect(estimator.calibrationFactor()).toBe(1);
  });
});

describe('createEstimator text cache', () => {
  it('counts a long text again by content, not by object, within its budget', () => {
    let calls = 0;
    const estimator = createEstimator({
      tokenizer: (text) => {
        calls++;
        return text.length;
      },
    });
    const long = 'x'.repeat(5_000);
    const first = estimator.countMessage({ role: 'user', content: long });
    // A new message object with a new string of the same content: counted from the cache.
    const copy = `${'x'.repeat(2_500)}${'x'.repeat(2_500)}`;
    expect(estimator.countMessage({ role: 'user', content: copy })).toBe(first);
    expect(calls).toBe(1);
    // Short texts are not cached (a lookup would cost as much as counting).
    estimator.countText('short');
    estimator.countText('short');
    expect(calls).toBe(3);
  });

  it('can be turned off and rejects bad sizes', () => {
    let calls = 0;
    const estimator = createEstimator({
      textCacheChars: 0,
      tokenizer: (text) => {
        calls++;
        return text.length;
      },
    });
    estimator.countText('y'.repeat(1_000));
    estimator.countText('y'.repeat(1_000));
    expect(calls).toBe(2);
    expect(() => createEstimator({ textCacheChars: -1 })).toThrow(/textCacheChars/);
    expect(() => createEstimator({ textCacheChars: 1.5 })).toThrow(/textCacheChars/);
  });
});

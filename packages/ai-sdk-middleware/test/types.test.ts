import { wrapLanguageModel as wrapLanguageModel6 } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { wrapLanguageModel as wrapLanguageModel7 } from 'ai7';
import { MockLanguageModelV4 } from 'ai7/test';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from '../src/index';

describe('one middleware value for both SDKs', () => {
  it('type-checks and wraps with ai 6 (V3) and ai 7 (V4) wrapLanguageModel, with array middleware too', () => {
    const middleware = compactionMiddleware();
    const six = wrapLanguageModel6({ model: new MockLanguageModelV3({ modelId: 'gpt-4o' }), middleware });
    const sixMany = wrapLanguageModel6({
      model: new MockLanguageModelV3(),
      middleware: [middleware, middleware],
    });
    const seven = wrapLanguageModel7({ model: new MockLanguageModelV4({ modelId: 'gpt-4o' }), middleware });
    expect(six.specificationVersion).toBe('v3');
    expect(sixMany.modelId).toBe('mock-model-id');
    expect(seven.specificationVersion).toBe('v4');
  });

  it('rejects bad options with InvalidConfigError naming the option', () => {
    expect(() => compactionMiddleware({ maxOverflowRetries: -1 })).toThrow(/maxOverflowRetries/);
    expect(() => compactionMiddleware({ summarizer: 42 as never })).toThrow(/summarizer/);
    expect(() => compactionMiddleware({ thresholds: { compact: 2 } })).toThrow(/thresholds\.compact/);
  });
});

import { describe, expect, it } from 'vitest';
import { readSpillwayCallOptions } from './spillway-call-options';

describe('readSpillwayCallOptions', () => {
  it('reads and strips the spillway key, keeping every other provider option', () => {
    const params = {
      prompt: [],
      providerOptions: { spillway: { conversationId: 'c', disabled: true }, openai: { user: 'u' } },
    };
    const { options, params: stripped } = readSpillwayCallOptions(params);
    expect(options).toEqual({ conversationId: 'c', disabled: true });
    expect(stripped.providerOptions).toEqual({ openai: { user: 'u' } });
    expect(params.providerOptions.spillway).toBeDefined();
  });

  it('returns the same params when there is nothing to strip, and ignores bad values', () => {
    const params = { prompt: [], providerOptions: { openai: {} } };
    expect(readSpillwayCallOptions(params).params).toBe(params);
    expect(
      readSpillwayCallOptions({ prompt: [], providerOptions: { spillway: { conversationId: 42 } } }).options,
    ).toEqual({});
  });
});

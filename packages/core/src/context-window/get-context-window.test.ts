import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { getContextWindow } from './get-context-window';

describe('getContextWindow', () => {
  it("knows the seeds' models", () => {
    expect(getContextWindow('claude-sonnet-4-20250514')).toBe(200_000);
    expect(getContextWindow('claude-haiku-3-5-20241022')).toBe(200_000);
    expect(getContextWindow('claude-opus-4-20250514')).toBe(200_000);
    expect(getContextWindow('gpt-4o')).toBe(128_000);
    expect(getContextWindow('gpt-4o-mini')).toBe(128_000);
    expect(getContextWindow('gpt-4-turbo')).toBe(128_000);
    expect(getContextWindow('gemini-2.0-flash')).toBe(1_048_576);
    expect(getContextWindow('gemini-2.5-pro-preview-05-06')).toBe(1_048_576);
    expect(getContextWindow('o3-mini')).toBe(200_000);
    expect(getContextWindow('claude-sonnet-4-5-20250929')).toBe(200_000);
  });

  it('takes the longest prefix and ignores provider prefixes and case', () => {
    expect(getContextWindow('gpt-4o-mini-2024-07-18')).toBe(128_000);
    expect(getContextWindow('gpt-4')).toBe(8_192);
    expect(getContextWindow('gpt-4.1-mini')).toBe(1_047_576);
    expect(getContextWindow('openai/gpt-5.1')).toBe(400_000);
    expect(getContextWindow('models/Gemini-2.5-Flash')).toBe(1_048_576);
  });

  it('does not match a prefix in the middle of a word', () => {
    expect(getContextWindow('gpt-4oxyz')).toBeUndefined();
    expect(getContextWindow('o1x')).toBeUndefined();
  });

  it('returns undefined for unknown or missing ids', () => {
    expect(getContextWindow('my-private-model')).toBeUndefined();
    expect(getContextWindow(undefined)).toBeUndefined();
    expect(getContextWindow('')).toBeUndefined();
  });

  it('lets overrides win, exact ids and prefixes alike', () => {
    expect(getContextWindow('gpt-4o', { overrides: { 'gpt-4o': 64_000 } })).toBe(64_000);
    expect(getContextWindow('acme-large-2', { overrides: { 'acme-large': 32_000 } })).toBe(32_000);
    expect(
      getContextWindow('claude-sonnet-4-20250514', { overrides: { 'claude-sonnet-4-20250514': 1_000_000 } }),
    ).toBe(1_000_000);
  });

  it('refuses an override that is not a number of tokens above 0, and takes no id or null overrides', () => {
    expect(() => getContextWindow('gpt-4o', { overrides: { 'gpt-4o': -1 } })).toThrow(/overrides\.gpt-4o/);
    expect(() => getContextWindow('gpt-4o-mini', { overrides: { 'gpt-4o': Number.NaN } })).toThrow(
      InvalidConfigError,
    );
    expect(getContextWindow('gpt-4o', { overrides: { 'other-model': -1 } })).toBe(128_000);
    expect(getContextWindow('gpt-4o', { overrides: null as never })).toBe(128_000);
    expect(getContextWindow(123 as never)).toBeUndefined();
  });

  it('a declared window comes after the overrides and before the table', () => {
    expect(getContextWindow('gpt-4o', { declared: 8_000 })).toBe(8_000);
    expect(getContextWindow('gpt-4o', { overrides: { 'gpt-4o': 64_000 }, declared: 8_000 })).toBe(64_000);
    expect(getContextWindow('acme-large-2', { overrides: { 'acme-large': 32_000 }, declared: 8_000 })).toBe(
      32_000,
    );
    expect(getContextWindow('gpt-4o', { overrides: { 'acme-large': 32_000 }, declared: 8_000 })).toBe(8_000);
    expect(getContextWindow(undefined, { declared: 8_000 })).toBe(8_000);
    expect(() => getContextWindow('gpt-4o', { declared: 0 })).toThrow(/declared/);
  });
});

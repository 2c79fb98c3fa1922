import { InvalidConfigError } from '@spillway/core';
import { expect, test } from 'vitest';
import { tokenLimitRatio } from './token-limit';

test('a fraction is a share of the window as it is; tokens become one when the window is known', () => {
  expect(tokenLimitRatio('trigger', { fraction: 0.7 }, undefined)).toBe(0.7);
  expect(tokenLimitRatio('trigger', { tokens: 3000 }, 10_000)).toBe(0.3);
  expect(tokenLimitRatio('trigger', { tokens: 30_000 }, 10_000)).toBe(1);
  expect(tokenLimitRatio('trigger', { tokens: 3000 }, undefined)).toBeUndefined();
  expect(tokenLimitRatio('trigger', undefined, 10_000)).toBeUndefined();
});

test('malformed limits name the option', () => {
  expect(() => tokenLimitRatio('keep', {}, 1000)).toThrow(InvalidConfigError);
  expect(() => tokenLimitRatio('keep', { fraction: 0 }, 1000)).toThrow(/keep\.fraction/);
  expect(() => tokenLimitRatio('keep', { tokens: -5 }, 1000)).toThrow(/keep\.tokens/);
  expect(() => tokenLimitRatio('trigger', { messages: 20 } as never, 1000)).toThrow(/message counts/);
  expect(() => tokenLimitRatio('trigger', 5 as never, 1000)).toThrow(/trigger/);
});

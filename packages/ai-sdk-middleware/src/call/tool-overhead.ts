import type { Estimator } from '@spillway/core';
import type { CallParamsLike } from './call-params-like';

/**
 * Counts what a call sends besides the prompt (tool definitions, the response format), memoised per
 * object: the SDK passes the same `tools` array on every step of a loop.
 */
export function createToolOverhead(estimator: Estimator): (params: CallParamsLike) => number {
  const counted = new WeakMap<object, number>();
  return (params) => {
    let tokens = 0;
    for (const value of [params.tools, params.responseFormat]) {
      if (typeof value !== 'object' || value === null) continue;
      let count = counted.get(value);
      if (count === undefined) {
        count = estimator.countText(safeJson(value));
        counted.set(value, count);
      }
      tokens += count;
    }
    return tokens;
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

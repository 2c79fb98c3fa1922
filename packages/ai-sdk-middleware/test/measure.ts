import { type SdkPrompt, toNeutralMessage } from '@spillway/ai-sdk-prompt';
import { createEstimator } from '@spillway/core';

const estimator = createEstimator();

/** Estimated tokens of a prompt as a model received it (same estimator the middleware uses, uncalibrated). */
export function promptTokens(prompt: readonly unknown[]): number {
  return estimator.countMessages((prompt as SdkPrompt).map((message) => toNeutralMessage(message)));
}

/** A stable text form of a prompt message, bytes included, for prefix comparisons. */
export function messageKey(message: unknown): string {
  return JSON.stringify(message, (_key, value) =>
    value instanceof Uint8Array
      ? `bytes:${value.length}:${value[100]}:${value[value.length - 1]}`
      : value instanceof URL
        ? value.href
        : value,
  );
}

/** How many leading messages two prompts share. */
export function sharedPrefix(previous: readonly unknown[], next: readonly unknown[]): number {
  let index = 0;
  while (
    index < previous.length &&
    index < next.length &&
    messageKey(previous[index]) === messageKey(next[index])
  )
    index++;
  return index;
}

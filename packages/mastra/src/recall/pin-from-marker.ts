import { templateOf } from '@spillway/ai-sdk-prompt';
import type { PinPredicate } from '@spillway/core';

/**
 * The engine's `pin` for Mastra messages: a message's own marker
 * (`providerOptions: { spillway: { pin: true | false } }`) decides first, then the application's
 * `pin` option, then rule detection.
 */
export function pinFromMarker(pin: PinPredicate | undefined): PinPredicate {
  return (message, messageNumber) => pinMarker(message) ?? pin?.(message, messageNumber);
}

/** `providerOptions.spillway.pin` of the prompt message a neutral message came from (Mastra carries a message's `providerOptions` into the prompt), when a boolean. */
export function pinMarker(message: object): boolean | undefined {
  const providerOptions = templateOf(message)?.providerOptions;
  if (typeof providerOptions !== 'object' || providerOptions === null) return undefined;
  const spillway = (providerOptions as { spillway?: unknown }).spillway;
  if (typeof spillway !== 'object' || spillway === null) return undefined;
  const value = (spillway as { pin?: unknown }).pin;
  return typeof value === 'boolean' ? value : undefined;
}

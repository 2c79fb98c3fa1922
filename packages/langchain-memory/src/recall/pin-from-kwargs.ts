import type { BaseMessage } from '@langchain/core/messages';
import type { PinPredicate } from '@spillway/core';
import { SOURCE_MESSAGE, type SourcedMessage } from '../convert/to-neutral-messages';

/**
 * The engine's `pin` for LangChain messages: a message's own marker
 * (`additional_kwargs: { spillway_pin: true | false }`) decides first, then the application's `pin`
 * option, then rule detection.
 */
export function pinFromKwargs(pin: PinPredicate | undefined): PinPredicate {
  return (message, messageNumber) => pinMarker(message) ?? pin?.(message, messageNumber);
}

function pinMarker(message: SourcedMessage): boolean | undefined {
  const source: BaseMessage | undefined = message[SOURCE_MESSAGE];
  const value = source?.additional_kwargs?.spillway_pin;
  return typeof value === 'boolean' ? value : undefined;
}

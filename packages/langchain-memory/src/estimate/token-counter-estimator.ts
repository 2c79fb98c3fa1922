import type { BaseMessage } from '@langchain/core/messages';
import { type Estimator, InvalidConfigError, type Message } from '@spillway/core';
import { fromNeutralMessages } from '../convert/from-neutral-messages';

/**
 * Counts the tokens of LangChain messages, synchronously (LangChain's `tokenCounter` shape, minus
 * the `Promise`: the engine's counts are synchronous).
 */
export type TokenCounter = (messages: BaseMessage[]) => number;

/**
 * An `Estimator` whose message counts come from `tokenCounter`: each message is counted once, as a
 * LangChain message (`tokenCounter([message])`, memoised by message), and a list counts as the sum
 * of its messages, so every threshold decision (compact, background, emergency, the kept window)
 * uses the caller's counter. Text counts (summarizer input, tool definitions) and calibration are
 * `base`'s.
 *
 * @throws {InvalidConfigError} (option `tokenCounter`) when it is not a function, and at the first
 * count when it returns a `Promise` or anything but a finite number of 0 or more.
 */
export function tokenCounterEstimator(tokenCounter: TokenCounter, base: Estimator): Estimator {
  if (typeof tokenCounter !== 'function') {
    throw new InvalidConfigError({
      option: 'tokenCounter',
      value: tokenCounter,
      message: 'must be a function (messages) => number',
    });
  }
  const memo = new WeakMap<Message, number>();
  const countMessage = (message: Message): number => {
    const cached = memo.get(message);
    if (cached !== undefined) return cached;
    const value: unknown = tokenCounter(fromNeutralMessages([message]));
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      const isPromise = typeof (value as PromiseLike<unknown> | null)?.then === 'function';
      if (isPromise) Promise.resolve(value).catch(() => {});
      throw new InvalidConfigError({
        option: 'tokenCounter',
        value,
        message: isPromise
          ? 'must return a number synchronously; an async counter is not supported'
          : 'must return a finite number of tokens, 0 or more',
      });
    }
    memo.set(message, value);
    return value;
  };
  return {
    countText: (text) => base.countText(text),
    countPart: (part) => base.countPart(part),
    countMessage,
    countMessages: (messages) => messages.reduce((total, message) => total + countMessage(message), 0),
    calibrated: (tokenCount, model) => base.calibrated(tokenCount, model),
    calibrate: (input) => base.calibrate(input),
    calibrationFactor: (model) => base.calibrationFactor(model),
  };
}

import type { Message } from '../message/message';
import { defaultEstimator } from './default-estimator';

/**
 * Estimates the tokens of a string, a message or a list of messages with the one shared default
 * estimator (`defaultEstimator()`, i.e. `createEstimator()`: the built-in text heuristic fitted to
 * o200k_base, Anthropic's image formula, 4 tokens of framing per message). The count is raw
 * (uncalibrated); message counts are memoised per message object. For a pluggable tokenizer,
 * another image formula or calibration, make your own with `createEstimator`.
 */
export function estimateTokens(input: string | Message | readonly Message[]): number {
  const estimator = defaultEstimator();
  if (typeof input === 'string') return estimator.countText(input);
  if (Array.isArray(input)) return estimator.countMessages(input as readonly Message[]);
  return estimator.countMessage(input as Message);
}

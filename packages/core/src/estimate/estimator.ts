import type { Message, MessagePart } from '../message/message';
import type { ImageProvider } from './image-tokens';

/**
 * Counts tokens for text, parts and messages. Made by `createEstimator`; every count a compactor
 * compares against a threshold goes through one of these.
 */
export interface Estimator {
  /** Tokens of a plain string (uncalibrated). */
  countText(text: string): number;
  /** Tokens of one message part (uncalibrated). */
  countPart(part: MessagePart): number;
  /**
   * Tokens of one message, including a small per-message overhead (uncalibrated). Memoised by
   * object identity: counting the same message object again is a lookup.
   */
  countMessage(message: Message): number;
  /** Sum of `countMessage` over a list (uncalibrated). */
  countMessages(messages: readonly Message[]): number;
  /**
   * A raw count scaled by the calibration learned for `model` (the count itself when nothing has
   * been learned for it).
   */
  calibrated(tokenCount: number, model?: string): number;
  /**
   * Teaches the estimator from a provider's reported usage: `actualTokens` is the provider's
   * `inputTokens` for a prompt whose raw estimate was `estimatedTokens`.
   */
  calibrate(input: { model?: string; estimatedTokens: number; actualTokens: number }): void;
  /** The current calibration factor for `model` (1 when nothing has been learned). */
  calibrationFactor(model?: string): number;
  /**
   * A view of this estimator that counts for one provider: images with its formula, and media
   * inside tool results as the text the provider sends them as (when `toolResultMedia` is `text`).
   * The view shares the text cache and the calibration; it memoises messages on its own. Optional:
   * an estimator without it counts the same for every provider.
   */
  forProvider?(profile: { imageFormula: ImageProvider; toolResultMedia: 'native' | 'text' }): Estimator;
}

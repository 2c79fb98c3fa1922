/** The call parameters the middleware reads: the V3 and V4 call options both fit. */
export interface CallParamsLike {
  readonly prompt: readonly unknown[];
  readonly providerOptions?: unknown;
  readonly tools?: unknown;
  readonly responseFormat?: unknown;
  readonly abortSignal?: AbortSignal;
  /** The most tokens the answer may have (`maxOutputTokens` of the call). */
  readonly maxOutputTokens?: number;
}

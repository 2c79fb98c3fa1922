/**
 * The AI SDK prompt as this package reads it: the union of the V3 (ai 6) and V4 (ai 7) shapes,
 * typed loosely on purpose. Anything not named here is carried through untouched.
 */

/** One message of a `LanguageModelV3Prompt` or `LanguageModelV4Prompt`. */
export interface SdkMessage {
  readonly role: string;
  readonly content: string | readonly SdkPart[];
  readonly providerOptions?: unknown;
}

/** One part of a message (text, file, reasoning, tool-call, tool-result, custom, …). */
export interface SdkPart {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** A tool result's `output` (text, json, error-text, error-json, execution-denied, content). */
export interface SdkToolResultOutput {
  readonly type: string;
  readonly value?: unknown;
  readonly reason?: string;
  readonly [key: string]: unknown;
}

/** A list of messages: what `params.prompt` holds. */
export type SdkPrompt = readonly SdkMessage[];

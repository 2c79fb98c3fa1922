/**
 * The AI SDK language-model prompt, V2/V3/V4 shapes: the shape of the model it goes to (V2 for AI
 * SDK 5 models, V3 for ai 6, V4 for ai 7), typed loosely on purpose. Anything not named here is
 * carried through untouched.
 */

/** One message of a `LanguageModelV2Prompt`, `…V3Prompt` or `…V4Prompt`. */
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

/**
 * A list of messages: a whole prompt (`params.prompt` in an AI SDK middleware, `prompt` in a Mastra
 * processor's `processLLMRequest`).
 */
export type SdkPrompt = readonly SdkMessage[];

/** The prompt shape new parts are built in, after the model's `specificationVersion`. */
export type PromptVersion = 'v2' | 'v3' | 'v4';

/** The prompt shape of a model: `v4` and `v3` by its specification version, else `v2`. */
export function promptVersionOf(model: unknown): PromptVersion {
  const version = (model as { specificationVersion?: unknown } | undefined)?.specificationVersion;
  return version === 'v4' || version === 'v3' ? version : 'v2';
}

/**
 * What this package needs of an AI SDK language model (V2 in AI SDK 5, V3 in ai 6, V4 in ai 7; Mastra wraps each in a model with the same calls): an id, and the
 * two calls. Typed by the caller's own call options and results.
 */
export interface LanguageModelLike<CallOptions = unknown, GenerateResult = unknown, StreamResult = unknown> {
  readonly specificationVersion?: string;
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: CallOptions): PromiseLike<GenerateResult>;
  doStream(options: CallOptions): PromiseLike<StreamResult>;
}

/** Whether `value` looks like an AI SDK language model object. */
export function isLanguageModel(value: unknown): value is LanguageModelLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { doGenerate?: unknown }).doGenerate === 'function' &&
    typeof (value as { modelId?: unknown }).modelId === 'string'
  );
}

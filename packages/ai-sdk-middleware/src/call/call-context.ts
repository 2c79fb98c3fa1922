import type { PromptVersion, SdkMessage, SdkPrompt } from '@spillway/ai-sdk-prompt';
import type { Message, PrepareOptions, PrepareResult } from '@spillway/core';

/**
 * What one call keeps between `transformParams` and `wrapGenerate` / `wrapStream`: the
 * conversation as converted, the request as first prepared, and what a retry needs to rebuild it.
 */
export interface CallContext {
  messages: Message[];
  /** `messages` before the storage-time cap. */
  uncapped: readonly Message[];
  conversationId: string;
  modelId: string;
  /** What every `prepare` of this call is given (retries add the attempt and the error). */
  prepareOptions: Omit<PrepareOptions, 'overflowAttempt' | 'overflowError'>;
  /** The request as first prepared. */
  prepared: PrepareResult;
  contextWindow: number | undefined;
  overheadTokens: number;
  version: PromptVersion;
  /** The caller's SDK message for each unchanged neutral message (computed when first needed). */
  current: () => ReadonlyMap<Message, SdkMessage>;
  original: SdkPrompt;
}

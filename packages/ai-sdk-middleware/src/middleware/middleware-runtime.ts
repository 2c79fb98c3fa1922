import type { PromptConverter } from '@spillway/ai-sdk-prompt';
import type { CompactionEvent, Compactor } from '@spillway/core';
import type { CallParamsLike } from '../call/call-params-like';
import type { ProviderContextSettings } from '../call/provider-context';
import type { CompactionMiddlewareOptions } from '../compaction-middleware-options';
import type { ConversationModels } from '../summarize/conversation-models';

/** What the middleware's steps share: made once by `compactionMiddleware`, used by every call. */
export interface MiddlewareRuntime {
  /** The engine (store, calibration, single-flight). */
  readonly compactor: Compactor;
  /** SDK prompt → neutral messages, with the storage-time cap. */
  readonly converter: PromptConverter;
  /** Sends an event to `onEvent` and every subscriber. */
  readonly emit: (event: CompactionEvent) => void;
  /** Which model each conversation goes to (the default summarizer writes with it). */
  readonly models: ConversationModels;
  /** Estimated tokens of a call's tool definitions and response format. */
  readonly overheadOf: (params: CallParamsLike) => number;
  readonly resolveConversationId: CompactionMiddlewareOptions['conversationId'];
  readonly onContextUsage: CompactionMiddlewareOptions['onContextUsage'];
  readonly waitUntil: CompactionMiddlewareOptions['waitUntil'];
  readonly maxOverflowRetries: number;
  /** `strategy: 'provider'`: how calls hand their context management to the provider. */
  readonly providerContext: ProviderContextSettings | undefined;
  /** The context window of the latest call that had one (read-back pages are sized to it). */
  latestWindow: number | undefined;
}

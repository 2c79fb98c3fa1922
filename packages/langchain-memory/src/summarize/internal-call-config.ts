import { isBaseCallbackHandler } from '@langchain/core/callbacks/base';
import { CallbackManager } from '@langchain/core/callbacks/manager';
import type { RunnableConfig } from '@langchain/core/runnables';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';

/**
 * The tag LangChain's own middleware (`summarizationMiddleware`, `llmToolSelectorMiddleware`) puts
 * on its internal model calls; LangGraph's `streamMode: "messages"` skips runs that carry it (or
 * `langsmith:nostream`).
 */
export const NOSTREAM_TAG = 'nostream';

/** The LangSmith tracer's handler name: the one handler an internal call still reports to. */
const TRACER_NAME = 'langchain_tracer';

/** Options of {@link internalCallConfig}. */
export interface InternalCallConfigOptions {
  /** Tags of the call, besides {@link NOSTREAM_TAG}. */
  tags: readonly string[];
  /** Metadata of the call (`lc_source` names who made it). */
  metadata: Record<string, unknown>;
  /** Cancels the call (passed to the model as `signal`). @default the surrounding run's signal */
  signal?: AbortSignal;
}

/**
 * The config for a model call Spillway makes for itself (a summary, its retry): hidden from the
 * conversation's streams and callbacks. LangChain's middleware only tags its internal calls
 * `nostream`, which `streamMode: "messages"` honours but `streamEvents` and the application's own
 * callbacks do not; here the call also runs without the surrounding run's callback handlers, so
 * neither `streamEvents`, `streamMode: "messages"` nor a token counter on the conversation sees
 * its tokens. The LangSmith tracer, if the run has one, is kept (the call stays in the trace,
 * nested where it happened). Callbacks given to the summary model itself (its constructor's
 * `callbacks`, or `withConfig`) still fire.
 */
export function internalCallConfig({ tags, metadata, signal }: InternalCallConfigOptions): RunnableConfig {
  const parent = AsyncLocalStorageProviderSingleton.getRunnableConfig() as RunnableConfig | undefined;
  return {
    // An explicit (possibly empty) list replaces the handlers the call would inherit from the run.
    callbacks: tracerOnly(parent?.callbacks),
    tags: [...tags, NOSTREAM_TAG],
    metadata,
    ...(signal === undefined ? {} : { signal }),
  };
}

function isTracer(handler: unknown): boolean {
  return isBaseCallbackHandler(handler) && (handler as { name?: unknown }).name === TRACER_NAME;
}

function tracerOnly(callbacks: RunnableConfig['callbacks']): NonNullable<RunnableConfig['callbacks']> {
  if (callbacks === undefined || callbacks === null) return [];
  if (Array.isArray(callbacks)) return callbacks.filter(isTracer) as NonNullable<RunnableConfig['callbacks']>;
  const manager = callbacks as CallbackManager;
  const tracers = manager.inheritableHandlers.filter(isTracer);
  if (tracers.length === 0) return [];
  return new CallbackManager(manager.getParentRunId(), { handlers: tracers, inheritableHandlers: tracers });
}

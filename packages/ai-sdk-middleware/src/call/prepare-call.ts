import type { LanguageModelLike, PromptVersion, SdkPrompt } from '@spillway/ai-sdk-prompt';
import { modelContextWindow } from '@spillway/ai-sdk-prompt';
import { ContextOverflowError, deriveConversationId } from '@spillway/core';
import type { MiddlewareRuntime } from '../middleware/middleware-runtime';
import { buildPrompt } from '../prompt/build-prompt';
import { hasRecallTool } from '../recall/has-recall-tool';
import type { CallContext } from './call-context';
import type { CallParamsLike } from './call-params-like';
import { withProviderContext } from './provider-context';

import { reportContextUsage } from './report-context-usage';
import type { SpillwayCallOptions } from './spillway-call-options';

/** What {@link prepareCall} gives back: the parameters to send, and the call's context when compacted. */
export interface PreparedCall<Params> {
  params: Params;
  context: CallContext | undefined;
}

/**
 * `transformParams`' work: converts the SDK prompt to neutral messages (capping tool results),
 * names the conversation, lets the engine prepare the request (summary, reductions, compaction when
 * needed), and builds the SDK prompt back (the caller's own prompt when nothing changed). A failure
 * of compaction sends the conversation as it is, with a `compaction-failed` event; only
 * `ContextOverflowError` (even the smallest request cannot fit) and an abort are thrown.
 */
export async function prepareCall<Params extends CallParamsLike>(
  runtime: MiddlewareRuntime,
  {
    params,
    model,
    callOptions,
  }: { params: Params; model: LanguageModelLike<Params>; callOptions: SpillwayCallOptions },
): Promise<PreparedCall<Params>> {
  const { compactor, converter, emit } = runtime;
  const original = params.prompt as SdkPrompt;
  const version: PromptVersion = model.specificationVersion === 'v4' ? 'v4' : 'v3';
  try {
    const converted = converter.convert(original);
    const overheadTokens = runtime.overheadOf(params);
    const conversationId =
      callOptions.conversationId ??
      runtime.resolveConversationId?.({ params, model }) ??
      deriveConversationId(converted.messages);
    runtime.models.remember(conversationId, model as LanguageModelLike);
    const { contextWindow } = callOptions;
    // What the model object declares of itself comes after the application's own windows.
    const declaredWindow = modelContextWindow(model);
    // `strategy: 'provider'`: the provider's context management, set from the engine's thresholds.
    const window = contextWindow ?? compactor.contextWindowFor(model.modelId, declaredWindow);
    const providerOptions =
      runtime.providerContext === undefined || window === undefined
        ? undefined
        : withProviderContext(params.providerOptions, {
            model,
            contextWindow: window,
            messages: converted.messages,
            estimator: compactor.estimator,
            settings: runtime.providerContext,
          });
    const callParams = providerOptions === undefined ? params : { ...params, providerOptions };
    const prepareOptions: CallContext['prepareOptions'] = {
      conversationId,
      model: model.modelId,
      provider: model.provider,
      overheadTokens,
      ...(contextWindow === undefined ? {} : { contextWindow }),
      ...(declaredWindow === undefined ? {} : { modelContextWindow: declaredWindow }),
      // The answer needs room too: a request is refused before it is sent only when it cannot fit
      // the window less the output the call asked for.
      ...(typeof params.maxOutputTokens === 'number' ? { outputTokens: params.maxOutputTokens } : {}),
      // References name the originals (before the storage-time cap); the read-back line goes in
      // only when the model has the read-back tool.
      originals: converted.uncapped,
      recallTool: hasRecallTool(params.tools),
      ...(providerOptions === undefined ? {} : { delegated: true }),
    };
    const prepared = await compactor.prepare(converted.messages, {
      ...prepareOptions,
      ...(params.abortSignal === undefined ? {} : { abortSignal: params.abortSignal }),
    });
    // The window the engine used (the option, the model's, or one learned from an overflow error).
    if (prepared.contextWindow !== undefined) runtime.latestWindow = prepared.contextWindow;
    if (converted.records.length > 0) {
      emit({ type: 'truncation', conversationId: prepared.conversationId, records: converted.records });
    }
    // Nothing changed (the common case under the thresholds): the caller's prompt goes down as is.
    const unchanged =
      prepared.messages.length === converted.messages.length &&
      prepared.messages.every(
        (message, index) => message === converted.messages[index] && converted.unchanged[index],
      );
    const context: CallContext = {
      messages: converted.messages,
      uncapped: converted.uncapped,
      conversationId: prepared.conversationId,
      modelId: model.modelId,
      prepareOptions,
      prepared,
      contextWindow: prepared.contextWindow,
      overheadTokens,
      version,
      current: once(converted.current),
      original,
    };
    reportContextUsage(runtime, context, prepared, 0);
    const prompt = unchanged ? original : buildPrompt(prepared.messages, context);
    return { params: { ...callParams, prompt }, context };
  } catch (error) {
    if (params.abortSignal?.aborted) throw error;
    // Even the smallest request cannot fit: no provider call is made.
    if (ContextOverflowError.isInstance(error)) throw error;
    // Otherwise compaction must never be the reason a call fails: send the conversation as it is.
    emit({
      type: 'compaction-failed',
      conversationId: 'unknown',
      reason: 'threshold',
      error,
      fallback: 'none',
    });
    return { params, context: undefined };
  }
}

function once<T>(compute: () => T): () => T {
  let value: { result: T } | undefined;
  return () => {
    value ??= { result: compute() };
    return value.result;
  };
}

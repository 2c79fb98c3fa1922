import {
  COMPACT_THRESHOLD_RATIO,
  type CompactionEvent,
  createCompactor,
  createEstimator,
  DEFAULT_RECALL_SECRET,
  extractiveSummarizer,
  type RecallArchive,
  type RecallEviction,
  type Summarizer,
  TOOL_RESULT_MAX_CHARS,
} from '@spillway/core';
import { type TokenCounter, tokenCounterEstimator } from '../estimate/token-counter-estimator';
import { dispatchCompactionEvent } from '../events/dispatch-compaction-event';
import {
  type ChatModelLike,
  chatModelId,
  chatModelProvider,
  chatModelWindow,
} from '../model/chat-model-window';
import {
  checkContextWindow,
  checkContextWindows,
  checkFunction,
  checkMethods,
  checkName,
  checkTokenCount,
} from '../options/option-checks';
import { pinFromKwargs } from '../recall/pin-from-kwargs';
import { createModelSummarizer } from '../summarize/model-summarizer';
import type { CompactingChatMessageHistoryOptions } from './compacting-chat-message-history-options';
import {
  defaultCompactionStore,
  defaultRecallArchive,
  onSharedArchiveEviction,
} from './default-history-stores';
import type { HistoryRuntime } from './history-runtime';

/** Share of the window reserved for the template's own text when `templateTokens` is not given. */
const TEMPLATE_SHARE = 0.05;
/** ...at most this many tokens. */
const TEMPLATE_TOKENS_CAP = 2000;

/**
 * Checks a history's options and resolves them: the window (given, or from `modelName` or the
 * model), the template's reserve, the summarizer (given, else one calling `model`, else
 * `extractiveSummarizer`), the read-back archive and the engine.
 *
 * @throws {InvalidConfigError} for a bad option, naming it and the accepted range.
 */
export function createHistoryRuntime(options: CompactingChatMessageHistoryOptions): HistoryRuntime {
  const {
    history,
    conversationId,
    model,
    modelName,
    summarizer,
    tokenCounter,
    templateTokens,
    inputTokens,
    summaryPlacement = 'user',
    contextWindow,
    contextWindows,
    onEvent,
    recallArchive,
    waitUntil,
    ...engineOptions
  } = options;
  // Required: `undefined` is refused too.
  checkMethods('history', history ?? null, ['getMessages', 'addMessages'], 'a BaseChatMessageHistory');
  checkName('conversationId', conversationId);
  checkName('modelName', modelName);
  checkContextWindow('contextWindow', contextWindow);
  checkContextWindows('contextWindows', contextWindows);
  checkTokenCount('templateTokens', templateTokens);
  checkTokenCount('inputTokens', inputTokens);
  checkFunction('onEvent', onEvent, '(event) => void');
  checkFunction('waitUntil', waitUntil, '(promise) => void');
  checkMethods('store', engineOptions.store, ['get', 'set', 'delete'], 'a CompactionStore');
  checkMethods(
    'estimator',
    engineOptions.estimator,
    ['countMessages', 'countText', 'calibrated', 'calibrate'],
    'an Estimator (createEstimator())',
  );
  const summaryModel = model === undefined ? undefined : createModelSummarizer(model);
  const resolvedModelName = modelName ?? chatModelId(model as ChatModelLike | string | undefined);
  const window =
    contextWindow ??
    (modelName === undefined ? undefined : chatModelWindow(modelName, contextWindows)) ??
    (model === undefined ? undefined : chatModelWindow(model as ChatModelLike | string, contextWindows));
  const handleEvent = (event: CompactionEvent) => {
    try {
      onEvent?.(event);
    } catch {
      // A throwing handler is ignored; LangChain callbacks still get the event.
    } finally {
      dispatchCompactionEvent(event);
    }
  };
  const recallSecret =
    engineOptions.recall === false ? undefined : (engineOptions.recall?.secret ?? DEFAULT_RECALL_SECRET);
  /** The conversations this history archived originals for (its share of the shared archive's events). */
  const archivedFor = new Set<string>();
  const evicted = ({ conversationId: id, ref, chars, reason }: RecallEviction) => {
    if (archivedFor.has(id)) handleEvent({ type: 'recall-evicted', conversationId: id, ref, chars, reason });
  };
  let archive: RecallArchive | undefined;
  if (recallArchive !== false && recallSecret !== undefined) {
    archive = recallArchive ?? defaultRecallArchive();
    if (recallArchive === undefined) onSharedArchiveEviction(evicted);
  }
  const effective: Summarizer = summarizer ?? summaryModel ?? extractiveSummarizer;
  const compactor = createCompactor({
    ...engineOptions,
    pin: pinFromKwargs(engineOptions.pin),
    store: engineOptions.store ?? defaultCompactionStore(),
    ...(engineOptions.provider === undefined && model !== undefined
      ? providerOf(model as ChatModelLike | string)
      : {}),
    summaryPlacement,
    ...(window === undefined ? {} : { contextWindow: window }),
    ...(contextWindows === undefined ? {} : { contextWindows }),
    ...(tokenCounter === undefined
      ? {}
      : {
          estimator: tokenCounterEstimator(
            tokenCounter as TokenCounter,
            engineOptions.estimator ?? createEstimator(),
          ),
        }),
    onEvent: handleEvent,
    ...(resolvedModelName === undefined ? {} : { model: resolvedModelName }),
    summarizer: effective,
  });
  return {
    history,
    compactor,
    contextWindow: window,
    templateTokens:
      templateTokens ??
      (window === undefined ? 0 : Math.min(Math.ceil(window * TEMPLATE_SHARE), TEMPLATE_TOKENS_CAP)),
    conversationId,
    inputTokens,
    waitUntil,
    modelName: resolvedModelName,
    compactRatio: engineOptions.thresholds?.compact ?? COMPACT_THRESHOLD_RATIO,
    toolResultMaxChars: engineOptions.toolResultMaxChars ?? TOOL_RESULT_MAX_CHARS,
    toolResultLimits: engineOptions.toolResultLimits ?? {},
    handleEvent,
    recallSecret,
    archive,
    archivedFor,
    evicted,
  };
}

function providerOf(model: ChatModelLike | string): { provider?: string } {
  const provider = chatModelProvider(model);
  return provider === undefined ? {} : { provider };
}

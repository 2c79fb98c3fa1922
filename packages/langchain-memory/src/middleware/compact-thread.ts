import type { BaseMessage } from '@langchain/core/messages';
import { type Compactor, type Message, stateMatches } from '@spillway/core';
import type { CompactNowResult } from '../compact/compact-now-result';
import { toNeutralMessages } from '../convert/to-neutral-messages';
import { toPromptMessages } from '../convert/to-prompt-messages';
import { threadConversationId } from './thread-conversation-id';

/** Options of the middleware's `compact()`. */
export interface CompactThreadOptions {
  /** The thread's messages, e.g. `(await agent.graph.getState(config)).values.messages`. */
  messages: readonly BaseMessage[];
  /**
   * The thread (`configurable.thread_id`): the summary is stored under it, and the next model call
   * on the thread applies it and writes it to the agent state (so the checkpointer keeps it).
   * @default none: the conversation's derived key
   */
  threadId?: string | number;
  /**
   * The context window the kept part is measured against.
   * @default the middleware's `contextWindow`, else the window of its last model call
   */
  contextWindow?: number;
  /** Cancels the summary. */
  signal?: AbortSignal;
  /**
   * What the summary must keep in particular (e.g. "the failing test names"), added to the
   * summarizer's instructions for this compaction only (`CompactOptions.instructions` of
   * `@spillway/core`; at most 2,000 characters).
   * @default none: the summary prompt alone
   */
  instructions?: string;
  /**
   * Share of the context window kept verbatim as recent messages for this compaction, in place of
   * the middleware's `keep`: `0` summarizes everything before the current request but its latest
   * turn.
   * @default the middleware's `keep` (0.25 of the window)
   */
  protectedRatio?: number;
}

/**
 * "Compact now" for an agent thread: summarizes what is older than the kept window into the
 * summary in force, whatever the usage, and stores it where the next model call on the thread
 * finds it. The thread's messages are not changed.
 */
export async function compactThread({
  messages,
  threadId,
  contextWindow,
  signal,
  instructions,
  protectedRatio,
  compactor,
  modelId,
  provider,
}: CompactThreadOptions & {
  compactor: Compactor;
  modelId: string | undefined;
  provider: string | undefined;
}): Promise<CompactNowResult> {
  const conversation = toNeutralMessages(messages);
  const conversationId = threadConversationId(threadId, conversation);
  const previous = await compactor.store.get(conversationId).catch(() => undefined);
  const coveredBefore = stateMatches(conversation, previous) ? previous!.coveredCount : 0;
  const common = {
    conversationId,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(modelId === undefined ? {} : { model: modelId }),
    ...(provider === undefined ? {} : { provider }),
  };
  const state =
    conversation.length === 0
      ? undefined
      : await compactor.compact(conversation, {
          ...common,
          ...(signal === undefined ? {} : { abortSignal: signal }),
          ...(instructions === undefined ? {} : { instructions }),
          ...(protectedRatio === undefined ? {} : { protectedRatio }),
        });
  const coveredCount = stateMatches(conversation, state) ? state!.coveredCount : 0;
  const prepared = conversation.length === 0 ? undefined : await compactor.prepare(conversation, common);
  const view = prepared === undefined ? [] : toPromptMessages(prepared.messages);
  const count = (list: readonly Message[]) =>
    compactor.estimator.calibrated(compactor.estimator.countMessages(list), modelId);
  return {
    compacted: coveredCount > coveredBefore,
    coveredCount,
    newlyCoveredCount: Math.max(0, coveredCount - coveredBefore),
    tokensBefore: count(conversation),
    tokensAfter: count(toNeutralMessages(view)),
    state: coveredCount > 0 ? state : undefined,
    messages: view,
  };
}

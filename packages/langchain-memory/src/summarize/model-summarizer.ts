import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import { type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { InvalidConfigError, type Summarizer } from '@spillway/core';
import { initChatModel } from 'langchain';
import { internalCallConfig } from './internal-call-config';

/** Anything with LangChain's `invoke` that answers with a message: a chat model, a binding, a chain. */
export interface InvokableChatModel {
  invoke(
    input: BaseLanguageModelInput,
    options?: Partial<RunnableConfig>,
  ): Promise<BaseMessage | { text?: unknown; content?: unknown }>;
}

/**
 * The tag on every summary call (with LangChain's `nostream`), and its `metadata.lc_source`: a
 * callback given to the summary model itself can tell summary calls apart by it.
 */
export const SUMMARY_RUN_TAG = 'spillway-summary';

/**
 * A {@link Summarizer} that asks a LangChain chat model (or a model string for `initChatModel`, e.g.
 * `'openai:gpt-4.1-mini'`, resolved at the first summary): the summary prompt as the system message,
 * the previous summary and the transcript as the user message. Blank output counts as a failure (the
 * engine retries once, then falls back without deleting anything).
 *
 * The call is Spillway's own, not the conversation's: it is tagged `spillway-summary` and
 * `nostream`, and runs without the surrounding run's callback handlers, so its tokens never show in
 * `streamMode: "messages"`, `streamEvents` or the application's callbacks (a LangSmith tracer still
 * records it). `abortSignal` (the engine's deadline) is passed as the call's `signal`.
 *
 * @example
 * compactionMiddleware({ summarizer: createModelSummarizer(new ChatOpenAI({ model: 'gpt-4.1-mini' })) })
 *
 * @throws {InvalidConfigError} (option `model`) when `model` is neither a string nor has `invoke`.
 */
export function createModelSummarizer(model: InvokableChatModel | string): Summarizer {
  if (
    typeof model !== 'string' &&
    typeof (model as Partial<InvokableChatModel> | null)?.invoke !== 'function'
  ) {
    throw new InvalidConfigError({
      option: 'model',
      value: model,
      message: 'must be a chat model (with invoke) or a model string',
    });
  }
  let resolved: Promise<InvokableChatModel> | undefined;
  return async ({ system, prompt, abortSignal }) => {
    resolved ??= typeof model === 'string' ? initChatModel(model) : Promise.resolve(model);
    const chat = await resolved;
    const response = await chat.invoke(
      [new SystemMessage(system), new HumanMessage(prompt)],
      internalCallConfig({
        tags: [SUMMARY_RUN_TAG],
        metadata: { lc_source: SUMMARY_RUN_TAG },
        ...(abortSignal === undefined ? {} : { signal: abortSignal }),
      }),
    );
    return textOf(response);
  };
}

function textOf(response: unknown): string {
  if (response === null || typeof response !== 'object') return typeof response === 'string' ? response : '';
  const record = response as { text?: unknown; content?: unknown };
  if (typeof record.text === 'string') return record.text;
  if (typeof record.content === 'string') return record.content;
  if (Array.isArray(record.content)) {
    return record.content
      .map((block) =>
        block && typeof block === 'object' && typeof block.text === 'string' ? block.text : '',
      )
      .join('');
  }
  return '';
}

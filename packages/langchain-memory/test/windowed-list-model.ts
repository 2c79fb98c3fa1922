import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { ContextOverflowError as LangChainContextOverflowError } from '@langchain/core/errors';
import type { BaseMessage } from '@langchain/core/messages';
import { FakeListChatModel, type FakeListChatModelCallOptions } from '@langchain/core/utils/testing';
import { promptTokens } from './agent-session';

/**
 * LangChain's `FakeListChatModel` (answers from a list; classic chains read its text) that, like a
 * provider, refuses a prompt larger than its window with LangChain's `ContextOverflowError`, and
 * records every prompt it was given.
 */
export class WindowedListChatModel extends FakeListChatModel {
  readonly contextWindow: number;
  /** Every prompt the model was called with, refused ones included. */
  readonly prompts: BaseMessage[][] = [];
  /** How many prompts were refused as too long. */
  rejected = 0;

  constructor({ contextWindow, responses }: { contextWindow: number; responses: string[] }) {
    super({ responses });
    this.contextWindow = contextWindow;
  }

  #check(messages: BaseMessage[]): void {
    this.prompts.push(messages);
    const tokens = promptTokens(messages);
    if (tokens > this.contextWindow) {
      this.rejected++;
      throw new LangChainContextOverflowError(
        `prompt is too long: ${tokens} tokens > ${this.contextWindow} maximum`,
      );
    }
  }

  override async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ) {
    this.#check(messages);
    return super._generate(messages, options, runManager);
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: FakeListChatModelCallOptions & this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ) {
    this.#check(messages);
    yield* super._streamResponseChunks(messages, options, runManager);
  }
}

import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import {
  BaseMemory,
  getInputValue,
  getOutputValue,
  type InputValues,
  type MemoryVariables,
  type OutputValues,
} from '@langchain/core/memory';
import {
  AIMessage,
  type BaseMessage,
  getBufferString,
  HumanMessage,
  isBaseMessage,
} from '@langchain/core/messages';
import { InvalidConfigError } from '@spillway/core';
import type { CompactNowResult } from '../compact/compact-now-result';
import {
  type CompactHistoryOptions,
  CompactingChatMessageHistory,
  type CompactingChatMessageHistoryOptions,
} from '../history/compacting-chat-message-history';
import { checkBoolean, checkChatModel, checkMethods, checkName, checkString } from '../options/option-checks';
import type { InvokableChatModel } from '../summarize/model-summarizer';

/** Options of {@link CompactionMemory}: `BufferMemory`'s names, plus every compaction option. */
export interface CompactionMemoryOptions
  extends Omit<CompactingChatMessageHistoryOptions, 'history' | 'inputTokens'> {
  /**
   * Where the messages are stored.
   * @default new InMemoryChatMessageHistory()
   */
  chatHistory?: CompactingChatMessageHistoryOptions['history'];
  /**
   * The variable the chain's prompt reads the conversation from.
   * @default 'history'
   */
  memoryKey?: string;
  /**
   * The input variable holding the user's message.
   * @default the only input variable
   */
  inputKey?: string;
  /**
   * The output variable holding the model's answer.
   * @default the only output variable
   */
  outputKey?: string;
  /**
   * Hand the chain message objects (for a `MessagesPlaceholder`) instead of one transcript string.
   * @default false
   */
  returnMessages?: boolean;
  /**
   * Label of user turns in the transcript string.
   * @default 'Human'
   */
  humanPrefix?: string;
  /**
   * Label of model turns in the transcript string.
   * @default 'AI'
   */
  aiPrefix?: string;
  /**
   * The chat model that writes summaries, under the name LangChain's summary memories
   * (`ConversationSummaryMemory`, `ConversationSummaryBufferMemory`) give it; the same as `model`
   * (give one of them). Usually the chain's own `llm`.
   * @default none: `extractiveSummarizer` writes the summaries (deterministic, offline, no model)
   */
  llm?: InvokableChatModel | string;
}

/**
 * A classic `BaseMemory` for chains built with `@langchain/classic` (`ConversationChain`,
 * `LLMChain` with `memory`): a drop-in for `BufferMemory` whose `loadMemoryVariables` returns the
 * compacted conversation (summary + recent turns) instead of all of it. Every turn stays stored.
 *
 * The history is sized for the whole prompt: the chain's input values are counted, and
 * `templateTokens` are kept for the template's own text. When the input alone cannot fit, it throws
 * `ContextOverflowError` before the model is called, and nothing stored changes.
 */
export class CompactionMemory extends BaseMemory {
  /** The compacting history the turns go to. */
  readonly chatHistory: CompactingChatMessageHistory;
  readonly memoryKey: string;
  readonly inputKey: string | undefined;
  readonly outputKey: string | undefined;
  readonly returnMessages: boolean;
  readonly humanPrefix: string;
  readonly aiPrefix: string;

  /** @throws {InvalidConfigError} for a bad option, naming it and the accepted range. */
  constructor(options: CompactionMemoryOptions = {}) {
    const {
      chatHistory = new InMemoryChatMessageHistory(),
      memoryKey = 'history',
      inputKey,
      outputKey,
      returnMessages = false,
      humanPrefix = 'Human',
      aiPrefix = 'AI',
      llm,
      model,
      ...historyOptions
    } = options ?? {};
    super();
    checkMethods('chatHistory', chatHistory, ['getMessages', 'addMessages'], 'a BaseChatMessageHistory');
    checkName('memoryKey', memoryKey);
    checkName('inputKey', inputKey);
    checkName('outputKey', outputKey);
    checkBoolean('returnMessages', returnMessages);
    checkString('humanPrefix', humanPrefix);
    checkString('aiPrefix', aiPrefix);
    if (llm !== undefined && model !== undefined && llm !== model) {
      throw new InvalidConfigError({
        option: 'llm',
        value: llm,
        message: 'is another name for model: give one of llm or model, not both',
      });
    }
    // Checked here, under the name it was given by: the history would report a bad `llm` as `model`.
    if (model === undefined) checkChatModel('llm', llm);
    const summaryModel = model ?? llm;
    this.chatHistory = new CompactingChatMessageHistory({
      ...historyOptions,
      ...(summaryModel === undefined ? {} : { model: summaryModel }),
      history: chatHistory,
    });
    this.memoryKey = memoryKey;
    this.inputKey = inputKey;
    this.outputKey = outputKey;
    this.returnMessages = returnMessages;
    this.humanPrefix = humanPrefix;
    this.aiPrefix = aiPrefix;
  }

  get memoryKeys(): string[] {
    return [this.memoryKey];
  }

  /**
   * The compacted conversation under `memoryKey` (a transcript string, or messages), sized so that
   * it, the input values and the template's own text fit the window together.
   * @throws {ContextOverflowError} when the input alone cannot fit; the model is not called.
   */
  async loadMemoryVariables(values: InputValues): Promise<MemoryVariables> {
    const input = Object.entries(values ?? {})
      .filter(([key]) => key !== this.memoryKey)
      .flatMap(([, value]) => inputParts(value));
    const messages: BaseMessage[] = await this.chatHistory.getPromptMessages({ input });
    return {
      [this.memoryKey]: this.returnMessages
        ? messages
        : getBufferString(messages, this.humanPrefix, this.aiPrefix),
    };
  }

  /** Stores the user's input and the model's output as one turn. */
  async saveContext(inputValues: InputValues, outputValues: OutputValues): Promise<void> {
    const input = getInputValue(inputValues, this.inputKey);
    const output = getOutputValue(outputValues, this.outputKey);
    await this.chatHistory.addMessages([
      input instanceof Object && 'content' in input
        ? (input as BaseMessage)
        : new HumanMessage(String(input)),
      output instanceof Object && 'content' in output
        ? (output as BaseMessage)
        : new AIMessage(String(output)),
    ]);
  }

  /**
   * Compacts now, whatever the usage (a "compact" button, a `/compact` command): summarizes what is
   * older than the kept window. The stored turns stay as they are.
   */
  compact(options: CompactHistoryOptions = {}): Promise<CompactNowResult> {
    return this.chatHistory.compact(options);
  }

  /** Forgets every stored turn and the summary. */
  async clear(): Promise<void> {
    await this.chatHistory.clear();
  }
}

/** What an input value adds to the prompt: its text, or its messages. */
function inputParts(value: unknown): (string | BaseMessage)[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (isBaseMessage(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(inputParts);
  return [];
}

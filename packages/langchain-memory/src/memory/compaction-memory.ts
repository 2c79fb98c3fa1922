import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import {
  BaseMemory,
  getInputValue,
  getOutputValue,
  type InputValues,
  type MemoryVariables,
  type OutputValues,
} from '@langchain/core/memory';
import { AIMessage, type BaseMessage, getBufferString, HumanMessage } from '@langchain/core/messages';
import {
  CompactingChatMessageHistory,
  type CompactingChatMessageHistoryOptions,
} from '../history/compacting-chat-message-history';

/** Options of {@link CompactionMemory}: `BufferMemory`'s names, plus every compaction option. */
export interface CompactionMemoryOptions extends Omit<CompactingChatMessageHistoryOptions, 'history'> {
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
}

/**
 * A classic `BaseMemory` for chains built with `@langchain/classic` (`ConversationChain`,
 * `LLMChain` with `memory`): a drop-in for `BufferMemory` whose `loadMemoryVariables` returns the
 * compacted conversation (summary + recent turns) instead of all of it. Every turn stays stored.
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

  /** @throws {InvalidConfigError} for a bad option. */
  constructor({
    chatHistory = new InMemoryChatMessageHistory(),
    memoryKey = 'history',
    inputKey,
    outputKey,
    returnMessages = false,
    humanPrefix = 'Human',
    aiPrefix = 'AI',
    ...options
  }: CompactionMemoryOptions = {}) {
    super();
    this.chatHistory = new CompactingChatMessageHistory({ ...options, history: chatHistory });
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

  /** The compacted conversation under `memoryKey`: a transcript string, or messages. */
  async loadMemoryVariables(_values: InputValues): Promise<MemoryVariables> {
    const messages: BaseMessage[] = await this.chatHistory.getMessages();
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

  /** Forgets every stored turn and the summary. */
  async clear(): Promise<void> {
    await this.chatHistory.clear();
  }
}

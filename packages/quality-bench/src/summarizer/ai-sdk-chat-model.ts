import type { LanguageModelV4 } from '@ai-sdk/provider';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { generateText, type ModelMessage } from 'ai';

/**
 * A LangChain chat model that answers through an AI SDK model (`generateText`): how a real
 * summarizer given as an AI SDK model spec reaches LangChain's `summarizationMiddleware`, so every
 * row is summarized by the very same model. Text in, text out (a summarizer needs no tools).
 */
export class AiSdkChatModel extends BaseChatModel {
  readonly #model: LanguageModelV4;

  constructor(model: LanguageModelV4) {
    super({});
    this.#model = model;
  }

  _llmType(): string {
    return 'ai-sdk';
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const prompt: ModelMessage[] = messages.map((message) => {
      const type = message.getType();
      const role = type === 'system' ? 'system' : type === 'ai' ? 'assistant' : 'user';
      return { role, content: message.text } as ModelMessage;
    });
    const { text } = await generateText({ model: this.#model, messages: prompt, maxRetries: 0 });
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

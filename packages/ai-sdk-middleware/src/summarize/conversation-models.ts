import type { LanguageModelLike } from '@spillway/ai-sdk-prompt';
import type { SummarizerInput } from '@spillway/core';

/** Conversations whose model the default summarizer remembers. */
const REMEMBERED_MODELS = 1_000;

/** Which model each conversation goes to, for the default summarizer. */
export interface ConversationModels {
  /** Notes the model a conversation's call goes to. */
  remember(conversationId: string, model: LanguageModelLike): void;
  /** The model for a summary: the conversation's own, else the model called last. */
  modelFor(input: SummarizerInput): LanguageModelLike | undefined;
}

/**
 * The default summarizer writes a conversation's summary with the model that conversation goes to
 * (one middleware may wrap several models); the model called last stands in for a forgotten one.
 * Remembers the last 1,000 conversations.
 */
export function createConversationModels(): ConversationModels {
  const models = new Map<string, LanguageModelLike>();
  let lastModel: LanguageModelLike | undefined;
  return {
    remember(conversationId, model) {
      lastModel = model;
      models.delete(conversationId);
      models.set(conversationId, model);
      if (models.size > REMEMBERED_MODELS) models.delete(models.keys().next().value as string);
    },
    modelFor({ conversationId }) {
      return (conversationId === undefined ? undefined : models.get(conversationId)) ?? lastModel;
    },
  };
}

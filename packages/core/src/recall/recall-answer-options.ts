import type { RecallArchive } from './recall-archive';

/**
 * The options every adapter's read-back tool takes, written and documented once here: `recallTool()`
 * of `@spillway/ai-sdk-middleware` and of `@spillway/langchain-memory` extend it (and add what their
 * framework needs), and `recallFromMessages`, which does the work underneath, takes it too.
 */
export interface RecallAnswerOptions {
  /**
   * The secret the references were made with: the engine's `recall.secret` (the adapters'
   * `middleware.recallTool()` and `history.recallTool()` pass it for you).
   * @default DEFAULT_RECALL_SECRET
   */
  secret?: string;
  /**
   * Characters in one answer, at most: a page read, or a search's list of matches.
   * @default 8000 (RECALL_ANSWER_MAX_CHARS)
   */
  maxChars?: number;
  /**
   * Tokens in one answer, at most (by `estimateTextTokens`): a page or a list of matches is made
   * shorter until it fits, so what the model asked for reaches it whole. `recallAnswerMaxTokens(window)`
   * gives the share of a window an answer may take; the adapters' `middleware.recallTool()` sizes
   * it from the window of the conversation's model when you do not.
   * @default no limit beyond `maxChars`
   */
  maxTokens?: number;
  /**
   * Where originals that exist nowhere else were archived: tool results capped at storage time (a
   * chat history keeps only the capped copy). Everything else is read from the conversation the
   * framework hands the tool.
   * @default none
   */
  archive?: RecallArchive;
  /**
   * The conversation's id in `archive` (without it the archive is not consulted).
   * @default none
   */
  conversationId?: string;
}

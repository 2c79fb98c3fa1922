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

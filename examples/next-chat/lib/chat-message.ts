import type { CompactionStatus } from '@spillway/ai-sdk-middleware';
import type { InferUITools, UIMessage } from 'ai';
import type { ChatTools } from './tools';

/** How full the context is, per model call (sent to the page as a transient data part). */
export interface ContextUsageData {
  /** The window in tokens. */
  contextWindow: number;
  /** Estimated tokens of the conversation as the application holds it. */
  tokensBefore: number;
  /** Estimated tokens of what was sent to the model after Spillway. */
  tokensAfter: number;
  /** What Spillway did to this call's prompt (`apply-summary`, `summarize`, `drop-oldest`, …). */
  actions: string[];
}

/** The data parts this chat streams besides text and tools. */
export type ChatDataParts = {
  /** Spillway's indicator and notices (`forwardCompactionEvents`). */
  spillway: CompactionStatus;
  /** The context meter (transient: not kept in the message history). */
  'context-usage': ContextUsageData;
};

/** A message of this chat, as `useChat` holds it. */
export type ChatMessage = UIMessage<never, ChatDataParts, InferUITools<ChatTools>>;

/** What the page sends besides the messages. */
export interface ChatRequestBody {
  id: string;
  messages: ChatMessage[];
  /** Make this request's summarizer fail (to see the fallback and its notice). */
  simulateOutage?: boolean;
}

import type { BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import {
  DEFAULT_RECALL_SECRET,
  type Message,
  RECALL_ANSWER_MAX_CHARS,
  RECALL_TOOL_DESCRIPTION,
  RECALL_TOOL_NAME,
  type RecallAnswerOptions,
  recallFromMessages,
  recallToolInputSchema,
} from '@spillway/core';
import { toNeutralMessages } from '../convert/to-neutral-messages';

/**
 * Options of {@link recallTool}: the read-back tool's options shared by every adapter
 * (`RecallAnswerOptions` of `@spillway/core`: `secret`, `maxChars`, `archive`), plus where the
 * conversation is read from; `conversationId` may also be derived from the conversation.
 */
export interface RecallToolOptions extends Omit<RecallAnswerOptions, 'conversationId'> {
  /**
   * Where the conversation is read from. In a `createAgent` agent leave it out: the tool reads the
   * agent state's `messages` (the originals; the middleware never rewrites them). Give it for
   * other setups, e.g. `() => history.getMessages()`.
   * @default the agent state's messages
   */
  messages?: () => readonly BaseMessage[] | Promise<readonly BaseMessage[]>;
  /**
   * The conversation's id in `archive`, or how to derive it from the conversation's messages.
   * @default none
   */
  conversationId?: string | ((messages: readonly Message[]) => string);
}

/**
 * The read-back tool for LangChain, `spillway_recall`, with the same name, description and schema
 * as in every adapter: add it to `createAgent({ tools: [recallTool()] })` next to
 * `compactionMiddleware()`. It reads the originals from the agent state (or from `messages`), so
 * nothing is stored: a page of a cut tool result, a summarized or dropped span, or the lines of the
 * conversation's material that match a search. A reference from another conversation answers with
 * an error text the model can act on.
 */
export function recallTool({
  secret = DEFAULT_RECALL_SECRET,
  maxChars = RECALL_ANSWER_MAX_CHARS,
  messages,
  archive,
  conversationId,
}: RecallToolOptions = {}) {
  return tool(
    async (input: unknown, runtime: { state?: unknown }) => {
      const state = runtime?.state as { messages?: unknown } | undefined;
      const source = messages === undefined ? state?.messages : await messages();
      const neutral = toNeutralMessages(Array.isArray(source) ? source : []);
      const id = typeof conversationId === 'function' ? conversationId(neutral) : conversationId;
      const answer = await recallFromMessages({
        input,
        messages: neutral,
        secret,
        maxChars,
        ...(archive === undefined ? {} : { archive }),
        ...(id === undefined ? {} : { conversationId: id }),
      });
      return answer.text;
    },
    {
      name: RECALL_TOOL_NAME,
      description: RECALL_TOOL_DESCRIPTION,
      schema: structuredClone(recallToolInputSchema) as unknown as Record<string, unknown>,
    },
  );
}

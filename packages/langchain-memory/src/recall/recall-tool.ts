import type { BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import {
  DEFAULT_RECALL_SECRET,
  type Message,
  parseRecallInput,
  RECALL_ANSWER_MAX_CHARS,
  RECALL_TOOL_DESCRIPTION,
  RECALL_TOOL_NAME,
  type RecallAnswerOptions,
  recallFromMessages,
  recallToolInputSchema,
} from '@spillway/core';
import { z } from 'zod/v4';
import { partToContentBlock } from '../convert/part-to-content-block';
import { toNeutralMessages } from '../convert/to-neutral-messages';

/**
 * Options of {@link recallTool}: the read-back tool's options shared by every adapter
 * (`RecallAnswerOptions` of `@spillway/core`: `secret`, `maxChars`, `maxTokens`, `archive`), plus where the
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
 * nothing is stored: a page of a cut tool result, an image read back as an image (content blocks:
 * the text line and the image's own block), a summarized or dropped span, or the lines of the
 * conversation's material that match a search. The model sees the shared JSON Schema, but the tool
 * takes any input and checks it itself, as every adapter does: bad arguments, an unknown reference
 * or a refused pattern answer with the shared one-line message (never LangChain's schema error and
 * its stack), and nothing a model sends makes the tool throw.
 */
export function recallTool({
  secret = DEFAULT_RECALL_SECRET,
  maxChars = RECALL_ANSWER_MAX_CHARS,
  maxTokens,
  messages,
  archive,
  conversationId,
}: RecallToolOptions = {}) {
  return tool(
    async (input: unknown, runtime: { state?: unknown }) => {
      // Checked first: bad input costs nothing, whatever the size of the conversation.
      const parsed = parseRecallInput(input);
      if (!parsed.ok) return parsed.message;
      try {
        const state = runtime?.state as { messages?: unknown } | undefined;
        const source = messages === undefined ? state?.messages : await messages();
        const neutral = toNeutralMessages(Array.isArray(source) ? source : []);
        const id = typeof conversationId === 'function' ? conversationId(neutral) : conversationId;
        const answer = await recallFromMessages({
          input,
          messages: neutral,
          secret,
          maxChars,
          ...(maxTokens === undefined ? {} : { maxTokens }),
          ...(archive === undefined ? {} : { archive }),
          ...(id === undefined ? {} : { conversationId: id }),
        });
        return answer.media === undefined
          ? answer.text
          : [{ type: 'text', text: answer.text }, partToContentBlock(answer.media)];
      } catch (error) {
        return `${RECALL_TOOL_NAME} could not read the conversation: ${firstLine(error)}`;
      }
    },
    {
      name: RECALL_TOOL_NAME,
      description: RECALL_TOOL_DESCRIPTION,
      schema: looseInputSchema(),
    },
  );
}

/**
 * A schema that shows the model the shared JSON Schema (`recallToolInputSchema`, through zod's
 * metadata, which LangChain writes into the tool definition) but accepts any input: LangChain would
 * otherwise refuse a malformed call with its own multi-line schema error before the tool's checks.
 */
function looseInputSchema() {
  return z.unknown().meta(structuredClone(recallToolInputSchema) as unknown as Record<string, unknown>);
}

function firstLine(error: unknown): string {
  const line = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

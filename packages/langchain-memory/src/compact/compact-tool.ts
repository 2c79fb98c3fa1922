import type { BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import {
  COMPACT_TOOL_DESCRIPTION,
  COMPACT_TOOL_NAME,
  compactToolFailure,
  compactToolInputSchema,
  compactToolInstructions,
  compactToolReport,
  parseCompactInput,
} from '@spillway/core';
import { z } from 'zod/v4';
import type { CompactThreadOptions } from '../middleware/compact-thread';
import type { CompactNowResult } from './compact-now-result';

/** Options of the middleware's `compactTool()`. */
export interface CompactToolOptions {
  /**
   * What every compaction through the tool keeps in particular (e.g. "ticket ids and customer
   * names"); the model's own `instructions` are added after it.
   * @default none: the model's instructions alone
   */
  instructions?: string;
  /**
   * Share of the context window kept verbatim as recent messages when the model asks to compact.
   * `0`: everything before the current request but its latest turn is summarized (the model asked
   * for room now); give
   * the middleware's share (`keep`, 0.25 of the window by default) to keep as much as automatic
   * compaction does.
   * @default 0
   */
  protectedRatio?: number;
}

/** What the tool reads of LangChain's `ToolRuntime` (the second argument of a tool's function). */
interface ToolRuntimeLike {
  state?: { messages?: unknown };
  configurable?: { thread_id?: unknown };
  config?: { configurable?: { thread_id?: unknown }; signal?: AbortSignal };
  signal?: AbortSignal;
}

/**
 * `spillway_compact` for a `createAgent` agent, with the name, description and schema every adapter
 * shares: the model calls it, and the middleware's `compact()` summarizes the thread's messages (the
 * agent state's, read from the tool's runtime) older than the current request, under the thread's
 * id, with the model's instructions. The next model call on the thread applies the new summary and
 * writes it to the agent state. Answers with one line; nothing a model sends makes it throw.
 */
export function compactTool(
  { instructions: fixed, protectedRatio = 0 }: CompactToolOptions,
  compact: (options: CompactThreadOptions) => Promise<CompactNowResult>,
) {
  return tool(
    async (input: unknown, runtime: ToolRuntimeLike) => {
      const parsed = parseCompactInput(input);
      if (!parsed.ok) return parsed.message;
      const messages = runtime?.state?.messages;
      if (!Array.isArray(messages)) {
        return `${COMPACT_TOOL_NAME} could not find this conversation: add the tool to a createAgent agent with the middleware that made it.`;
      }
      const threadId = runtime?.config?.configurable?.thread_id ?? runtime?.configurable?.thread_id;
      const signal = runtime?.config?.signal ?? runtime?.signal;
      const instructions = compactToolInstructions(fixed, parsed.instructions);
      try {
        const result = await compact({
          messages: messages as BaseMessage[],
          ...(typeof threadId === 'string' || typeof threadId === 'number' ? { threadId } : {}),
          ...(instructions === undefined ? {} : { instructions }),
          ...(signal === undefined ? {} : { signal }),
          protectedRatio,
        });
        return compactToolReport({
          messagesSummarized: result.newlyCoveredCount,
          tokensBefore: result.tokensBefore,
          tokensAfter: result.tokensAfter,
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        return compactToolFailure(error);
      }
    },
    {
      name: COMPACT_TOOL_NAME,
      description: COMPACT_TOOL_DESCRIPTION,
      // The shared JSON Schema for the model, any input for the tool (it checks it itself, with
      // one line the model can act on, rather than LangChain's multi-line schema error).
      schema: z.unknown().meta(structuredClone(compactToolInputSchema) as unknown as Record<string, unknown>),
    },
  );
}

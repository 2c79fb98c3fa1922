import { createTool } from '@mastra/core/tools';
import {
  RECALL_ANSWER_MAX_CHARS,
  RECALL_TOOL_DESCRIPTION,
  RECALL_TOOL_NAME,
  type RecallArchive,
  type RecallToolInputSchema,
  recallFromMessages,
  recallToolInputSchema,
} from '@spillway/core';
import { memoryContext, threadConversationId } from '../call/memory-context';
import { recalledConversation } from './recall-registry';

/** Options of {@link recallTool}. */
export interface RecallToolOptions {
  /**
   * Characters in one answer, at most (a page read, or a search's list of matches).
   * @default 8000
   */
  maxChars?: number;
  /**
   * Where originals that exist nowhere else were archived. The processor reads every original
   * from the request Mastra built, so it needs none; give one only if your app caps tool results
   * before Mastra stores them.
   * @default none
   */
  archive?: RecallArchive;
}

/** The input schema of {@link recallTool}: a Standard Schema (v1) with its JSON Schema. */
export interface RecallToolSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'spillway';
    validate(value: unknown): { value: Record<string, unknown> } | { issues: { message: string }[] };
    readonly jsonSchema: {
      input(options?: unknown): RecallToolInputSchema;
      output(options?: unknown): RecallToolInputSchema;
    };
  };
}

/** The read-back tool as `createTool` makes it: put it in the agent's `tools` as `spillway_recall`. */
export type RecallMastraTool = ReturnType<typeof createRecallTool>;

/**
 * The read-back tool for Mastra (`createTool`): add it as `tools: { spillway_recall: recallTool() }`
 * next to a `compactionProcessor` in `inputProcessors`. It reads a page of a cut tool result, an
 * image's placeholder line, a summarized or dropped span, or searches the conversation's material.
 * The originals are the ones the processor saw when it built the run's last request (Mastra gives
 * a tool only the run's new input, not the history), with that processor's `recall.secret`. A
 * reference from another conversation, a made-up one, or a call in a run no Spillway processor
 * took part in answers with an error text the model can act on.
 */
export function recallTool({ maxChars = RECALL_ANSWER_MAX_CHARS, archive }: RecallToolOptions = {}) {
  return createRecallTool(maxChars, archive);
}

function createRecallTool(maxChars: number, archive: RecallArchive | undefined) {
  // A copy each time: a framework may adjust the schema it is given (the shared one stays as it is).
  const jsonSchema = () => structuredClone(recallToolInputSchema);
  const inputSchema: RecallToolSchema = {
    '~standard': {
      version: 1,
      vendor: 'spillway',
      // Arguments are checked by the tool itself, with a message written for the model.
      validate: (value) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? { value: value as Record<string, unknown> }
          : { issues: [{ message: 'Pass an object: {"ref": "…"} or {"search": "…"}.' }] },
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
  return createTool({
    id: RECALL_TOOL_NAME,
    description: RECALL_TOOL_DESCRIPTION,
    inputSchema,
    execute: async (input: Record<string, unknown>, context: unknown): Promise<string> => {
      const { requestContext, agent } = (context ?? {}) as {
        requestContext?: unknown;
        agent?: { threadId?: unknown; resourceId?: unknown };
      };
      const fromMemory = memoryContext(requestContext);
      const thread = {
        threadId: typeof agent?.threadId === 'string' ? agent.threadId : fromMemory.threadId,
        resourceId: typeof agent?.resourceId === 'string' ? agent.resourceId : fromMemory.resourceId,
      };
      const conversation = recalledConversation(requestContext, threadConversationId(thread));
      if (conversation === undefined) {
        return 'Error: nothing to read back here — no compacted conversation was found for this run.';
      }
      const answer = await recallFromMessages({
        input,
        messages: conversation.messages,
        maxChars,
        ...(conversation.secret === undefined ? {} : { secret: conversation.secret }),
        ...(archive === undefined ? {} : { archive, conversationId: conversation.conversationId }),
      });
      return answer.text;
    },
  });
}

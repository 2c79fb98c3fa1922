import {
  COMPACT_TOOL_DESCRIPTION,
  COMPACT_TOOL_NAME,
  type CompactionState,
  type Compactor,
  type CompactToolInputSchema,
  compactToolFailure,
  compactToolInputSchema,
  compactToolInstructions,
  compactToolReport,
  parseCompactInput,
} from '@spillway/core';
import type { CompactCalls } from './compact-calls';

/** Options of `middleware.compactTool()`. */
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
   * the middleware's `protectedRatio` (0.25 by default) to keep as much as automatic compaction does.
   * @default 0
   */
  protectedRatio?: number;
}

/** The input schema of the compaction tool: a Standard Schema (v1) with its JSON Schema. */
export interface CompactToolSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'spillway';
    validate(value: unknown): { value: Record<string, unknown> };
    readonly jsonSchema: {
      input(options?: unknown): CompactToolInputSchema;
      output(options?: unknown): CompactToolInputSchema;
    };
  };
}

/** An AI SDK tool (ai 6 and 7): put it in `tools` under `COMPACT_TOOL_NAME` (`spillway_compact`). */
export interface CompactAiTool {
  readonly description: string;
  readonly inputSchema: CompactToolSchema;
  execute(input: unknown, options: { toolCallId?: string; abortSignal?: AbortSignal }): Promise<string>;
}

/**
 * The compaction tool of one middleware: the model calls it, the middleware (which saw the call
 * in the model's response) knows the conversation, and `Compactor.compact` summarizes what is
 * older than the current request (less `protectedRatio` of recent history) now, with the model's
 * instructions. The next request of the
 * conversation carries the new summary. Answers with one line; nothing a model sends makes it throw.
 */
export function compactTool(
  { instructions: fixed, protectedRatio = 0 }: CompactToolOptions,
  { compactor, calls }: { compactor: Compactor; calls: CompactCalls },
): CompactAiTool {
  // A copy each time: the SDK may adjust the schema it is given (the shared one stays as it is).
  const jsonSchema = () => structuredClone(compactToolInputSchema);
  return {
    description: COMPACT_TOOL_DESCRIPTION,
    inputSchema: {
      '~standard': {
        version: 1,
        vendor: 'spillway',
        // Any input: the tool checks it itself and answers with a line the model can act on.
        validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
        jsonSchema: { input: jsonSchema, output: jsonSchema },
      },
    },
    async execute(input, options) {
      const parsed = parseCompactInput(input);
      if (!parsed.ok) return parsed.message;
      const context = calls.take(options?.toolCallId);
      if (context === undefined) {
        return `${COMPACT_TOOL_NAME} could not find this conversation: give the tool to a model wrapped with the middleware that made it.`;
      }
      const abortSignal = options?.abortSignal;
      const { conversationId, model, provider, contextWindow, modelContextWindow } = context.prepareOptions;
      const instructions = compactToolInstructions(fixed, parsed.instructions);
      try {
        const state = await compactor.compact(context.messages, {
          ...(conversationId === undefined ? {} : { conversationId }),
          ...(model === undefined ? {} : { model }),
          ...(provider === undefined ? {} : { provider }),
          ...(contextWindow === undefined ? {} : { contextWindow }),
          ...(modelContextWindow === undefined ? {} : { modelContextWindow }),
          ...(instructions === undefined ? {} : { instructions }),
          ...(abortSignal === undefined ? {} : { abortSignal }),
          protectedRatio,
        });
        // The request that made the call, as it would go now (the new summary applied).
        const after = await compactor.prepare(context.messages, {
          ...context.prepareOptions,
          ...(abortSignal === undefined ? {} : { abortSignal }),
        });
        return compactToolReport({
          messagesSummarized: coveredOf(state) - coveredOf(context.prepared.state),
          tokensBefore: context.prepared.tokensAfter,
          tokensAfter: after.tokensAfter,
        });
      } catch (error) {
        if (abortSignal?.aborted) throw error;
        return compactToolFailure(error);
      }
    },
  };
}

function coveredOf(state: CompactionState | undefined): number {
  return state?.coveredCount ?? 0;
}

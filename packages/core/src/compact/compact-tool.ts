/**
 * The "compact now" tool an agent can call (`spillway_compact`): one name, one description, one
 * input schema, one input check and one report text shared by every adapter (AI SDK, LangChain), so a
 * model meets the same tool wherever it runs. The adapters only wire it to their conversation.
 */
import { SUMMARY_INSTRUCTIONS_MAX_CHARS } from '../summarize/summary-instructions';

/** The name of the compaction tool in every adapter. */
export const COMPACT_TOOL_NAME = 'spillway_compact';

/** The description of the compaction tool, the same in every adapter. */
export const COMPACT_TOOL_DESCRIPTION =
  'Compacts this conversation now, to free room in the context window before more work: the part ' +
  'older than the current request is replaced by a bounded summary (the user’s standing instructions ' +
  'stay pinned, and what was cut stays readable with spillway_recall when that tool is offered). The ' +
  'current request, with its tool calls and results so far, is kept as it is. Pass `instructions` to ' +
  'say what the summary must keep (e.g. "the failing test names and every file path"). Answers with ' +
  'one line: how many messages were summarized and the request size before and after.';

/** A JSON Schema property of {@link compactToolInputSchema}. */
export interface CompactToolInputProperty {
  type: 'string';
  description: string;
  maxLength: number;
}

/** The type of {@link compactToolInputSchema}: a plain JSON Schema object. */
export interface CompactToolInputSchema {
  type: 'object';
  properties: { instructions: CompactToolInputProperty };
  additionalProperties: false;
  [key: string]: unknown;
}

/**
 * The input schema of the compaction tool, as plain JSON Schema (an AI SDK tool's `inputSchema`
 * through `jsonSchema()`, or a LangChain tool's schema). Nothing is required. Treat it as read-only.
 */
export const compactToolInputSchema: CompactToolInputSchema = {
  type: 'object',
  properties: {
    instructions: {
      type: 'string',
      maxLength: SUMMARY_INSTRUCTIONS_MAX_CHARS,
      description: `Optional: what the summary must keep in particular (facts, names, paths, decisions, open tasks). At most ${SUMMARY_INSTRUCTIONS_MAX_CHARS} characters.`,
    },
  },
  additionalProperties: false,
};

/** What {@link parseCompactInput} makes of a tool call's input. */
export type CompactInput = { ok: true; instructions: string | undefined } | { ok: false; message: string };

/**
 * Checks a compaction tool call's input: nothing, `{}` or `{ instructions }` (a string of at most
 * 2,000 characters; blank counts as none). Anything else answers with one line the model can act on;
 * nothing a model sends makes it throw.
 */
export function parseCompactInput(input: unknown): CompactInput {
  if (input === undefined || input === null) return { ok: true, instructions: undefined };
  if (typeof input === 'string') return parseCompactInput({ instructions: input });
  if (typeof input !== 'object' || Array.isArray(input)) {
    return refuse('the input must be an object with an optional `instructions` string');
  }
  const { instructions } = input as { instructions?: unknown };
  if (instructions === undefined || instructions === null) return { ok: true, instructions: undefined };
  if (typeof instructions !== 'string') return refuse('`instructions` must be a string');
  if (instructions.length > SUMMARY_INSTRUCTIONS_MAX_CHARS) {
    return refuse(
      `\`instructions\` has ${instructions.length} characters; at most ${SUMMARY_INSTRUCTIONS_MAX_CHARS} are taken`,
    );
  }
  const trimmed = instructions.trim();
  return { ok: true, instructions: trimmed === '' ? undefined : trimmed };
}

/**
 * The instructions one compaction through the tool runs with: those the tool was made with first,
 * then the model's (see {@link parseCompactInput}), a line each; `undefined` when neither says
 * anything.
 */
export function compactToolInstructions(
  fixed: string | undefined,
  fromModel: string | undefined,
): string | undefined {
  const joined = [fixed?.trim(), fromModel].filter(Boolean).join('\n');
  return joined === '' ? undefined : joined;
}

function refuse(reason: string): CompactInput {
  return { ok: false, message: `${COMPACT_TOOL_NAME}: nothing was compacted: ${reason}.` };
}

/** What one call of the compaction tool did, for {@link compactToolReport}. */
export interface CompactToolOutcome {
  /** Conversation messages newly summarized by this call (0: nothing older than the current request). */
  messagesSummarized: number;
  /** Estimated tokens of the request before the call (calibrated, tools included). */
  tokensBefore: number;
  /** Estimated tokens of the same request with the new summary (calibrated, tools included). */
  tokensAfter: number;
}

/**
 * The tool's answer to the model: one short line (under 300 characters whatever the conversation),
 * so the result itself never takes back the room it freed.
 */
export function compactToolReport({
  messagesSummarized,
  tokensBefore,
  tokensAfter,
}: CompactToolOutcome): string {
  const before = Math.round(tokensBefore).toLocaleString('en-US');
  const after = Math.round(tokensAfter).toLocaleString('en-US');
  if (messagesSummarized <= 0) {
    return `Nothing to compact: everything older than the current request is already summarized or there is nothing older (request ≈${before} tokens).`;
  }
  const freed = Math.max(0, Math.round(tokensBefore - tokensAfter)).toLocaleString('en-US');
  return `Compacted: ${messagesSummarized} older message${messagesSummarized === 1 ? '' : 's'} summarized; the request went from ≈${before} to ≈${after} tokens (${freed} freed). The current request is kept as it is.`;
}

/** The tool's answer when compaction failed (the conversation is unchanged). One line. */
export function compactToolFailure(error: unknown): string {
  const line = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return `${COMPACT_TOOL_NAME} could not compact the conversation (nothing changed): ${line.slice(0, 200)}`;
}

import { COMPACT_TOOL_NAME } from '@spillway/core';
import type { CallContext } from '../call/call-context';

/** Calls of `spillway_compact` not yet executed, remembered at most (the oldest are forgotten). */
const MAX_PENDING = 256;

/**
 * The `spillway_compact` calls a model made through the middleware, by tool call id, each with the
 * context of the request that produced it (the conversation as converted, its key, model and
 * window). The tool's `execute` gets only the tool call id and the SDK's messages; this is how it
 * finds the exact conversation the middleware keys its state by.
 */
export interface CompactCalls {
  /** Notes the tool calls of a response (generate content, or one stream part). */
  notice(parts: unknown, context: CallContext): void;
  /** The context of a call, once (undefined when unknown). */
  take(toolCallId: string | undefined): CallContext | undefined;
}

/** Makes the middleware's {@link CompactCalls}. */
export function createCompactCalls(): CompactCalls {
  const pending = new Map<string, CallContext>();
  const add = (part: unknown, context: CallContext) => {
    const call = part as { type?: unknown; toolName?: unknown; toolCallId?: unknown } | null;
    if (call?.type !== 'tool-call' || call.toolName !== COMPACT_TOOL_NAME) return;
    if (typeof call.toolCallId !== 'string') return;
    pending.delete(call.toolCallId);
    pending.set(call.toolCallId, context);
    while (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value as string);
  };
  return {
    notice(parts, context) {
      if (Array.isArray(parts)) for (const part of parts) add(part, context);
      else add(parts, context);
    },
    take(toolCallId) {
      if (toolCallId === undefined) return undefined;
      const context = pending.get(toolCallId);
      pending.delete(toolCallId);
      return context;
    },
  };
}

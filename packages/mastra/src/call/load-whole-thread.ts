import type { MessageList } from '@mastra/core/agent/message-list';

/** What this needs of a Mastra memory: `recall` (the whole thread with `perPage: false`). */
export interface MemoryLike {
  recall(args: {
    threadId: string;
    resourceId?: string;
    perPage: false;
  }): Promise<{ messages: readonly unknown[] }>;
}

/**
 * The memory of the run: the one given, else the one Mastra put in the run's request context
 * (`MastraMemory.runState().memory`). Undefined when the run has none.
 */
export function runMemory(requestContext: unknown, given: MemoryLike | undefined): MemoryLike | undefined {
  if (given !== undefined) return given;
  try {
    const get = (requestContext as { get?: unknown } | undefined)?.get;
    if (typeof get !== 'function') return undefined;
    const context = get.call(requestContext, 'MastraMemory') as { runState?: unknown } | undefined;
    const runState = typeof context?.runState === 'function' ? context.runState() : undefined;
    const memory = (runState as { memory?: unknown } | undefined)?.memory;
    return typeof (memory as MemoryLike | undefined)?.recall === 'function'
      ? (memory as MemoryLike)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Adds to the message list every message of the thread that memory did not load (Mastra's memory
 * hands over the last 10 messages by default): as `memory` messages, which Mastra never saves
 * again. Spillway then sees the whole conversation, so nothing older leaves the request without a
 * summary, and a stored summary always finds the prefix it was made from. Returns how many were
 * added.
 */
export async function loadWholeThread({
  messageList,
  memory,
  threadId,
  resourceId,
}: {
  messageList: MessageList;
  memory: MemoryLike;
  threadId: string;
  resourceId: string | undefined;
}): Promise<number> {
  const { messages } = await memory.recall({
    threadId,
    ...(resourceId === undefined ? {} : { resourceId }),
    perPage: false,
  });
  const present = new Set(messageList.get.all.db().map((message) => message.id));
  const missing = messages.filter((message) => {
    const { id, role } = (message ?? {}) as { id?: unknown; role?: unknown };
    return typeof id === 'string' && role !== 'system' && !present.has(id);
  });
  if (missing.length > 0) messageList.add(missing as never, 'memory');
  return missing.length;
}

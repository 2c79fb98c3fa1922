/** The memory thread and resource of a Mastra run, as its request context carries them. */
export interface MemoryContext {
  threadId: string | undefined;
  resourceId: string | undefined;
}

/**
 * Reads the run's memory thread and resource from its request context (`MastraMemory`, which the
 * agent sets when `generate`/`stream` get `memory: { thread, resource }`). Read defensively: a
 * context without it, or of another shape, gives neither.
 */
export function memoryContext(requestContext: unknown): MemoryContext {
  try {
    const get = (requestContext as { get?: unknown } | undefined)?.get;
    if (typeof get !== 'function') return { threadId: undefined, resourceId: undefined };
    const memory = get.call(requestContext, 'MastraMemory') as
      | { thread?: { id?: unknown }; resourceId?: unknown }
      | undefined;
    const threadId = memory?.thread?.id;
    const resourceId = memory?.resourceId;
    return {
      threadId: typeof threadId === 'string' && threadId.length > 0 ? threadId : undefined,
      resourceId: typeof resourceId === 'string' && resourceId.length > 0 ? resourceId : undefined,
    };
  } catch {
    return { threadId: undefined, resourceId: undefined };
  }
}

/** The default conversation key of a memory thread: `<resource>:<thread>`, or the thread alone. */
export function threadConversationId({ threadId, resourceId }: MemoryContext): string | undefined {
  if (threadId === undefined) return undefined;
  return resourceId === undefined ? threadId : `${resourceId}:${threadId}`;
}

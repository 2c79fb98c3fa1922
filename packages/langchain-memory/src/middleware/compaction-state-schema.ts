import { z } from 'zod/v4';

/** The key of the middleware's own entry in the agent state. */
export const COMPACTION_STATE_KEY = 'spillwayCompaction';

/**
 * The middleware's state schema: the compaction state (summaries, covered count and hash) is a
 * channel of the agent state, so the checkpointer persists it with the thread and a later `invoke`
 * on the same `thread_id` applies the same summary.
 */
export const compactionStateSchema = z.object({
  [COMPACTION_STATE_KEY]: z
    .object({
      version: z.literal(1),
      summaries: z.array(z.string()),
      coveredCount: z.number(),
      coveredHash: z.string(),
      tokensBefore: z.number(),
      tokensAfter: z.number(),
      createdAt: z.number(),
      compactionCount: z.number(),
    })
    .optional(),
});

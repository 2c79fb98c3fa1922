import type { BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import type { CompactionEvent, CompactionState } from '@spillway/core';
import { createAgent } from 'langchain';
import {
  type CompactionMiddlewareOptions,
  compactionMiddleware,
} from '../src/middleware/compaction-middleware';
import { COMPACTION_STATE_KEY } from '../src/middleware/compaction-state-schema';
import {
  createReadFileTool,
  createScriptedAgentModel,
  createSummaryModel,
  userMessage,
} from './agent-session';

/**
 * The seeded agent session of `agent-session.ts` run through `createAgent` with the compaction
 * middleware and a checkpointer: the setup the middleware's tests share, and the means to run its
 * turns and read the thread's checkpointed state back.
 */

export const WINDOW = 16_000;
export const SEED = 7;
export const SYSTEM_PROMPT =
  'You are a careful coding assistant. Read files when asked and report what they export.';
/**
 * Tests about summaries turn off the request-time shortening of old tool results, which would
 * otherwise keep these sessions under the threshold for many more turns without any summary.
 */
export const SUMMARIES_ONLY = { toolResultReduction: false } as const;

export function setup(options: CompactionMiddlewareOptions = {}, checkpointer = new MemorySaver()) {
  const events: CompactionEvent[] = [];
  const model = createScriptedAgentModel({ contextWindow: WINDOW });
  const summaryModel = createSummaryModel();
  const agent = createAgent({
    model,
    tools: [createReadFileTool(SEED)],
    systemPrompt: SYSTEM_PROMPT,
    middleware: [
      compactionMiddleware({
        contextWindow: WINDOW,
        model: summaryModel,
        onEvent: (event) => events.push(event),
        ...options,
      }),
    ],
    checkpointer,
  });
  return { agent, model, summaryModel, events, checkpointer };
}

interface CheckpointedState {
  messages: BaseMessage[];
  [COMPACTION_STATE_KEY]?: CompactionState;
}

/** The thread's checkpointed agent state, through the public graph. */
export async function readState(
  agent: { graph: { getState(config: object): Promise<unknown> } },
  threadId: string,
) {
  const snapshot = (await agent.graph.getState({ configurable: { thread_id: threadId } })) as {
    values: CheckpointedState;
  };
  return snapshot;
}

export async function runTurns(
  agent: ReturnType<typeof setup>['agent'],
  threadId: string,
  from: number,
  to: number,
) {
  for (let turn = from; turn < to; turn++) {
    await agent.invoke({ messages: [userMessage(turn)] }, { configurable: { thread_id: threadId } });
  }
}

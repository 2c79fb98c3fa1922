import type { Message, PrepareOptions, PrepareResult } from '@spillway/core';

/** What `processInputStep` learns about the step for the request that follows. */
export interface StepFacts {
  /** Tokens of the step's tool definitions and output schema (they travel with the request). */
  overheadTokens: number;
  /** Whether the step's tools include `spillway_recall`. */
  recallTool: boolean;
}

/** The request of the current step, as prepared (for the response and error hooks). */
export interface PreparedRequest {
  /** The conversation as Mastra built the request, tool results capped. */
  messages: readonly Message[];
  prepareOptions: Omit<PrepareOptions, 'overflowAttempt' | 'overflowError' | 'abortSignal'>;
  prepared: PrepareResult;
}

/** A retry after the provider rejected the request as too long. */
export interface OverflowRetry {
  attempt: number;
  error: unknown;
  /** Estimated tokens of the request that was rejected: a retry must be smaller. */
  rejectedTokens: number;
}

/** The processor's record for one `generate`/`stream` call (Mastra's per-request processor state). */
export interface RunState {
  step?: StepFacts;
  request?: PreparedRequest;
  overflow?: OverflowRetry;
}

const KEY = 'spillway';

/** This processor's record in Mastra's per-request `state` object (made on first use). */
export function runState(state: unknown): RunState {
  if (typeof state !== 'object' || state === null) return {};
  const record = state as Record<string, unknown>;
  const existing = record[KEY];
  if (typeof existing === 'object' && existing !== null) return existing as RunState;
  const created: RunState = {};
  record[KEY] = created;
  return created;
}

/** What a finished model step tells the engine. */
export interface StepOutcome {
  /** The provider's input tokens for the request, when reported. */
  inputTokens?: number;
  /** The provider's output tokens for the response, when reported. */
  outputTokens?: number;
  /** Whether the response ends the user's turn (a final answer, not a step of a tool loop). */
  endsTurn: boolean;
  /** Whether the step finished at all (a `finish` chunk was seen). */
  finished: boolean;
}

/**
 * Reads the chunks Mastra hands to `processLLMResponse` (`{ type, payload }`): usage and finish
 * reason from the `finish` chunk (`payload.output.usage`, `payload.stepResult.reason`), and whether
 * the model called a tool.
 */
export function readStepResult(chunks: readonly unknown[]): StepOutcome {
  let toolCalls = false;
  let finish: { output?: { usage?: unknown }; stepResult?: { reason?: unknown } } | undefined;
  for (const chunk of chunks) {
    const { type, payload } = (chunk ?? {}) as { type?: unknown; payload?: unknown };
    if (type === 'tool-call') toolCalls = true;
    if (type === 'finish' && typeof payload === 'object' && payload !== null) finish = payload;
  }
  if (finish === undefined) return { endsTurn: false, finished: false };
  const usage = (finish.output?.usage ?? {}) as { inputTokens?: unknown; outputTokens?: unknown };
  const reason = finish.stepResult?.reason;
  return {
    ...(count(usage.inputTokens) === undefined ? {} : { inputTokens: count(usage.inputTokens) }),
    ...(count(usage.outputTokens) === undefined ? {} : { outputTokens: count(usage.outputTokens) }),
    endsTurn: !toolCalls && reason !== 'tool-calls',
    finished: true,
  };
}

function count(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'object' && value !== null) return count((value as { total?: unknown }).total);
  return undefined;
}

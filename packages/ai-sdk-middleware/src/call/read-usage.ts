/** Reads V3/V4 usage (`{ inputTokens: { total } }`) and older flat usage (`{ inputTokens: n }`). */
export function readUsage(usage: unknown): { inputTokens?: number; outputTokens?: number } {
  if (typeof usage !== 'object' || usage === null) return {};
  const record = usage as { inputTokens?: unknown; outputTokens?: unknown };
  return { inputTokens: total(record.inputTokens), outputTokens: total(record.outputTokens) };
}

function total(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'object' && value !== null) {
    const inner = (value as { total?: unknown }).total;
    if (typeof inner === 'number' && Number.isFinite(inner)) return inner;
  }
  return undefined;
}

/**
 * Whether a response ends the user's turn: a final answer, not a step of a tool loop (finish reason
 * `tool-calls`, V3/V4 `{ unified }` or an older plain string, or tool calls in the content).
 */
export function endsTurn(finishReason: unknown, sawToolCall: boolean): boolean {
  if (sawToolCall) return false;
  const reason =
    typeof finishReason === 'object' && finishReason !== null
      ? (finishReason as { unified?: unknown }).unified
      : finishReason;
  return reason !== 'tool-calls';
}

/**
 * A context window the model object carries, when its provider (or the application) put one on it:
 * `contextWindow`, `maxInputTokens`, or `limits.contextWindow` / `limits.input` (gateways that
 * describe their models). The AI SDK's model specification has no such field, so this is read
 * defensively: a finite positive number or nothing.
 */
export function modelContextWindow(model: unknown): number | undefined {
  if (typeof model !== 'object' || model === null) return undefined;
  try {
    const record = model as Record<string, unknown>;
    const limits = (
      typeof record.limits === 'object' && record.limits !== null ? record.limits : {}
    ) as Record<string, unknown>;
    for (const value of [record.contextWindow, record.maxInputTokens, limits.contextWindow, limits.input]) {
      if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
    }
  } catch {
    // A getter that throws is no window.
  }
  return undefined;
}

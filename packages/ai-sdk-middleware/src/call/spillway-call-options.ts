/** Per-call options read from `providerOptions.spillway` (and removed before the call goes down). */
export interface SpillwayCallOptions {
  /** The conversation's key in the compaction store. */
  conversationId?: string;
  /** Skip compaction for this call (the prompt goes down untouched, `spillway` key removed). */
  disabled?: boolean;
  /** The context window for this call, in tokens (wins over the option and the model lookup). */
  contextWindow?: number;
}

/**
 * Reads `providerOptions.spillway` and returns the provider options without it (the same object
 * when there is no such key).
 */
export function readSpillwayCallOptions<T extends { providerOptions?: unknown }>(
  params: T,
): { options: SpillwayCallOptions; params: T } {
  const providerOptions = params.providerOptions as Record<string, unknown> | undefined;
  if (typeof providerOptions !== 'object' || providerOptions === null || !('spillway' in providerOptions)) {
    return { options: {}, params };
  }
  const { spillway, ...rest } = providerOptions;
  const raw = (typeof spillway === 'object' && spillway !== null ? spillway : {}) as Record<string, unknown>;
  const options: SpillwayCallOptions = {};
  if (typeof raw.conversationId === 'string' && raw.conversationId.length > 0)
    options.conversationId = raw.conversationId;
  if (raw.disabled === true || raw.disable === true) options.disabled = true;
  if (typeof raw.contextWindow === 'number' && Number.isFinite(raw.contextWindow) && raw.contextWindow > 0)
    options.contextWindow = raw.contextWindow;
  return { options, params: { ...params, providerOptions: rest } };
}

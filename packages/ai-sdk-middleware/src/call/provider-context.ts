import {
  type ContextManagementFamily,
  contextManagementFamily,
  type Estimator,
  type Message,
  type ProviderContextPlan,
  providerContextPlan,
} from '@spillway/core';

/** What the middleware needs to hand a call's context management to the provider. */
export interface ProviderContextSettings {
  /** Shares of the window (the engine's `thresholds`). */
  compactRatio?: number;
  emergencyRatio?: number;
  protectedRatio?: number;
  /** The read-back tool's name (its results are never cleared). */
  recallToolName?: string;
  /** Called when the model's provider offers no context management Spillway can set. */
  onUnsupported: (provider: string) => void;
}

/**
 * Which provider context management this model offers through its AI SDK provider package:
 * `@ai-sdk/anthropic` (3 and 4: `contextManagement`), and the Responses models of `@ai-sdk/openai`
 * 4 (ai 7, V4 models: `contextManagement`); the ai 6 line of `@ai-sdk/openai` (V3) has none.
 */
export function modelContextFamily(model: {
  readonly provider: string;
  readonly specificationVersion?: string;
}): ContextManagementFamily | undefined {
  const family = contextManagementFamily(model.provider);
  if (family === 'openai-responses' && model.specificationVersion !== 'v4') return undefined;
  return family;
}

type Options = Record<string, unknown>;

/**
 * The call's provider options with Spillway's thresholds set as the provider's context
 * management (`strategy: 'provider'`), merged with — never overriding — what the caller set:
 * Anthropic `contextManagement.edits` gain `clear_tool_uses_20250919` (trigger at the compact
 * threshold, keep the protected window's tool uses, clear at least a protected window, exclude the
 * read-back tool) and `compact_20260112` (at the emergency threshold, where the provider accepts
 * it) unless an edit of that type is there, and nothing when the caller asked for an on-demand
 * `compaction` (the two cannot be combined); OpenAI Responses gains `contextManagement: [{ type:
 * 'compaction', compactThreshold }]` unless the caller set one. Returns `undefined` for a model
 * whose provider offers none (the caller falls back to local compaction).
 */
export function withProviderContext(
  providerOptions: unknown,
  {
    model,
    contextWindow,
    messages,
    estimator,
    settings,
  }: {
    model: { readonly provider: string; readonly specificationVersion?: string };
    contextWindow: number;
    messages: readonly Message[];
    estimator: Estimator;
    settings: ProviderContextSettings;
  },
): Options | undefined {
  const family = modelContextFamily(model);
  if (family === undefined) {
    settings.onUnsupported(model.provider);
    return undefined;
  }
  const { onUnsupported: _, ...ratios } = settings;
  const plan = providerContextPlan({ contextWindow, messages, estimator, ...ratios });
  const all = (
    typeof providerOptions === 'object' && providerOptions !== null ? providerOptions : {}
  ) as Options;
  return family === 'anthropic' ? withAnthropic(all, plan) : withOpenAi(all, plan);
}

function withAnthropic(all: Options, plan: ProviderContextPlan): Options {
  const own = (all.anthropic ?? {}) as Options;
  if (own.compaction != null) return all;
  const management = (own.contextManagement ?? {}) as { edits?: readonly { type?: unknown }[] };
  const edits = Array.isArray(management.edits) ? management.edits : [];
  const has = (type: string) => edits.some((edit) => edit?.type === type);
  const added: Options[] = [];
  if (!has('clear_tool_uses_20250919')) {
    added.push({
      type: 'clear_tool_uses_20250919',
      trigger: { type: 'input_tokens', value: plan.triggerTokens },
      keep: { type: 'tool_uses', value: plan.keepToolUses },
      clearAtLeast: { type: 'input_tokens', value: plan.clearAtLeastTokens },
      excludeTools: [...plan.excludeTools],
    });
  }
  if (!has('compact_20260112') && plan.compactTriggerTokens !== undefined) {
    added.push({
      type: 'compact_20260112',
      trigger: { type: 'input_tokens', value: plan.compactTriggerTokens },
    });
  }
  if (added.length === 0) return all;
  return {
    ...all,
    anthropic: { ...own, contextManagement: { ...management, edits: [...edits, ...added] } },
  };
}

function withOpenAi(all: Options, plan: ProviderContextPlan): Options {
  const own = (all.openai ?? {}) as Options;
  if (own.contextManagement != null) return all;
  return {
    ...all,
    openai: { ...own, contextManagement: [{ type: 'compaction', compactThreshold: plan.triggerTokens }] },
  };
}

import { type Estimator, type Message, providerContextPlan } from '@spillway/core';

/** What `strategy: 'provider'` needs to hand a call's context management to the provider. */
export interface ProviderContextModelOptions {
  /** The model's context window, in tokens. */
  contextWindow: number;
  /** The engine's thresholds and protected window, as shares of the window. */
  compactRatio: number;
  emergencyRatio: number;
  protectedRatio: number | undefined;
  /** The conversation (the tool uses of its protected window are kept). */
  messages: readonly Message[];
  estimator: Estimator;
}

type Edit = { type?: unknown } & Record<string, unknown>;

/**
 * The agent's model with Spillway's thresholds as its context management, when it is a
 * `ChatAnthropic` (`@langchain/anthropic` sends its `contextManagement` field as the API's
 * `context_management`, adding the compaction beta): `clear_tool_uses_20250919` triggered at the
 * compact threshold, keeping the protected window's tool uses, clearing at least a protected window
 * at a time and never the read-back tool's results, and `compact_20260112` at the emergency
 * threshold where the API accepts it — each only when the model has no edit of that type (the
 * user's own settings win). The model is not changed: the call gets an object that inherits from
 * it with its own `contextManagement`. Returns `undefined` for any other model (`@langchain/openai`
 * has no compaction to set), which is then compacted locally.
 */
export function providerContextModel(
  model: unknown,
  options: ProviderContextModelOptions,
): object | undefined {
  if (!isChatAnthropic(model)) return undefined;
  const { contextWindow, compactRatio, emergencyRatio, protectedRatio, messages, estimator } = options;
  const plan = providerContextPlan({
    contextWindow,
    compactRatio,
    emergencyRatio,
    ...(protectedRatio === undefined ? {} : { protectedRatio }),
    messages,
    estimator,
  });
  const current = (model.contextManagement ?? {}) as { edits?: readonly Edit[] };
  const edits = Array.isArray(current.edits) ? current.edits : [];
  const has = (type: string) => edits.some((edit) => edit?.type === type);
  const added: Edit[] = [];
  if (!has('clear_tool_uses_20250919')) {
    added.push({
      type: 'clear_tool_uses_20250919',
      trigger: { type: 'input_tokens', value: plan.triggerTokens },
      keep: { type: 'tool_uses', value: plan.keepToolUses },
      clear_at_least: { type: 'input_tokens', value: plan.clearAtLeastTokens },
      exclude_tools: [...plan.excludeTools],
    });
  }
  if (!has('compact_20260112') && plan.compactTriggerTokens !== undefined) {
    added.push({
      type: 'compact_20260112',
      trigger: { type: 'input_tokens', value: plan.compactTriggerTokens },
    });
  }
  if (added.length === 0) return model;
  const delegate = Object.create(model) as { contextManagement: unknown };
  delegate.contextManagement = { ...current, edits: [...edits, ...added] };
  return delegate;
}

function isChatAnthropic(model: unknown): model is { contextManagement?: unknown } {
  if (typeof model !== 'object' || model === null || !('contextManagement' in model)) return false;
  const llmType = (model as { _llmType?: unknown })._llmType;
  return typeof llmType === 'function' && llmType.call(model) === 'anthropic';
}

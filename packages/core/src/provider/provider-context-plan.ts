import { COMPACT_THRESHOLD_RATIO, EMERGENCY_THRESHOLD_RATIO } from '../compact/thresholds';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Estimator } from '../estimate/estimator';
import type { Message } from '../message/message';
import { toolResultsOf } from '../message/message-parts';
import { RECALL_TOOL_NAME } from '../recall/recall-tool';
import { splitMessages } from '../split/split-messages';

/** The providers whose own context management Spillway can set. */
export type ContextManagementFamily = 'anthropic' | 'openai-responses';

/**
 * Which context management a provider offers, from the name the framework gives it: Anthropic's
 * context editing and compaction (`anthropic.messages`, `anthropic`), OpenAI's Responses compaction
 * (`openai.responses`; not the chat completions API, not other OpenAI-compatible servers), or none.
 */
export function contextManagementFamily(provider: string | undefined): ContextManagementFamily | undefined {
  const name = provider?.trim().toLowerCase() ?? '';
  if (/^anthropic(?:$|\.)/.test(name)) return 'anthropic';
  if (/^openai\.responses$/.test(name) || name === 'openai-responses') return 'openai-responses';
  return undefined;
}

/** Anthropic's smallest trigger for server-side compaction (`compact_20260112`), in input tokens. */
export const PROVIDER_COMPACTION_MIN_TRIGGER = 50_000;

/** Spillway's thresholds, as the provider's context-management settings (framework-neutral). */
export interface ProviderContextPlan {
  /** Input tokens at which the provider clears old tool uses: the compact threshold. */
  readonly triggerTokens: number;
  /** Tool uses kept whole: those inside the protected window (at least 1). */
  readonly keepToolUses: number;
  /** Tokens each clearing frees at least, so the prompt cache breaks rarely: the protected window. */
  readonly clearAtLeastTokens: number;
  /** Tools whose results are never cleared: the read-back tool (its answers are what was cut). */
  readonly excludeTools: readonly string[];
  /**
   * Input tokens at which the provider summarizes the conversation itself: the emergency threshold,
   * after clearing had its chance; `undefined` when that is under what the provider accepts
   * ({@link PROVIDER_COMPACTION_MIN_TRIGGER}).
   */
  readonly compactTriggerTokens: number | undefined;
}

/** Options of {@link providerContextPlan}. */
export interface ProviderContextPlanOptions {
  /** The model's context window in tokens. */
  contextWindow: number;
  /** @default 0.85 (COMPACT_THRESHOLD_RATIO) */
  compactRatio?: number;
  /** @default 0.95 (EMERGENCY_THRESHOLD_RATIO) */
  emergencyRatio?: number;
  /** Share of the window kept verbatim as recent messages. @default 0.25 */
  protectedRatio?: number;
  /** The conversation, to count the tool uses inside the protected window. @default [] (keeps 1) */
  messages?: readonly Message[];
  /** Counts the messages (the engine's estimator). @default the shared default estimator */
  estimator?: Estimator;
  /** The read-back tool's name. @default 'spillway_recall' */
  recallToolName?: string;
}

/**
 * Spillway's thresholds as provider context management: clear old tool uses at the compact
 * threshold, keep the tool uses of the protected window, clear at least a protected window's worth
 * each time (in batches, so the prompt cache breaks rarely), never clear the read-back tool's
 * answers, and let the provider summarize at the emergency threshold.
 *
 * @throws {InvalidConfigError} for a window that is not a positive number.
 */
export function providerContextPlan({
  contextWindow,
  compactRatio = COMPACT_THRESHOLD_RATIO,
  emergencyRatio = EMERGENCY_THRESHOLD_RATIO,
  protectedRatio = 0.25,
  messages = [],
  estimator,
  recallToolName = RECALL_TOOL_NAME,
}: ProviderContextPlanOptions): ProviderContextPlan {
  if (!(contextWindow > 0) || !Number.isFinite(contextWindow)) {
    throw new InvalidConfigError({
      option: 'contextWindow',
      value: contextWindow,
      message: 'must be a positive number of tokens',
    });
  }
  const protectTokens = Math.floor(contextWindow * protectedRatio);
  let keepToolUses = 1;
  if (messages.length > 0) {
    const { recent } = splitMessages(messages, { protectTokens, ...(estimator ? { estimator } : {}) });
    const uses = recent.reduce((sum, message) => sum + toolResultsOf(message).length, 0);
    keepToolUses = Math.max(1, uses);
  }
  const compactTrigger = Math.floor(contextWindow * emergencyRatio);
  return {
    triggerTokens: Math.floor(contextWindow * compactRatio),
    keepToolUses,
    clearAtLeastTokens: protectTokens,
    excludeTools: [recallToolName],
    compactTriggerTokens: compactTrigger >= PROVIDER_COMPACTION_MIN_TRIGGER ? compactTrigger : undefined,
  };
}

import { type CompactionThresholds, RECALL_TOOL_NAME } from '@spillway/core';
import type { ProviderContextSettings } from './provider-context';

/**
 * The settings `strategy: 'provider'` hands each call: the engine's thresholds, the read-back
 * tool's name, and a warning written once per middleware for a provider that offers no context
 * management Spillway can set (its calls are compacted locally).
 */
export function providerContextSettings(
  thresholds: CompactionThresholds | undefined,
  protectedRatio: number | undefined,
): ProviderContextSettings {
  let warned = false;
  return {
    ...(thresholds?.compact === undefined ? {} : { compactRatio: thresholds.compact }),
    ...(thresholds?.emergency === undefined ? {} : { emergencyRatio: thresholds.emergency }),
    ...(protectedRatio === undefined ? {} : { protectedRatio }),
    recallToolName: RECALL_TOOL_NAME,
    onUnsupported: (provider) => {
      if (warned) return;
      warned = true;
      console.warn(
        `[spillway] strategy 'provider': ${provider} offers no context management Spillway can set; compacting locally.`,
      );
    },
  };
}

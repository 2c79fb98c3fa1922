import { describe, expect, it } from 'vitest';
import { agentConversation } from '../../test/conversation-fixtures';
import { InvalidConfigError } from '../errors/invalid-config-error';
import { createEstimator } from '../estimate/create-estimator';
import { contextManagementFamily, providerContextPlan } from './provider-context-plan';

describe('contextManagementFamily', () => {
  it('knows Anthropic and the OpenAI Responses API, nothing else', () => {
    expect(contextManagementFamily('anthropic.messages')).toBe('anthropic');
    expect(contextManagementFamily('anthropic')).toBe('anthropic');
    expect(contextManagementFamily('openai.responses')).toBe('openai-responses');
    expect(contextManagementFamily('openai.chat')).toBeUndefined();
    expect(contextManagementFamily('google.generative-ai')).toBeUndefined();
    expect(contextManagementFamily('amazon-bedrock')).toBeUndefined();
    expect(contextManagementFamily(undefined)).toBeUndefined();
  });
});

describe('providerContextPlan', () => {
  it('maps the thresholds: trigger at the compact threshold, batches of a protected window', () => {
    const plan = providerContextPlan({ contextWindow: 200_000 });
    expect(plan).toEqual({
      triggerTokens: 170_000,
      keepToolUses: 1,
      clearAtLeastTokens: 50_000,
      excludeTools: ['spillway_recall'],
      compactTriggerTokens: 190_000,
    });
  });

  it('keeps the tool uses of the protected window, and no provider summary under its minimum trigger', () => {
    const messages = agentConversation({ turns: 12, toolResultChars: 800 });
    const plan = providerContextPlan({ contextWindow: 16_000, messages, estimator: createEstimator() });
    expect(plan.keepToolUses).toBeGreaterThan(1);
    expect(plan.keepToolUses).toBeLessThan(24);
    expect(plan.compactTriggerTokens).toBeUndefined();
    expect(plan.triggerTokens).toBe(13_600);
  });

  it('rejects a window that is not a positive number', () => {
    expect(() => providerContextPlan({ contextWindow: 0 })).toThrow(InvalidConfigError);
  });
});

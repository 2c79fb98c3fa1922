import { describe, expect, it } from 'vitest';
import { getContextWindow } from './get-context-window';

describe('getContextWindow: the families people run today', () => {
  const cases: [string, number][] = [
    ['llama3.1:8b', 128_000],
    ['llama3.3:70b-instruct-q4_K_M', 128_000],
    ['meta-llama/Llama-3.1-8B-Instruct', 128_000],
    ['meta.llama3-1-70b-instruct-v1:0', 128_000],
    ['llama3:8b', 8_192],
    ['qwen2.5-coder', 32_768],
    ['qwen2.5-coder:32b', 32_768],
    ['Qwen/Qwen3-32B', 131_072],
    ['deepseek-v3', 128_000],
    ['deepseek-r1:70b', 128_000],
    ['deepseek-chat', 128_000],
    ['mistral-medium-latest', 128_000],
    ['mistral-large-2411', 128_000],
    ['codestral-latest', 256_000],
    ['chatgpt-4o-latest', 128_000],
    ['gpt-4.1-mini', 1_047_576],
    ['gpt-5-mini', 400_000],
    ['o3-mini', 200_000],
    ['claude-sonnet-4-5-20250929', 200_000],
    ['us.anthropic.claude-3-5-sonnet-20241022-v2:0', 200_000],
    ['gemini-2.5-flash-lite', 1_048_576],
    ['models/gemini-flash-latest', 1_048_576],
    ['grok-4-0709', 256_000],
    ['command-r-plus-08-2024', 128_000],
    ['command-a-03-2025', 256_000],
    ['openai:gpt-4.1', 1_047_576],
    ['anthropic:claude-sonnet-4-5', 200_000],
    ['ollama:llama3.1:8b', 128_000],
  ];
  it.each(cases)('%s → %d', (id, window) => {
    expect(getContextWindow(id)).toBe(window);
  });

  it('knows nothing of deployment names and private ids (the compactor says so)', () => {
    for (const id of ['my-gpt4o-deployment', 'prod-chat', 'custom-finetune-7']) {
      expect(getContextWindow(id)).toBeUndefined();
    }
  });
});

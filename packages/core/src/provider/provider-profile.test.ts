import { describe, expect, it } from 'vitest';
import { providerProfile } from './provider-profile';

describe('providerProfile', () => {
  it.each([
    ['openai.chat', 'openai', 'text'],
    ['azure.chat', 'openai', 'text'],
    ['openai-compatible.chat', 'openai', 'text'],
    ['groq.chat', 'openai', 'text'],
    ['mistral.chat', 'openai', 'text'],
    ['openai.responses', 'openai', 'native'],
    ['anthropic.messages', 'anthropic', 'native'],
    ['amazon-bedrock', 'anthropic', 'native'],
    ['google.generative-ai', 'google', 'native'],
    ['google.vertex.chat', 'google', 'native'],
    ['google-genai', 'google', 'native'],
    ['something-new', 'anthropic', 'native'],
  ] as const)('%s → %s images, %s tool-result media', (name, formula, media) => {
    expect(providerProfile(name)).toMatchObject({ imageFormula: formula, toolResultMedia: media });
  });

  it('without a provider: Anthropic images (the safe side), media as media', () => {
    expect(providerProfile(undefined)).toEqual({
      name: undefined,
      imageFormula: 'anthropic',
      toolResultMedia: 'native',
    });
    expect(providerProfile('  ')).toMatchObject({ name: undefined });
  });
});

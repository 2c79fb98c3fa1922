import { ChatAnthropic } from '@langchain/anthropic';
import { ChatBedrockConverse } from '@langchain/aws';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { ChatOpenAI } from '@langchain/openai';
import { providerProfile } from '@spillway/core';
import { expect, test } from 'vitest';
import { chatModelId, chatModelProvider, chatModelWindow } from './chat-model-window';

const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' };

test('the provider of the real chat integrations, as the core profiles it', () => {
  const cases = [
    [new ChatOpenAI({ model: 'gpt-4.1', apiKey: 'k' }), 'openai.chat', 'openai', 'text'],
    [
      new ChatOpenAI({ model: 'gpt-4.1', apiKey: 'k', useResponsesApi: true }),
      'openai.responses',
      'openai',
      'native',
    ],
    [new ChatAnthropic({ model: 'claude-sonnet-4-5', apiKey: 'k' }), 'anthropic', 'anthropic', 'native'],
    [
      new ChatGoogleGenerativeAI({ model: 'gemini-2.5-flash', apiKey: 'k' }),
      'googlegenerativeai',
      'google',
      'native',
    ],
    [
      new ChatBedrockConverse({
        model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
        region: 'us-east-1',
        credentials,
      }),
      'chat_bedrock_converse',
      'anthropic',
      'native',
    ],
  ] as const;
  for (const [model, name, imageFormula, toolResultMedia] of cases) {
    expect(chatModelProvider(model)).toBe(name);
    expect(providerProfile(chatModelProvider(model))).toMatchObject({ imageFormula, toolResultMedia });
  }
  expect(chatModelProvider('openai:gpt-4.1-mini')).toBe('openai.chat');
  expect(chatModelProvider('anthropic:claude-sonnet-4-5')).toBe('anthropic');
  expect(chatModelProvider('gpt-4.1')).toBeUndefined();
  expect(chatModelProvider({})).toBeUndefined();
});

test('the model id and window of a chat model or a model string', () => {
  expect(chatModelId(new ChatOpenAI({ model: 'gpt-4.1', apiKey: 'k' }))).toBe('gpt-4.1');
  expect(chatModelId('openai:gpt-4.1-mini')).toBe('gpt-4.1-mini');
  expect(chatModelWindow({ profile: { maxInputTokens: 3000 } })).toBe(3000);
  expect(chatModelWindow('openai:gpt-4.1-mini')).toBeGreaterThan(100_000);
  expect(chatModelWindow('my-own-model', { 'my-own-model': 32_000 })).toBe(32_000);
  expect(chatModelWindow(undefined)).toBeUndefined();
});

test('your contextWindows entry wins over the window a model profile declares, the profile over the table', () => {
  const declaring = { model: 'gpt-4.1', profile: { maxInputTokens: 3000 } };
  expect(chatModelWindow(declaring, { 'gpt-4.1': 32_000 })).toBe(32_000);
  expect(chatModelWindow(declaring, { 'other-model': 32_000 })).toBe(3000);
  expect(chatModelWindow(declaring)).toBe(3000);
  // A real chat model's profile, where LangChain has one.
  const real = new ChatOpenAI({ model: 'gpt-4.1', apiKey: 'k' });
  expect(chatModelWindow(real, { 'gpt-4.1': 32_000 })).toBe(32_000);
});

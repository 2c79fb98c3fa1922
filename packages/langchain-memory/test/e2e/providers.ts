import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { ChatAnthropic } from '@langchain/anthropic';
import { ChatBedrockConverse } from '@langchain/aws';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { ChatOpenAI } from '@langchain/openai';
import { expect } from 'vitest';
import type { RecordedRequest } from './loopback-server';

/**
 * The four chat integrations whose request rules differ the most, each pointed at a loopback
 * server that answers as the real API would: what is asserted is the request body the real
 * integration builds.
 */
export interface Provider {
  name: string;
  /** A chat model of the real integration talking to `origin`. */
  model(origin: string): BaseChatModel;
  /** A valid answer of the API, with `text` as the assistant's reply and `inputTokens` as its usage. */
  answer(text: string, inputTokens: number): unknown;
  /** Whether the API is spoken over HTTP/2. @default false */
  http2?: boolean;
  /** Asserts the provider's rules on a request body; returns the text of its system prompt(s) and of its first user turn. */
  check(body: RecordedRequest['body']): { system: string; firstUser: string };
}

/** The text of a list of `{ text }` blocks, or of a string. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (typeof block?.text === 'string' ? block.text : '')).join('\n');
}

/** Roles alternate, starting with `first`. */
function expectAlternation(roles: readonly string[], first: string, second: string): void {
  expect(roles[0]).toBe(first);
  expect(roles).toEqual(roles.map((_, index) => (index % 2 === 0 ? first : second)));
}

export const anthropic: Provider = {
  name: 'Anthropic (@langchain/anthropic)',
  model: (origin) =>
    new ChatAnthropic({
      model: 'claude-sonnet-4-5',
      apiKey: 'test-key',
      anthropicApiUrl: origin,
      maxRetries: 0,
    }),
  answer: (text, inputTokens) => ({
    id: 'msg_loopback',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: 10 },
  }),
  check(body) {
    // At most one system prompt, and it is the `system` field: no system role among the messages.
    expect(body.messages.filter((message: { role: string }) => message.role === 'system')).toEqual([]);
    expect(typeof body.system === 'string' || Array.isArray(body.system)).toBe(true);
    expectAlternation(
      body.messages.map((message: { role: string }) => message.role),
      'user',
      'assistant',
    );
    return { system: textOf(body.system), firstUser: textOf(body.messages[0].content) };
  },
};

export const openai: Provider = {
  name: 'OpenAI (@langchain/openai)',
  model: (origin) =>
    new ChatOpenAI({
      model: 'gpt-4.1',
      apiKey: 'test-key',
      configuration: { baseURL: `${origin}/v1` },
      maxRetries: 0,
    }),
  answer: (text, inputTokens) => ({
    id: 'chatcmpl-loopback',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4.1',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: inputTokens, completion_tokens: 10, total_tokens: inputTokens + 10 },
  }),
  check(body) {
    const roles: string[] = body.messages.map((message: { role: string }) => message.role);
    const system = roles.flatMap((role, index) => (role === 'system' || role === 'developer' ? [index] : []));
    expect(system).toEqual([0]);
    expectAlternation(roles.slice(1), 'user', 'assistant');
    return { system: textOf(body.messages[0].content), firstUser: textOf(body.messages[1].content) };
  },
};

export const google: Provider = {
  name: 'Google (@langchain/google-genai)',
  model: (origin) =>
    new ChatGoogleGenerativeAI({
      model: 'gemini-2.5-flash',
      apiKey: 'test-key',
      baseUrl: origin,
      maxRetries: 0,
    }),
  answer: (text, inputTokens) => ({
    candidates: [{ index: 0, content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
    usageMetadata: {
      promptTokenCount: inputTokens,
      candidatesTokenCount: 10,
      totalTokenCount: inputTokens + 10,
    },
  }),
  check(body) {
    // One system instruction; the contents are user and model turns, alternating, user first.
    expect(body.systemInstruction).toBeDefined();
    expectAlternation(
      body.contents.map((content: { role: string }) => content.role),
      'user',
      'model',
    );
    return {
      system: textOf(body.systemInstruction.parts),
      firstUser: textOf(body.contents[0].parts),
    };
  },
};

export const bedrock: Provider = {
  name: 'Bedrock Converse (@langchain/aws)',
  model: (origin) =>
    new ChatBedrockConverse({
      model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
      region: 'us-east-1',
      client: new BedrockRuntimeClient({
        region: 'us-east-1',
        endpoint: origin,
        credentials: { accessKeyId: 'AKIDLOOPBACK', secretAccessKey: 'loopback-secret' },
        maxAttempts: 1,
      }),
    }),
  http2: true,
  answer: (text, inputTokens) => ({
    output: { message: { role: 'assistant', content: [{ text }] } },
    stopReason: 'end_turn',
    usage: { inputTokens, outputTokens: 10, totalTokens: inputTokens + 10 },
    metrics: { latencyMs: 1 },
  }),
  check(body) {
    // Converse refuses a conversation whose roles do not alternate, starting with the user.
    expect(Array.isArray(body.system)).toBe(true);
    expectAlternation(
      body.messages.map((message: { role: string }) => message.role),
      'user',
      'assistant',
    );
    return { system: textOf(body.system), firstUser: textOf(body.messages[0].content) };
  },
};

export const providers: readonly Provider[] = [anthropic, openai, google, bedrock];

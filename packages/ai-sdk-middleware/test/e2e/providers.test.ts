// biome-ignore-all lint/suspicious/noExplicitAny: one test body drives two SDK generations and their providers
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { CompactionEvent } from '@spillway/core';
import * as ai6 from 'ai';
import * as ai7 from 'ai7';
import { createAnthropic as createAnthropic3 } from 'anthropic3';
import { createOpenAI as createOpenAI3 } from 'openai3';
import { afterEach, describe, expect, it } from 'vitest';
import { compactionMiddleware } from '../../src/index';
import { agentTurn } from '../conversation';
import { type Sdk, sdks } from '../sdk';
import { type Reply, startLoopbackServer } from './loopback-server';
import { validateAnthropic, validateOpenAiChat } from './provider-targets';

const SYSTEM = 'You are a coding agent.';

interface Setup {
  name: string;
  sdk: Sdk;
  generateText: (options: any) => Promise<any>;
  wrapLanguageModel: (options: any) => any;
  createGateway: (options: any) => (id: string) => any;
  createOpenAI: (options: any) => { chat: (id: string) => any };
  createAnthropic: (options: any) => (id: string) => any;
}

/** Each SDK with the provider packages of its generation (V3 for ai 6, V4 for ai 7). */
const setups: Setup[] = [
  {
    name: 'ai 6 + @ai-sdk/openai 3 + @ai-sdk/anthropic 3',
    sdk: sdks.find((sdk) => sdk.version === 'v3')!,
    generateText: ai6.generateText,
    wrapLanguageModel: ai6.wrapLanguageModel,
    createGateway: ai6.createGateway,
    createOpenAI: createOpenAI3,
    createAnthropic: createAnthropic3,
  },
  {
    name: 'ai 7 + @ai-sdk/openai 4 + @ai-sdk/anthropic 4',
    sdk: sdks.find((sdk) => sdk.version === 'v4')!,
    generateText: ai7.generateText,
    wrapLanguageModel: ai7.wrapLanguageModel,
    createGateway: ai7.createGateway,
    createOpenAI: createOpenAI,
    createAnthropic: createAnthropic,
  },
];

function conversation(sdk: Sdk, turns: number): never[] {
  const messages: unknown[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    messages.push(...agentTurn(sdk, turn));
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `Turn ${turn} done.` }] });
  }
  messages.push({ role: 'user', content: 'What should we do next?' });
  return messages as never[];
}

const openAiOk = (input: number): Reply => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-4o',
    choices: [
      { index: 0, message: { role: 'assistant', content: 'Next: run the tests.' }, finish_reason: 'stop' },
    ],
    usage: { prompt_tokens: input, completion_tokens: 6, total_tokens: input + 6 },
  },
});

const openAiTooLong: Reply = {
  status: 400,
  body: {
    error: {
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  },
};

const anthropicOk = (input: number): Reply => ({
  status: 200,
  body: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text: 'Next: run the tests.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: input, output_tokens: 6 },
  },
});

const anthropicTooLong: Reply = {
  status: 400,
  body: {
    type: 'error',
    error: { type: 'invalid_request_error', message: 'prompt is too long: 215873 tokens > 200000 maximum' },
  },
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe.each(setups)('real provider packages against a loopback server: $name', (setup) => {
  const { generateText, wrapLanguageModel, createGateway, createOpenAI, createAnthropic } = setup;
  it('@ai-sdk/openai: the compacted prompt is a valid chat request (calls before results, images and placeholders)', async () => {
    const server = await startLoopbackServer(() => openAiOk(5_000));
    close = server.close;
    const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' });
    const middleware = compactionMiddleware({ contextWindow: 6_000, summarizer: 'extractive' });
    const model = wrapLanguageModel({ model: provider.chat('gpt-4o'), middleware });
    const providerOptions = { spillway: { conversationId: 'openai-1' } };
    const messages = conversation(setup.sdk, 24);
    const result = await generateText({ model, system: SYSTEM, messages, providerOptions });
    expect(result.text).toBe('Next: run the tests.');
    validateOpenAiChat(server.requests[0]!.body);
    // Old tool results and screenshots are shortened first, then reduced to stubs and folded; once
    // that no longer makes room, a summary is made after a response and is in the next request.
    const history: unknown[] = [...messages, ...result.response.messages];
    let body: any;
    for (let turn = 1; turn <= 60; turn++) {
      await middleware.compactor.idle();
      history.push(
        { role: 'user', content: `Go on (${turn}).` },
        ...agentTurn(setup.sdk, 100 + turn).slice(1),
      );
      history.push({ role: 'user', content: 'Go on.' });
      const next = await generateText({ model, system: SYSTEM, messages: history, providerOptions });
      history.push(...next.response.messages);
      body = server.requests.at(-1)!.body;
      validateOpenAiChat(body);
      if (String(body.messages[0].content).startsWith('Summary of the earlier conversation')) break;
    }
    expect(JSON.stringify(body)).not.toContain('"spillway"');
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content).toMatch(/^Summary of the earlier conversation/);
    expect(
      body.messages.some(
        (message: { role: string; content: unknown }) =>
          message.role === 'system' && message.content === SYSTEM,
      ),
    ).toBe(true);
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'Go on.' });
    // A screenshot in a tool result is a placeholder for OpenAI chat (it would be base64 text).
    expect(JSON.stringify(server.requests.map((request) => request.body))).not.toMatch(/iVBORw0KGgo/);
  });

  it("@ai-sdk/openai: OpenAI's real context_length_exceeded body triggers compaction and one retry", async () => {
    const server = await startLoopbackServer((request, index) =>
      index === 0 ? openAiTooLong : openAiOk(request.bytes / 4),
    );
    close = server.close;
    const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' });
    const events: CompactionEvent[] = [];
    const middleware = compactionMiddleware({
      summarizer: 'extractive',
      onEvent: (event) => events.push(event),
    });
    const result = await generateText({
      model: wrapLanguageModel({ model: provider.chat('gpt-4o'), middleware }),
      system: SYSTEM,
      messages: conversation(setup.sdk, 12),
      maxRetries: 0,
    });
    expect(result.text).toBe('Next: run the tests.');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.bytes).toBeLessThan(server.requests[0]!.bytes / 2);
    validateOpenAiChat(server.requests[1]!.body);
    expect(events.filter((event) => event.type === 'overflow-retry')).toHaveLength(1);
  });

  it('@ai-sdk/anthropic: the compacted prompt is a valid messages request, images and placeholders encoded', async () => {
    const server = await startLoopbackServer(() => anthropicOk(5_000));
    close = server.close;
    const provider = createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' });
    const middleware = compactionMiddleware({ contextWindow: 6_000, summarizer: 'extractive' });
    const model = wrapLanguageModel({ model: provider('claude-sonnet-4-5'), middleware });
    const messages = conversation(setup.sdk, 24);
    const result = await generateText({ model, system: SYSTEM, messages });
    validateAnthropic(server.requests[0]!.body);
    const history: unknown[] = [...messages, ...result.response.messages];
    let body: any;
    // Until the dialogue fills the window and a summary is made (turn 14 here; 12 before later steps
    // took the deepest level).
    for (let turn = 1; turn <= 40; turn++) {
      await middleware.compactor.idle();
      history.push(
        { role: 'user', content: `Go on (${turn}).` },
        ...agentTurn(setup.sdk, 100 + turn).slice(1),
      );
      history.push({ role: 'user', content: 'Go on.' });
      const next = await generateText({ model, system: SYSTEM, messages: history });
      history.push(...next.response.messages);
      body = server.requests.at(-1)!.body;
      validateAnthropic(body);
      if (JSON.stringify(body.system).includes('Summary of the earlier conversation')) break;
    }
    // The summary and the original system prompt both reach Anthropic's top-level system.
    const system = JSON.stringify(body.system);
    expect(system).toContain('Summary of the earlier conversation');
    expect(system).toContain(SYSTEM);
    const text = JSON.stringify(body.messages);
    expect(text).not.toContain('"spillway"');
    // The first request (over the compact threshold, before any summary) had its old screenshots
    // replaced by text placeholders inside the tool results, joined with the result's text into one
    // text part (Gemini-style converters write one function response per text part).
    expect(JSON.stringify(server.requests[0]!.body.messages)).toMatch(
      /"type":"tool_result"[^\]]*"text":"Screenshot \d+\\n\[image: image\/png, 1280x800/,
    );
  });

  it("@ai-sdk/anthropic: Anthropic's real 'prompt is too long' body triggers compaction and one retry", async () => {
    const server = await startLoopbackServer((request, index) =>
      index === 0 ? anthropicTooLong : anthropicOk(request.bytes / 4),
    );
    close = server.close;
    const provider = createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' });
    const middleware = compactionMiddleware({ summarizer: 'extractive' });
    const result = await generateText({
      model: wrapLanguageModel({ model: provider('claude-sonnet-4-5'), middleware }),
      system: SYSTEM,
      messages: conversation(setup.sdk, 12),
      maxRetries: 0,
    });
    expect(result.text).toBe('Next: run the tests.');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.bytes).toBeLessThan(server.requests[0]!.bytes / 2);
    validateAnthropic(server.requests[1]!.body);
  });

  it("the AI Gateway's wrapped overflow error (GatewayInvalidRequestError) triggers compaction and one retry", async () => {
    const server = await startLoopbackServer((request, index) =>
      index === 0
        ? {
            status: 400,
            body: {
              error: {
                message: 'prompt is too long: 215873 tokens > 200000 maximum',
                type: 'invalid_request_error',
              },
            },
          }
        : {
            status: 200,
            body: {
              content: [{ type: 'text', text: 'via gateway' }],
              finishReason: { unified: 'stop', raw: 'end_turn' },
              usage: { inputTokens: { total: Math.round(request.bytes / 4) }, outputTokens: { total: 3 } },
              warnings: [],
            },
          },
    );
    close = server.close;
    const gateway = createGateway({ baseURL: server.baseURL, apiKey: 'test-key' });
    const middleware = compactionMiddleware({ summarizer: 'extractive' });
    const result = await generateText({
      model: wrapLanguageModel({ model: gateway('anthropic/claude-sonnet-4-5'), middleware }),
      system: SYSTEM,
      messages: conversation(setup.sdk, 12),
      maxRetries: 0,
    });
    expect(result.text).toBe('via gateway');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.bytes).toBeLessThan(server.requests[0]!.bytes / 2);
  });
});

/**
 * A seeded, simulated 200-turn agent session (file reads, web pages up to 200 KB, screenshots)
 * in AI SDK `ModelMessage` form, and a fake provider that answers like a real one: it reports
 * usage, and throws the provider's own overflow error (`APICallError`, OpenAI's
 * `context_length_exceeded` body) when the prompt exceeds the window.
 */

import { type SdkPrompt, toNeutralMessage } from '@spillway/ai-sdk-prompt';
import { createEstimator } from '@spillway/core';
import { APICallError } from 'ai7';
import { MockLanguageModelV4 } from 'ai7/test';

/** A small seeded PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the deploy pipeline config handler route request response cache token budget module test error fix update review branch merge commit schema query index table user session'.split(
    ' ',
  );

function words(random: () => number, count: number): string {
  const out: string[] = [];
  for (let index = 0; index < count; index++) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  return out.join(' ');
}

function code(random: () => number, chars: number, path: string): string {
  const lines: string[] = [];
  let length = 0;
  for (let line = 1; length < chars; line++) {
    const text = `export function ${WORDS[Math.floor(random() * WORDS.length)]}${line}(input: Request) { return handle(input, '${path}', ${Math.floor(random() * 1e6)}); }`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join('\n');
}

function page(random: () => number, chars: number): string {
  const parts: string[] = ['<html><body>'];
  let length = 0;
  while (length < chars) {
    const text = `<p>${words(random, 30)} https://docs.example.com/${Math.floor(random() * 1e5)}</p>`;
    parts.push(text);
    length += text.length;
  }
  return `${parts.join('\n')}</body></html>`;
}

function png(random: () => number, bytes: number): string {
  const data = new Uint8Array(bytes);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(data.buffer);
  view.setUint32(16, 1280);
  view.setUint32(20, 800);
  data.set([8, 2, 0, 0, 0], 24);
  for (let index = 40; index < bytes; index++) data[index] = Math.floor(random() * 256);
  return Buffer.from(data).toString('base64');
}

/** The messages one turn adds before the model answers: the user's ask, a tool call and its result. */
export function sessionTurn(random: () => number, turn: number): unknown[] {
  const id = `call-${turn}`;
  const roll = random();
  const user = { role: 'user', content: `Turn ${turn}: ${words(random, 20 + Math.floor(random() * 60))}` };
  let toolName: string;
  let input: unknown;
  let output: unknown;
  if (roll < 0.45) {
    const path = `src/${words(random, 1)}/${turn}.ts`;
    toolName = 'read_file';
    input = { path };
    output = { type: 'text', value: code(random, 2_000 + Math.floor(random() * 14_000), path) };
  } else if (roll < 0.6) {
    toolName = 'fetch_page';
    input = { url: `https://docs.example.com/${turn}` };
    output = {
      type: 'text',
      value: page(random, random() < 0.3 ? 200_000 : 20_000 + Math.floor(random() * 30_000)),
    };
  } else if (roll < 0.85) {
    toolName = 'grep';
    input = { query: words(random, 2) };
    output = { type: 'text', value: words(random, 100 + Math.floor(random() * 600)) };
  } else {
    toolName = 'screenshot';
    input = { url: `https://app.local/${turn}` };
    output = {
      type: 'content',
      value: [
        { type: 'text', text: `Screenshot of turn ${turn}` },
        {
          type: 'file',
          mediaType: 'image/png',
          data: { type: 'data', data: png(random, 40_000 + Math.floor(random() * 80_000)) },
        },
      ],
    };
  }
  return [
    user,
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName, input }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName, output }] },
  ];
}

const estimator = createEstimator();

/** Tokens of a prompt as the provider receives it (one estimator for every contender). */
export function promptTokens(prompt: readonly unknown[]): number {
  return estimator.countMessages((prompt as SdkPrompt).map((message) => toNeutralMessage(message)));
}

/** The provider's overflow error, exactly as `@ai-sdk/openai` builds it from OpenAI's 400. */
export function overflowError(tokens: number, window: number): APICallError {
  return new APICallError({
    message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens.`,
    url: 'https://api.openai.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 400,
    responseBody: JSON.stringify({
      error: {
        message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens.`,
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    }),
    isRetryable: false,
  });
}

/** The fake provider: records every prompt, throws the overflow error over the window. */
export function fakeProvider(window: number) {
  const prompts: unknown[][] = [];
  const sizes: number[] = [];
  let overflows = 0;
  const model = new MockLanguageModelV4({
    modelId: 'bench-model',
    doGenerate: async (options) => {
      const tokens = promptTokens(options.prompt);
      prompts.push(options.prompt);
      sizes.push(tokens);
      if (tokens > window) {
        overflows++;
        throw overflowError(tokens, window);
      }
      return {
        content: [{ type: 'text', text: `Done: ${prompts.length}.` }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: tokens, noCache: tokens, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 20, text: 20, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return { model, prompts, sizes, overflows: () => overflows };
}

/** A fixed, model-like summary (about 300 tokens), the same for every contender. */
export const SUMMARY_TEXT = `Summary: the user is reviewing a web service module by module. ${'Files were read, pages fetched, screenshots taken; decisions recorded. '.repeat(16)}`;

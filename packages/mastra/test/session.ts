/**
 * A scripted agent session for a real Mastra `Agent`: an AI SDK test model (`MockLanguageModelV3`
 * from `ai/test`) that plays an agent reading files in parallel rounds, a `read_file` and a
 * `screenshot` tool made with `createTool`, and a provider-side token count (o200k text, OpenAI's
 * image formula) with which the model rejects requests over its window as a real provider would.
 * Shared by the tests and `pnpm bench`.
 */
import { createTool } from '@mastra/core/tools';
import { imageTokens } from '@spillway/core';
import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { z } from 'zod';

/** One user turn: the ask, the parallel read rounds the agent makes, and its answer. */
export interface SessionTurn {
  user: string;
  /** Per round, the files read in parallel (path and size in characters). */
  rounds: readonly (readonly { path: string; chars: number }[])[];
  /** Take a screenshot (an image tool result) in the first round. */
  screenshot?: boolean;
  answer: string;
  /**
   * A read-back turn instead of reads: the model searches the conversation for this text with
   * `spillway_recall`, reads the first tool result found page by page, and answers with the pages
   * joined (the original, if read back byte for byte).
   */
  recall?: string;
}

/** A source file of about `chars` characters, the same for the same path every time. */
export function sourceFile(path: string, chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let line = 1; length < chars; line++) {
    const text = `export function handler${line}(input: Request): Response { return route(input, '${path}', ${line * 7919}); }`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

/** A PNG of `width`×`height` (a real header; the rest is filler), `bytes` long, as base64. */
export function screenshotBase64(width: number, height: number, bytes = 6_000, seed = 0): string {
  const data = new Uint8Array(bytes);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(data.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  data.set([8, 2, 0, 0, 0], 24);
  for (let index = 40; index < bytes; index++) data[index] = (index * 31 + seed * 7) & 0xff;
  return Buffer.from(data).toString('base64');
}

/** A deterministic pseudo-random generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The session: `turns` turns, each 1–2 rounds of 2–4 parallel reads of 4–8 KB. With
 * `reportChars`, each answer carries a written report of about that many characters too: a
 * dialogue that grows until it, not the turn's reads, fills the window (the engine summarizes only
 * then; a large turn in progress beside a short dialogue drops old turns from its own requests).
 */
export function toolSession({
  turns,
  seed = 7,
  reportChars = 0,
}: {
  turns: number;
  seed?: number;
  reportChars?: number;
}): SessionTurn[] {
  const random = seededRandom(seed);
  const session: SessionTurn[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const rounds = Array.from({ length: 1 + Math.floor(random() * 2) }, (_, round) =>
      Array.from({ length: 2 + Math.floor(random() * 3) }, (_, index) => ({
        path: `src/t${turn}/r${round}-f${index}.ts`,
        chars: 4_000 + Math.floor(random() * 4_000),
      })),
    );
    session.push({
      user: `Turn ${turn}: review the handlers for ticket TCK-${1000 + turn} and report what changed.`,
      rounds,
      ...(turn % 9 === 4 ? { screenshot: true } : {}),
      answer: `Turn ${turn} done: ${rounds.flat().length} files reviewed, ticket TCK-${1000 + turn} is consistent.${report(turn, reportChars)}`,
    });
  }
  return session;
}

/** A written report of about `chars` characters on a turn's files (empty for 0). */
function report(turn: number, chars: number): string {
  const sentences: string[] = [];
  let length = 0;
  for (let index = 0; length < chars; index++) {
    const sentence = ` Handler ${index + 1} of turn ${turn} routes its input the same way as before, and its tests still cover the error path.`;
    sentences.push(sentence);
    length += sentence.length;
  }
  return sentences.join('');
}

/** The tools the session's agent has. */
export function sessionTools() {
  return {
    read_file: createTool({
      id: 'read_file',
      description: 'Reads a file of the repository.',
      inputSchema: z.object({ path: z.string(), chars: z.number() }),
      execute: async ({ path, chars }) => sourceFile(path, chars),
    }),
    screenshot: createTool({
      id: 'screenshot',
      description: 'Takes a screenshot of the app.',
      inputSchema: z.object({ url: z.string() }),
      execute: async ({ url }) => ({ url, base64: screenshotBase64(1280, 800, 6_000, url.length) }),
      toModelOutput: (output: unknown) => {
        const { url, base64 } = output as { url: string; base64: string };
        return {
          type: 'content' as const,
          value: [
            { type: 'text' as const, text: `Screenshot of ${url}` },
            { type: 'image-data' as const, data: base64, mediaType: 'image/png' },
          ],
        };
      },
    }),
  };
}

let encoder: Tiktoken | undefined;
const counted = new Map<string, number>();

/** Tokens of a text with o200k_base, in pieces (BPE on one long piece is slow in js-tiktoken). */
export function textTokens(text: string): number {
  if (text.length === 0) return 0;
  const known = counted.get(text);
  if (known !== undefined) return known;
  encoder ??= new Tiktoken(o200kBase);
  let count = 0;
  for (let start = 0; start < text.length; start += 2_000) {
    count += encoder.encode(text.slice(start, start + 2_000)).length;
  }
  if (counted.size > 50_000) counted.clear();
  counted.set(text, count);
  return count;
}

/**
 * What a provider would count for a request: every text the prompt and the tool definitions hold
 * (o200k), 4 tokens of framing per message, images by OpenAI's tile formula.
 */
export function providerTokens(prompt: readonly unknown[], tools: unknown): number {
  let tokens = textTokens(JSON.stringify(tools ?? []));
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      tokens += textTokens(value);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    const record = value as Record<string, unknown>;
    const media = typeof record.mediaType === 'string' ? record.mediaType : '';
    if (media.startsWith('image/') && typeof record.data === 'string') {
      tokens += imageTokens({ type: 'image', data: record.data }, { provider: 'openai' });
      return;
    }
    for (const [key, inner] of Object.entries(record)) {
      if (key === 'providerOptions' || key === 'toolCallId' || key === 'type') continue;
      walk(inner);
    }
  };
  for (const message of prompt) {
    tokens += 4;
    walk((message as { content?: unknown }).content);
  }
  return tokens;
}

/** One request the model received. */
export interface RecordedRequest {
  prompt: readonly SessionPromptMessage[];
  /** Provider-side tokens (see {@link providerTokens}). */
  tokens: number;
  /** The turn whose latest ask the request carried, or -1 when it carried no known ask. */
  turn: number;
  /** Ids of the tool calls the model made earlier in the same turn (the run in progress). */
  runCalls: readonly string[];
  rejected: boolean;
}

/** A prompt message as the model reads it (V3). */
export interface SessionPromptMessage {
  role: string;
  content: string | readonly { type: string; [key: string]: unknown }[];
}

/** Options of {@link sessionModel}. */
export interface SessionModelOptions {
  session: readonly SessionTurn[];
  /** Requests over this many provider tokens are rejected with a "prompt is too long" error. */
  contextWindow: number;
  /** Answers a summarizer call (a prompt without tools whose system asks for a summary). */
  summarize?: (prompt: readonly SessionPromptMessage[]) => string | Promise<string>;
}

/**
 * The scripted agent. It reads the latest user message of each request to know the turn, counts
 * the tool rounds the request shows after it, and calls the next round's tools (or answers when
 * every round is there). A request that lost the run's earlier rounds makes it call them again,
 * as a real model would; a request over the window is rejected as a provider would.
 */
export function sessionModel({ session, contextWindow, summarize }: SessionModelOptions) {
  const byAsk = new Map(session.map((turn, index) => [turn.user, index]));
  const requests: RecordedRequest[] = [];
  /** Per turn, the ids of every tool call the model has made. */
  const calls = new Map<number, string[]>();
  let callCounter = 0;
  const usage = (input: number) => ({
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 40, text: 40, reasoning: undefined },
  });

  const respond = async (options: { prompt: unknown; tools?: unknown }) => {
    const prompt = options.prompt as SessionPromptMessage[];
    if (summarize !== undefined && isSummaryPrompt(prompt, options.tools)) {
      return { content: [{ type: 'text', text: await summarize(prompt) }], finish: 'stop', input: 0 };
    }
    const latestUser = [...prompt].reverse().find((message) => message.role === 'user');
    const turn = latestUser === undefined ? -1 : askedTurn(latestUser, byAsk);
    const tokens = providerTokens(prompt, options.tools);
    const runCalls = turn < 0 ? [] : [...(calls.get(turn) ?? [])];
    const rejected = tokens > contextWindow;
    requests.push({ prompt, tokens, turn, runCalls, rejected });
    if (rejected) {
      throw new APICallError({
        message: `prompt is too long: ${tokens} tokens > ${contextWindow} maximum`,
        url: 'https://provider.test/v1/messages',
        requestBodyValues: {},
        statusCode: 400,
        responseBody: JSON.stringify({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: `prompt is too long: ${tokens} tokens > ${contextWindow} maximum`,
          },
        }),
        isRetryable: false,
      });
    }
    if (turn < 0)
      return {
        content: [{ type: 'text', text: 'What would you like me to do?' }],
        finish: 'stop',
        input: tokens,
      };
    const spec = session[turn]!;
    const userIndex = prompt.lastIndexOf(latestUser!);
    if (spec.recall !== undefined) return readBack(spec.recall, prompt.slice(userIndex + 1), turn, tokens);
    const roundsShown = prompt
      .slice(userIndex + 1)
      .filter(
        (message) =>
          message.role === 'assistant' && partsOf(message).some((part) => part.type === 'tool-call'),
      ).length;
    if (roundsShown < spec.rounds.length) {
      const round = spec.rounds[roundsShown]!;
      const content: unknown[] = round.map((file) => ({
        type: 'tool-call',
        toolCallId: `call-${turn}-${++callCounter}`,
        toolName: 'read_file',
        input: JSON.stringify({ path: file.path, chars: file.chars }),
      }));
      if (spec.screenshot === true && roundsShown === 0) {
        content.push({
          type: 'tool-call',
          toolCallId: `call-${turn}-${++callCounter}`,
          toolName: 'screenshot',
          input: JSON.stringify({ url: `https://app.local/${turn}` }),
        });
      }
      const made = calls.get(turn) ?? [];
      for (const part of content) made.push((part as { toolCallId: string }).toolCallId);
      calls.set(turn, made);
      return { content, finish: 'tool-calls', input: tokens };
    }
    return { content: [{ type: 'text', text: spec.answer }], finish: 'stop', input: tokens };
  };

  /** The read-back turn's next move: search, read a page, read the next one, or answer. */
  const readBack = (pattern: string, run: readonly SessionPromptMessage[], turn: number, tokens: number) => {
    const answers = run
      .flatMap((message) => partsOf(message))
      .filter((part) => part.type === 'tool-result' && part.toolName === 'spillway_recall')
      .map((part) => String((part.output as { value?: unknown }).value ?? ''));
    const call = (input: unknown) => {
      const toolCallId = `call-${turn}-${++callCounter}`;
      calls.set(turn, [...(calls.get(turn) ?? []), toolCallId]);
      return {
        content: [
          { type: 'tool-call', toolCallId, toolName: 'spillway_recall', input: JSON.stringify(input) },
        ],
        finish: 'tool-calls',
        input: tokens,
      };
    };
    if (answers.length === 0) return call({ search: pattern });
    // The first search answer that lists a tool result's reference (`t.…`; a summary's `s.…` match is
    // the call's arguments, not the result). A search that stopped at its time limit first (a busy
    // machine: it may have listed only the summary's match) says how to go on: go on, as a model would.
    const toolRef = /\{"ref":"(t\.[^"]+)","offset":\d+\}: /;
    const found = answers.findIndex((answer) => toolRef.test(answer));
    const goOn =
      found === -1 ? /go on with spillway_recall (\{[^\n]*\})\.\]/.exec(answers.at(-1)!)?.[1] : undefined;
    if (goOn !== undefined) return call(JSON.parse(goOn));
    const [search, ...pages] = answers.slice(Math.max(0, found));
    const ref = found === -1 ? undefined : toolRef.exec(search!)?.[1];
    if (ref === undefined)
      return { content: [{ type: 'text', text: `not found: ${search}` }], finish: 'stop', input: tokens };
    const last = pages.at(-1);
    const next = last === undefined ? 0 : /"offset":(\d+)\}\]$/.exec(last)?.[1];
    if (next !== undefined) return call({ ref, offset: Number(next) });
    const text = pages.map((page) => page.slice(page.indexOf('\n') + 1, page.lastIndexOf('\n'))).join('');
    return { content: [{ type: 'text', text }], finish: 'stop', input: tokens };
  };

  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const { content, finish, input } = await respond(options);
      return {
        content: content as never,
        finishReason: { unified: finish as 'stop', raw: finish },
        usage: usage(input),
        warnings: [],
      };
    },
    doStream: async (options) => {
      const { content, finish, input } = await respond(options);
      const chunks: unknown[] = [];
      for (const [index, part] of (content as { type: string; text?: string }[]).entries()) {
        if (part.type === 'text') {
          chunks.push({ type: 'text-start', id: `t${index}` });
          chunks.push({ type: 'text-delta', id: `t${index}`, delta: part.text });
          chunks.push({ type: 'text-end', id: `t${index}` });
        } else chunks.push(part);
      }
      chunks.push({ type: 'finish', finishReason: { unified: finish, raw: finish }, usage: usage(input) });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }) as never,
      };
    },
  });
  return { model, requests, calls };
}

/** Whether a prompt is a summarizer's (Spillway's default prompt, no tools). */
function isSummaryPrompt(prompt: readonly SessionPromptMessage[], tools: unknown): boolean {
  const system = prompt.find((message) => message.role === 'system');
  return (
    (tools === undefined || (Array.isArray(tools) && tools.length === 0)) &&
    typeof system?.content === 'string' &&
    /summar/i.test(system.content)
  );
}

/** The turn whose ask a user message carries as one of its text parts, or -1. */
export function askedTurn(message: SessionPromptMessage, byAsk: ReadonlyMap<string, number>): number {
  for (const part of partsOf(message)) {
    const turn = part.type === 'text' ? byAsk.get(part.text as string) : undefined;
    if (turn !== undefined) return turn;
  }
  return -1;
}

export function partsOf(message: SessionPromptMessage): readonly { type: string; [key: string]: unknown }[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

export function textOf(message: SessionPromptMessage): string {
  return partsOf(message)
    .filter((part) => part.type === 'text')
    .map((part) => part.text as string)
    .join('\n');
}

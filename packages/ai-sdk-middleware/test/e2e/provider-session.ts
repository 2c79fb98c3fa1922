// biome-ignore-all lint/suspicious/noExplicitAny: one session drives two SDK generations and two providers
/**
 * A 24-turn agent session (ask → tool call → result of 1.5K–40K characters → answer) on a 16K
 * window, through a provider package's real request builder against a loopback that compacts the
 * way the provider documents it when the request asks it to (see `provider-compaction-server.ts`).
 * Records every request, the blocks the provider returned, and what it costs.
 */
import { estimateTokens } from '@spillway/core';
import type { CompactionMiddlewareOptions } from '../../src/index';
import { sourceFile } from '../conversation';
import { responseMessages, startHarness } from './harness';
import {
  blocksIn,
  isSummaryBody,
  liveTokens,
  type ProviderBlock,
  providerReply,
} from './provider-compaction-server';
import type { ProviderTarget } from './provider-targets';

export const SESSION_WINDOW = 16_000;
export const SESSION_TURNS = 24;
export const ask = (turn: number) =>
  `Turn ${turn}: inspect svc-${turn} and tell me if ORD-${turn}-0 went through.`;

/** The agent's report on a turn: long enough that the dialogue alone outgrows the window. */
export function report(turn: number): string {
  const lines = Array.from(
    { length: 24 },
    (_, line) =>
      `svc-${turn} check ${line}: queue depth ${(turn * 37 + line * 11) % 500}, latency p99 ${(turn * 13 + line) % 900}ms, no errors.`,
  );
  return `${lines.join('\n')}\nChecked: it went through.`;
}

function toolOutput(turn: number): string {
  const chars = [1_500, 6_000, 18_000, 40_000][turn % 4]!;
  return sourceFile(`src/service-${turn}.ts`, chars);
}

/** One request of the session, as the provider received it. */
export interface SessionRequest {
  turn: number;
  summary: boolean;
  body: any;
  raw: string;
  /** Tokens of the body (estimated), and what the provider reads of it (after its latest block). */
  tokens: number;
  liveTokens: number;
  /** The blocks the provider had returned before this request, in order. */
  blocksBefore: ProviderBlock[];
  /** The turn through which the provider had compacted before this request (0: none). */
  compactedThrough: number;
}

export interface SessionOptions {
  /** The request's own provider options (the user's context management, `store: false`, …). */
  providerOptions?: Record<string, unknown>;
  middleware?: CompactionMiddlewareOptions;
  turns?: number;
}

export async function runProviderSession(
  target: ProviderTarget,
  { providerOptions = {}, middleware = {}, turns = SESSION_TURNS }: SessionOptions = {},
) {
  const { sdk, kind } = target;
  const blocks: ProviderBlock[] = [];
  const requests: SessionRequest[] = [];
  let turn = 0;
  let compactedThrough = 0;
  const harness = await startHarness(
    target,
    (request, index) => {
      const summary = isSummaryBody(request.raw);
      requests.push({
        turn,
        summary,
        body: request.body,
        raw: request.raw,
        tokens: estimateTokens(request.raw),
        liveTokens: liveTokens(kind, request.body),
        blocksBefore: [...blocks],
        compactedThrough,
      });
      if (summary) {
        return providerReply(kind, request.body, {
          text: 'The user had the agent inspect services and orders; every check was answered.',
          serial: index,
        }).reply;
      }
      const last = kind === 'anthropic' ? request.body.messages.at(-1) : request.body.input.at(-1);
      const answered =
        kind === 'anthropic'
          ? Array.isArray(last.content) && last.content.some((part: any) => part.type === 'tool_result')
          : last.type === 'function_call_output';
      const { reply, block } = providerReply(
        kind,
        request.body,
        answered
          ? { text: report(turn), serial: index }
          : {
              toolCalls: [
                { id: `call-${turn}-${index}`, name: 'inspect', input: { service: `svc-${turn}`, turn } },
              ],
              serial: index,
            },
      );
      if (block !== undefined) {
        blocks.push(block);
        compactedThrough = turn;
      }
      return reply;
    },
    { contextWindow: SESSION_WINDOW, ...middleware },
    { modelId: kind === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-5' },
  );
  const tools = {
    inspect: sdk.tool({
      description: 'Inspects a service: its logs, its orders or its source.',
      inputSchema: sdk.jsonSchema({
        type: 'object',
        properties: { service: { type: 'string' }, turn: { type: 'number' } },
        required: ['service', 'turn'],
      }),
      execute: async ({ turn: asked }: { turn: number }) => toolOutput(asked),
    }),
  };
  const messages: unknown[] = [];
  const texts: string[] = [];
  for (turn = 1; turn <= turns; turn++) {
    messages.push({ role: 'user', content: ask(turn) });
    const result = await sdk.generateText({
      model: harness.model,
      system: 'You are an operations agent. Use the tools before you answer.',
      messages,
      tools,
      stopWhen: sdk.stepCountIs(3),
      maxRetries: 0,
      providerOptions: { ...providerOptions, spillway: { conversationId: `session-${target.name}` } },
    });
    texts.push(result.text);
    messages.push(...responseMessages(result));
    await harness.middleware.compactor.idle();
  }
  const main = requests.filter((request) => !request.summary);
  return {
    harness,
    requests,
    main,
    blocks,
    texts,
    messages,
    /** What the session cost: tokens sent in the bodies, tokens the provider read, summary calls. */
    cost: {
      requests: main.length,
      tokensSent: main.reduce((sum, request) => sum + request.tokens, 0),
      tokensRead: main.reduce((sum, request) => sum + request.liveTokens, 0),
      largestRead: Math.max(...main.map((request) => request.liveTokens)),
      summaryCalls: requests.length - main.length,
      providerCompactions: blocks.length,
    },
  };
}

export { blocksIn };

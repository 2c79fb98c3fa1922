// biome-ignore-all lint/suspicious/noExplicitAny: one test body drives two SDK major versions
/**
 * Issue 25, part 3 through the real SDKs (ai 6 and 7, `generateText` and `streamText` tool loops
 * with the official mock models): the model calls `spillway_compact` (with instructions), and the
 * next request of the same loop is smaller, with the fidelity promises intact: the latest user ask
 * verbatim, the current turn's tool call with its result, no tool call without its result (or the
 * reverse), the pinned rule verbatim, and the summary's reference read back by `spillway_recall`.
 */
import { COMPACT_TOOL_NAME, RECALL_TOOL_NAME } from '@spillway/core';
import { describe, expect, it } from 'vitest';
import { compactionMiddleware } from '../src/index';
import { chatTurn, sourceFile } from './conversation';
import { promptTokens } from './measure';
import { type Sdk, sdks, textChunks, textResult, toolCallResult, usage } from './sdk';

const RULE = 'From now on, always write the tests with vitest and never with jest.';
const NEEDLE = 'The staging database is db-7f3a9c2e, remember it for the migration later.';
const ASK = 'Please compact what we have so far, then check src/auth.ts and tell me which order came first.';
const INSTRUCTIONS = 'Keep every order number (ORD-…) and the staging database name.';
const SOURCE = sourceFile('src/auth.ts', 3_000);

/** Every text the model sees in a V3/V4 prompt, joined. */
function promptText(prompt: any[]): string {
  const texts: string[] = [];
  for (const message of prompt) {
    if (typeof message.content === 'string') texts.push(message.content);
    else {
      for (const part of message.content) {
        if (typeof part.text === 'string') texts.push(part.text);
        if (part.type === 'tool-result' && typeof part.output?.value === 'string')
          texts.push(part.output.value);
      }
    }
  }
  return texts.join('\n');
}

/** The latest tool result in the prompt, as `{ toolName, text }`, if the prompt ends with one. */
function lastResult(prompt: any[]): { toolName: string; text: string } | undefined {
  const last = prompt.at(-1);
  if (last?.role !== 'tool') return undefined;
  const part = last.content.at(-1);
  return { toolName: part.toolName, text: typeof part.output?.value === 'string' ? part.output.value : '' };
}

/** The latest user text in the prompt. */
function latestUserText(prompt: any[]): string | undefined {
  const user = [...prompt].reverse().find((message: any) => message.role === 'user');
  return user?.content
    .filter((part: any) => part.type === 'text')
    .map((part: any) => part.text)
    .join('');
}

/** Tool call ids without a result, and result ids without a call, in a prompt. */
function unpaired(prompt: any[]): string[] {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of prompt) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.add(part.toolCallId);
      if (part.type === 'tool-result') results.add(part.toolCallId);
    }
  }
  return [...calls].filter((id) => !results.has(id)).concat([...results].filter((id) => !calls.has(id)));
}

function history(): unknown[] {
  const messages: unknown[] = [];
  for (let turn = 0; turn < 16; turn++) {
    const [user, assistant] = chatTurn(turn) as [any, any];
    if (turn === 1) user.content = RULE;
    if (turn === 3) user.content = NEEDLE;
    messages.push(user, assistant);
  }
  messages.push({ role: 'user', content: ASK });
  return messages;
}

/** The agent's steps: read a file, compact, read the summary back, answer. */
function nextStep(prompt: any[], found: { ref?: string; recalled?: string; compactAnswer?: string }) {
  const last = lastResult(prompt);
  if (last === undefined) return { call: ['read-1', 'read_file', { path: 'src/auth.ts' }] as const };
  if (last.toolName === 'read_file') {
    return { call: ['compact-1', COMPACT_TOOL_NAME, { instructions: INSTRUCTIONS }] as const };
  }
  if (last.toolName === COMPACT_TOOL_NAME) {
    found.compactAnswer = last.text;
    const ref = /\[ref=(s\.\d+-\d+\.[A-Za-z0-9]{12})/.exec(promptText(prompt))?.[1];
    found.ref = ref;
    return {
      call: ['recall-1', RECALL_TOOL_NAME, { ref: ref ?? 'missing', search: 'staging database is' }] as const,
    };
  }
  found.recalled = last.text;
  return { text: 'ORD-1000 came first.' };
}

function toolCallChunks(toolCallId: string, toolName: string, input: unknown) {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage() },
  ];
}

async function runAgent(sdk: Sdk, mode: 'generate' | 'stream' | 'agent', windowShare = 0.5) {
  const messages = history();
  const summarizerPrompts: any[] = [];
  const summarizer = sdk.createMockModel({
    modelId: 'summarizer',
    doGenerate: async ({ prompt }: any) => {
      summarizerPrompts.push(prompt);
      return textResult(
        'The user asked about orders ORD-1000 to ORD-1010 and the staging database db-7f3a9c2e.',
      );
    },
  });
  // Half the window: over the protected quarter (so there is something to compact), under every
  // threshold (so nothing is compacted unless the model asks).
  const contextWindow = Math.ceil(promptTokens(messages as never) / windowShare);
  const middleware = compactionMiddleware({ contextWindow, summarizer: summarizer as any });
  const prompts: any[][] = [];
  const found: { ref?: string; recalled?: string; compactAnswer?: string } = {};
  const respond = (prompt: any[]) => {
    prompts.push(prompt);
    return nextStep(prompt, found);
  };
  const model = sdk.createMockModel({
    doGenerate: async ({ prompt }: any) => {
      const step = respond(prompt);
      if (step.text !== undefined) return textResult(step.text);
      const [id, name, input] = step.call;
      return toolCallResult(id, name, input);
    },
    doStream: async ({ prompt }: any) => {
      const step = respond(prompt);
      const chunks =
        step.text !== undefined
          ? textChunks(step.text)
          : toolCallChunks(step.call[0], step.call[1], step.call[2]);
      return { stream: sdk.simulateReadableStream({ chunks }) };
    },
  });
  const tools = {
    read_file: sdk.tool({
      description: 'Reads a file.',
      inputSchema: sdk.jsonSchema({ type: 'object', properties: { path: { type: 'string' } } }),
      execute: async () => SOURCE,
    }),
    [COMPACT_TOOL_NAME]: middleware.compactTool(),
    [RECALL_TOOL_NAME]: middleware.recallTool(),
  };
  const options = {
    model: sdk.wrapLanguageModel({ model, middleware }),
    messages,
    tools,
    stopWhen: sdk.stepCountIs(6),
  };
  let text: string;
  if (mode === 'generate') text = (await sdk.generateText(options)).text;
  else if (mode === 'agent') {
    const { messages: input, ...settings } = options;
    text = (await new sdk.ToolLoopAgent(settings).generate({ messages: input })).text;
  } else {
    const result = sdk.streamText(options);
    text = await result.text;
  }
  await middleware.compactor.idle();
  return { text, prompts, found, summarizerPrompts, contextWindow };
}

describe.each(sdks)('$name: spillway_compact', (sdk) => {
  it.each(['generate', 'stream', 'agent'] as const)(
    '%s: the request after the call is smaller, every fidelity promise intact',
    async (mode) => {
      const { text, prompts, found, summarizerPrompts } = await runAgent(sdk, mode);
      expect(text).toBe('ORD-1000 came first.');
      expect(prompts).toHaveLength(4);
      const [, beforeCall, afterCall, afterRecall] = prompts as [any[], any[], any[], any[]];

      // Before the call nothing was compacted: the whole history went out verbatim.
      expect(promptText(beforeCall)).toContain(NEEDLE);
      expect(promptText(beforeCall)).not.toContain('[Summarized:');
      // The next request carries the summary instead, and is much smaller.
      const before = promptTokens(beforeCall);
      const after = promptTokens(afterCall);
      console.log(
        `${sdk.name} ${mode}: request before spillway_compact ${before} tokens, after ${after}; the tool said: ${found.compactAnswer}`,
      );
      expect(after).toBeLessThan(before * 0.75);
      expect(promptText(afterCall)).toMatch(/\[Summarized: messages 1–\d+ of this conversation\] \[ref=s\./);
      // The assistant's old answers are gone (the user's own words may stay beside the summary).
      expect(promptText(beforeCall)).toContain('Answer 2: ');
      expect(promptText(afterCall)).not.toContain('Answer 2: ');

      // The tool's own answer is one short line saying what it freed.
      expect(found.compactAnswer).toMatch(
        /^Compacted: \d+ older messages summarized; the request went from ≈[\d,]+ to ≈[\d,]+ tokens/,
      );
      expect(found.compactAnswer!.length).toBeLessThan(300);
      // The summarizer was given the model's instructions.
      expect(JSON.stringify(summarizerPrompts[0])).toContain(INSTRUCTIONS);

      for (const prompt of [afterCall, afterRecall]) {
        // The latest user ask verbatim.
        expect(latestUserText(prompt)).toBe(ASK);
        // The current turn's calls with their results; no call or result alone.
        expect(unpaired(prompt)).toEqual([]);
        expect(promptText(prompt)).toContain(SOURCE);
        // The standing rule verbatim (beside the summary, in the user's words or the pinned block).
        expect(promptText(prompt)).toContain(RULE);
      }
      // The summary's reference reads back the summarized span.
      expect(found.ref).toBeDefined();
      expect(found.recalled).toContain(NEEDLE);
    },
  );

  it('compacts even when the conversation is far under the window (a 5% share)', async () => {
    const { prompts, found } = await runAgent(sdk, 'generate', 0.05);
    const [, beforeCall, afterCall] = prompts as [any[], any[], any[]];
    expect(found.compactAnswer).toMatch(/^Compacted: /);
    expect(promptTokens(afterCall)).toBeLessThan(promptTokens(beforeCall) * 0.75);
    expect(latestUserText(afterCall)).toBe(ASK);
    expect(unpaired(afterCall)).toEqual([]);
    expect(found.recalled).toContain(NEEDLE);
  });

  it('answers bad input and an unknown call with one line, without compacting', async () => {
    const middleware = compactionMiddleware({ contextWindow: 10_000, summarizer: 'extractive' });
    const tool = middleware.compactTool();
    expect(await tool.execute({ instructions: 42 }, { toolCallId: 'x' })).toMatch(
      /^spillway_compact: nothing was compacted: `instructions` must be a string\.$/,
    );
    expect(await tool.execute({ instructions: 'x'.repeat(2_001) }, { toolCallId: 'x' })).toMatch(
      /at most 2000/,
    );
    expect(await tool.execute({}, { toolCallId: 'never-seen' })).toMatch(/could not find this conversation/);
  });
});

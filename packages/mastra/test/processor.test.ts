// biome-ignore-all lint/suspicious/noExplicitAny: the prompts Mastra hands over are read loosely in assertions
import { MessageList } from '@mastra/core/agent/message-list';
import type { ErrorProcessor, InputProcessor } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { InvalidConfigError } from '@spillway/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { compactionProcessor } from '../src/index';
import { sourceFile } from './session';

/** The arguments Mastra passes to `processLLMRequest`, for a prompt and a model. */
function requestArgs(prompt: unknown[], model: object, state: Record<string, unknown> = {}) {
  return {
    prompt,
    model,
    state,
    stepNumber: 0,
    steps: [],
    retryCount: 0,
    requestContext: new RequestContext(),
    abort: () => {
      throw new Error('aborted');
    },
  } as never;
}

const v3Model = { specificationVersion: 'v3', provider: 'mock-provider', modelId: 'mock-model' };

function toolConversation(turns: number, chars: number) {
  const prompt: unknown[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let turn = 0; turn < turns; turn++) {
    prompt.push({ role: 'user', content: [{ type: 'text', text: `Turn ${turn}: read src/${turn}.ts` }] });
    prompt.push({
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: `c${turn}`,
          toolName: 'read_file',
          input: { path: `src/${turn}.ts` },
        },
      ],
    });
    prompt.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `c${turn}`,
          toolName: 'read_file',
          output: { type: 'text', value: sourceFile(`src/${turn}.ts`, chars) },
          input: { path: `src/${turn}.ts` },
          providerOptions: { mastra: { createdAt: turn } },
        },
      ],
    });
    prompt.push({ role: 'assistant', content: [{ type: 'text', text: `Done ${turn}.` }] });
  }
  prompt.push({
    role: 'user',
    content: [{ type: 'text', text: 'And now?' }],
    providerOptions: { app: { id: 7 } },
  });
  return prompt;
}

describe('compactionProcessor', () => {
  it('is an input processor and an error processor as Mastra types them', () => {
    const processor = compactionProcessor();
    expectTypeOf(processor).toExtend<InputProcessor>();
    expectTypeOf(processor).toExtend<ErrorProcessor>();
    expect(processor.id).toBe('spillway');
    expect(compactionProcessor({ id: 'second' }).id).toBe('second');
  });

  it.each([
    [{ id: '' }, 'id'],
    [{ maxOverflowRetries: -1 }, 'maxOverflowRetries'],
    [{ waitUntil: 3 }, 'waitUntil'],
    [{ dataParts: 'yes' }, 'dataParts'],
    [{ summarizer: 42 }, 'summarizer'],
    [{ contextWindow: -5 }, 'contextWindow'],
  ])('names the bad option %j', (options, option) => {
    try {
      compactionProcessor(options as never);
      expect.unreachable();
    } catch (error) {
      expect(InvalidConfigError.isInstance(error)).toBe(true);
      expect((error as InvalidConfigError).option).toBe(option);
    }
  });

  it('lets a request under the threshold go out as Mastra built it (no new prompt)', async () => {
    const processor = compactionProcessor({ contextWindow: 128_000, summarizer: 'extractive' });
    const prompt = toolConversation(3, 2_000);
    expect(await processor.processLLMRequest(requestArgs(prompt, v3Model))).toBeUndefined();
  });

  it('a window the model object declares comes after contextWindow and contextWindows', async () => {
    const prompt = toolConversation(8, 3_000);
    const declaring = (contextWindow: number) => ({ ...v3Model, contextWindow });
    // The application's 8K entry wins over the model's own 1M: the request is compacted.
    const byEntry = compactionProcessor({
      contextWindows: { 'mock-model': 8_000 },
      summarizer: 'extractive',
    });
    expect(await byEntry.processLLMRequest(requestArgs(prompt, declaring(1_000_000)))).toBeDefined();
    const byOption = compactionProcessor({ contextWindow: 8_000, summarizer: 'extractive' });
    expect(await byOption.processLLMRequest(requestArgs(prompt, declaring(1_000_000)))).toBeDefined();
    // With neither, the model's own window sizes it: 8K compacts, 1M lets it through.
    const small = compactionProcessor({ summarizer: 'extractive' });
    expect(await small.processLLMRequest(requestArgs(prompt, declaring(8_000)))).toBeDefined();
    const large = compactionProcessor({ summarizer: 'extractive' });
    expect(await large.processLLMRequest(requestArgs(prompt, declaring(1_000_000)))).toBeUndefined();
  });

  it('returns every message it did not change as the very same object, and keeps fields it does not know', async () => {
    const processor = compactionProcessor({ contextWindow: 8_000, summarizer: 'extractive' });
    const prompt = toolConversation(8, 3_000);
    const result = (await processor.processLLMRequest(requestArgs(prompt, v3Model))) as { prompt: any[] };
    expect(result?.prompt).toBeDefined();
    const sent = result.prompt;
    expect(sent).not.toEqual(prompt);
    const kept = sent.filter((message) => prompt.includes(message));
    expect(kept.length).toBeGreaterThan(0);
    // The latest ask is the caller's own object, provider options and all.
    expect(sent.at(-1)).toBe(prompt.at(-1));
    // A shortened tool result keeps its call id, Mastra's `input` and provider options.
    const shortened = sent
      .filter((message) => message.role === 'tool' && !prompt.includes(message))
      .flatMap((message) => message.content);
    for (const part of shortened) {
      expect(part.input).toEqual({ path: expect.stringMatching(/^src\//) });
      expect(part.providerOptions).toEqual({ mastra: { createdAt: expect.any(Number) } });
    }
  });

  it('keeps the shapes of an AI SDK 5 (V2) model: a capped result as V2 text, untouched `media` items as they were', async () => {
    const processor = compactionProcessor({
      contextWindow: 6_000,
      summarizer: 'extractive',
      toolResultMaxChars: 2_000,
    });
    const png = Buffer.from(new Uint8Array(3_000).fill(7)).toString('base64');
    const prompt: unknown[] = [
      { role: 'user', content: [{ type: 'text', text: 'Take a screenshot and read the log.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 's', toolName: 'shot', input: {} },
          { type: 'tool-call', toolCallId: 'l', toolName: 'log', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 's',
            toolName: 'shot',
            output: {
              type: 'content',
              value: [
                { type: 'text', text: 'shot' },
                { type: 'media', data: png, mediaType: 'image/png' },
              ],
            },
          },
          {
            type: 'tool-result',
            toolCallId: 'l',
            toolName: 'log',
            output: { type: 'text', value: 'x'.repeat(9_000) },
          },
        ],
      },
    ];
    const v2Model = { specificationVersion: 'v2', provider: 'mock', modelId: 'm' };
    const result = (await processor.processLLMRequest(requestArgs(prompt, v2Model))) as { prompt: any[] };
    const [shot, log] = result.prompt[2].content;
    // The capped log is V2 text; the screenshot's content (untouched) is still V2 `media`.
    expect(log.output.type).toBe('text');
    expect(log.output.value.length).toBeLessThan(9_000);
    expect(shot).toBe((prompt[2] as any).content[0]);
  });

  it('adds the thread messages memory did not load (as memory messages), and leaves the list alone when memory fails', async () => {
    const dbMessage = (id: string, role: 'user' | 'assistant' | 'system', text: string, minute: number) => ({
      id,
      role,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, minute)),
      threadId: 't',
      resourceId: 'r',
      content: { format: 2 as const, parts: [{ type: 'text' as const, text }] },
    });
    const thread = [
      dbMessage('m1', 'user', 'first ask', 1),
      dbMessage('m2', 'assistant', 'first answer', 2),
      dbMessage('s1', 'system', 'not history', 3),
      dbMessage('m3', 'user', 'second ask', 4),
    ];
    const requestContext = new RequestContext();
    requestContext.set('MastraMemory', { thread: { id: 't' }, resourceId: 'r' });
    const run = async (memory: { recall(): Promise<{ messages: unknown[] }> }) => {
      const list = new MessageList({ threadId: 't', resourceId: 'r' });
      list.add([thread[3]!] as never, 'memory');
      list.add('third ask', 'input');
      await compactionProcessor({ memory: memory as never }).processInput({
        messageList: list,
        messages: list.get.input.db(),
        systemMessages: [],
        state: {},
        requestContext,
        retryCount: 0,
        abort: () => {
          throw new Error('aborted');
        },
      } as never);
      return list;
    };
    const loaded = await run({ recall: async () => ({ messages: thread }) });
    expect(
      loaded.get.all
        .db()
        .map((message) => message.id)
        .slice(0, 3),
    ).toEqual(['m1', 'm2', 'm3']);
    expect(loaded.get.all.db().some((message) => message.id === 's1')).toBe(false);
    // Nothing added is new input or response: Mastra's memory saves only those.
    expect(loaded.get.input.db()).toHaveLength(1);
    const failing = await run({
      recall: async () => {
        throw new Error('storage down');
      },
    });
    expect(failing.get.all.db().map((message) => message.id)[0]).toBe('m3');
  });
});

import { describe, expect, it } from 'vitest';
import { compactionMiddleware, forwardCompactionEvents } from '../src/index';
import { chatTurn } from './conversation';
import { sdks, textChunks } from './sdk';

describe.each(sdks)('$name: compaction events in a UI message stream', (sdk) => {
  it('writes "Optimizing conversation context…" and its completion as data parts next to the text', async () => {
    const middleware = compactionMiddleware({ contextWindow: 12_000, summarizer: 'extractive' });
    const model = sdk.createMockModel({
      doStream: async () => ({
        stream: sdk.simulateReadableStream({ chunks: textChunks('All good.', 100) }),
      }),
    });
    const messages: unknown[] = [];
    for (let turn = 1; turn <= 30; turn++) messages.push(...chatTurn(turn));
    messages.push({ role: 'user', content: 'Where do we stand?' });

    const stream = sdk.createUIMessageStream({
      // biome-ignore lint/suspicious/noExplicitAny: the writer of either version
      execute: async ({ writer }: { writer: any }) => {
        const stop = forwardCompactionEvents({ middleware, writer, conversationId: 'chat-1' });
        const result = sdk.streamText({
          model: sdk.wrapLanguageModel({ model, middleware }),
          messages,
          providerOptions: { spillway: { conversationId: 'chat-1' } },
        });
        writer.merge(result.toUIMessageStream());
        await result.consumeStream();
        stop();
      },
    });
    const chunks: { type: string; id?: string; data?: { status: string; message: string } }[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<(typeof chunks)[number]>) chunks.push(chunk);

    const data = chunks.filter((chunk) => chunk.type === 'data-spillway');
    const statuses = data.map((chunk) => chunk.data?.status);
    expect(statuses).toContain('compacting');
    expect(statuses).toContain('compacted');
    expect(data.find((chunk) => chunk.data?.status === 'compacting')?.data?.message).toBe(
      'Optimizing conversation context…',
    );
    // The indicator updates in place: start and end share an id.
    const ids = new Set(
      data.filter((chunk) => chunk.data?.status.startsWith('compact')).map((chunk) => chunk.id),
    );
    expect(ids.size).toBe(1);
    // Compaction came first; the answer streamed after it.
    const firstText = chunks.findIndex((chunk) => chunk.type === 'text-delta');
    expect(firstText).toBeGreaterThan(chunks.indexOf(data[0]!));
  });

  it('writes "Conversation history has been automatically trimmed" when older messages leave the request', async () => {
    const middleware = compactionMiddleware({
      contextWindow: 8_000,
      summarizer: () => {
        throw new Error('no summaries today');
      },
    });
    const model = sdk.createMockModel({
      doStream: async () => ({ stream: sdk.simulateReadableStream({ chunks: textChunks('ok', 100) }) }),
    });
    const messages: unknown[] = [];
    for (let turn = 1; turn <= 30; turn++) messages.push(...chatTurn(turn));
    messages.push({ role: 'user', content: 'Where do we stand?' });
    const written: { type: string; data: { status: string; message: string } }[] = [];
    const stop = forwardCompactionEvents({ middleware, writer: { write: (part) => written.push(part) } });
    await sdk.streamText({ model: sdk.wrapLanguageModel({ model, middleware }), messages }).consumeStream();
    stop();
    expect(written.map((part) => part.data.message)).toContain(
      'Conversation history has been automatically trimmed',
    );
    // After stop(), nothing more is written.
    const count = written.length;
    await sdk.streamText({ model: sdk.wrapLanguageModel({ model, middleware }), messages }).consumeStream();
    expect(written).toHaveLength(count);
  });
});

import { ConversationChain } from '@langchain/classic/chains';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { extractiveSummarizer } from '@spillway/core';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CompactingChatMessageHistory } from '../../src/history/compacting-chat-message-history';
import { CompactionMemory } from '../../src/memory/compaction-memory';
import { compactionMiddleware } from '../../src/middleware/compaction-middleware';
import { startLoopbackServer } from './loopback-server';
import { providers } from './providers';

/**
 * What the real LangChain integrations of Anthropic, OpenAI, Google and Bedrock put on the wire when
 * each entry point compacts a conversation inside a prompt that has its own system prompt: one
 * system prompt, where the provider wants it, and user/assistant turns that alternate, user first.
 */

const WINDOW = 3000;
const SYSTEM_PROMPT = 'You are a careful assistant. Answer briefly.';
const SUMMARY_HEADING = 'Summary of the earlier conversation';

function turnText(turn: number): string {
  return `Turn ${turn}: tell me about /docs/topic-${turn}.md. ${'Some context about the topic. '.repeat(35)}`;
}

describe.each(providers)('$name', (provider) => {
  let server: Awaited<ReturnType<typeof startLoopbackServer>>;
  beforeAll(async () => {
    // The usage the API reports: about what the request holds (the adapters calibrate from it).
    server = await startLoopbackServer(
      (request) => provider.answer('Noted.', Math.ceil(JSON.stringify(request.body).length / 4)),
      { http2: provider.http2 ?? false },
    );
  });
  afterAll(() => server.close());

  const bodies = (from: number) => server.requests.slice(from).map((request) => request.body);

  test('createAgent + compactionMiddleware: the summary goes into the one system prompt', async () => {
    const from = server.requests.length;
    const agent = createAgent({
      model: provider.model(server.origin),
      tools: [],
      systemPrompt: SYSTEM_PROMPT,
      middleware: [compactionMiddleware({ contextWindow: WINDOW, summarizer: extractiveSummarizer })],
    });
    const history: BaseMessage[] = Array.from({ length: 12 }, (_, turn) => [
      new HumanMessage(turnText(turn)),
      new AIMessage(`Noted topic ${turn}.`),
    ]).flat();
    const result = await agent.invoke({ messages: [...history, new HumanMessage('And now?')] });
    expect(result.messages.at(-1)!.text).toBe('Noted.');
    const [body] = bodies(from);
    const { system, firstUser } = provider.check(body);
    expect(system).toContain(SUMMARY_HEADING);
    expect(system).toContain(SYSTEM_PROMPT);
    expect(system.indexOf(SUMMARY_HEADING)).toBeLessThan(system.indexOf(SYSTEM_PROMPT));
    expect(firstUser).not.toContain(SUMMARY_HEADING);
  });

  test("createAgent + compactionMiddleware({ summaryPlacement: 'user' }): the summary opens the first user turn", async () => {
    const from = server.requests.length;
    const agent = createAgent({
      model: provider.model(server.origin),
      tools: [],
      systemPrompt: SYSTEM_PROMPT,
      middleware: [
        compactionMiddleware({
          contextWindow: WINDOW,
          summarizer: extractiveSummarizer,
          summaryPlacement: 'user',
        }),
      ],
    });
    const history: BaseMessage[] = Array.from({ length: 12 }, (_, turn) => [
      new HumanMessage(turnText(turn)),
      new AIMessage(`Noted topic ${turn}.`),
    ]).flat();
    await agent.invoke({ messages: [...history, new HumanMessage('And now?')] });
    const { system, firstUser } = provider.check(bodies(from)[0]);
    expect(system).toBe(SYSTEM_PROMPT);
    expect(firstUser.startsWith(SUMMARY_HEADING)).toBe(true);
  });

  test('RunnableWithMessageHistory + ChatPromptTemplate with a system prompt + CompactingChatMessageHistory', async () => {
    const from = server.requests.length;
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', SYSTEM_PROMPT],
      new MessagesPlaceholder('history'),
      ['human', '{question}'],
    ]);
    const history = new CompactingChatMessageHistory({
      history: new InMemoryChatMessageHistory(),
      conversationId: `history ${provider.name}`,
      contextWindow: WINDOW,
      summarizer: extractiveSummarizer,
    });
    const chain = new RunnableWithMessageHistory({
      runnable: prompt.pipe(provider.model(server.origin)),
      getMessageHistory: () => history,
      inputMessagesKey: 'question',
      historyMessagesKey: 'history',
    });
    for (let turn = 0; turn < 14; turn++) {
      await chain.invoke({ question: turnText(turn) }, { configurable: { sessionId: 'provider' } });
    }
    const sent = bodies(from);
    expect(sent).toHaveLength(14);
    for (const body of sent) expect(provider.check(body).system).toBe(SYSTEM_PROMPT);
    expect(provider.check(sent.at(-1)).firstUser.startsWith(SUMMARY_HEADING)).toBe(true);
  });

  test('ConversationChain + ChatPromptTemplate with a system prompt + CompactionMemory', async () => {
    const from = server.requests.length;
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', SYSTEM_PROMPT],
      new MessagesPlaceholder('history'),
      ['human', '{input}'],
    ]);
    const memory = new CompactionMemory({
      conversationId: `memory ${provider.name}`,
      contextWindow: WINDOW,
      returnMessages: true,
      summarizer: extractiveSummarizer,
    });
    const chain = new ConversationChain({ llm: provider.model(server.origin), memory, prompt });
    for (let turn = 0; turn < 14; turn++) await chain.invoke({ input: turnText(turn) });
    const sent = bodies(from);
    expect(sent).toHaveLength(14);
    for (const body of sent) expect(provider.check(body).system).toBe(SYSTEM_PROMPT);
    expect(provider.check(sent.at(-1)).firstUser.startsWith(SUMMARY_HEADING)).toBe(true);
  });
});

/**
 * A LangChain `createAgent` session whose tool returns big outputs, kept inside a 16,000-token
 * window by `compactionMiddleware` from @spillway/langchain-memory. Prints, turn by turn, what the
 * agent state holds and what the model was actually sent, with the compaction events as they happen.
 *
 * Offline by default: LangChain's `fakeModel` plays the agent and the summary model. With
 * OPENAI_API_KEY set, a real model (OPENAI_MODEL, default gpt-4.1-mini) does both. The last turn is
 * streamed with `streamMode: "messages"`, as a chat UI would, after a manual `compact()`.
 *
 * Exits non-zero if a prompt went over the window, the agent state lost or altered a message, or a
 * summary's tokens reached the stream.
 */
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import { type CompactionEvent, createEstimator } from '@spillway/core';
import { COMPACTION_STATE_KEY, compactionMiddleware, toNeutralMessages } from '@spillway/langchain-memory';
import { createAgent, createMiddleware, fakeModel } from 'langchain';
import { z } from 'zod/v4';

const CONTEXT_WINDOW = 16_000;
const TURNS = 24;
const estimator = createEstimator();
const tokensOf = (messages: readonly BaseMessage[]) => estimator.countMessages(toNeutralMessages(messages));

/** A deterministic "file": 2,000 to 24,000 characters of source-like text. */
function fileContent(path: string): string {
  let hash = 7;
  for (const character of path)
    hash = (Math.imul(hash ^ character.charCodeAt(0), 2654435761) >>> 0) % 1_000_003;
  const size = 2000 + (hash % 22_000);
  const lines = [`// ${path}`];
  for (let line = 1; lines.join('\n').length < size; line++) {
    lines.push(`export const value${line} = compute(${(hash * line) % 100_000}, 'item-${line}');`);
  }
  return lines.join('\n').slice(0, size);
}

const readFile = tool(async ({ path }: { path: string }) => fileContent(path), {
  name: 'read_file',
  description: 'Reads a file of the project and returns its content.',
  schema: z.object({ path: z.string().describe('Path of the file, e.g. src/module-3.ts') }),
});

/** The offline agent model: reads the file the user names, then reports on it. */
function scriptedModel() {
  const model = fakeModel();
  for (let call = 0; call < TURNS * 2 + 20; call++) {
    model.respond((messages: BaseMessage[]) => {
      const last = messages[messages.length - 1];
      if (last !== undefined && ToolMessage.isInstance(last)) {
        const content = String(last.content);
        return new AIMessage(
          `${content.split('\n', 1)[0]?.slice(3)} exports ${content.split('\n').length - 1} values.`,
        );
      }
      const path = /src\/module-\d+\.ts/.exec(String(last?.content))?.[0] ?? 'src/index.ts';
      return new AIMessage({
        content: '',
        tool_calls: [{ id: `call-${call}`, name: 'read_file', args: { path }, type: 'tool_call' }],
      });
    });
  }
  return model;
}

/** The offline summary model: a short summary naming the files read so far. */
function summaryModel() {
  const model = fakeModel();
  for (let call = 0; call < 200; call++) {
    model.respond((messages: BaseMessage[]) => {
      const text = messages.map((message) => message.text).join('\n');
      const files = [...new Set(text.match(/src\/module-\d+\.ts/g) ?? [])];
      return new AIMessage(
        `SUMMARY: the user had ${files.length} files read (${files.join(', ')}); each was read with read_file and its exports reported.`,
      );
    });
  }
  return model;
}

const online = Boolean(process.env.OPENAI_API_KEY);
const model = online
  ? new ChatOpenAI({ model: process.env.OPENAI_MODEL ?? 'gpt-4.1-mini' })
  : scriptedModel();

// What each model call was sent, measured after the compaction middleware (it runs outermost).
const sentTokens: number[] = [];
const measure = createMiddleware({
  name: 'MeasurePrompt',
  wrapModelCall: (request, handler) => {
    sentTokens.push(tokensOf([request.systemMessage, ...request.messages]));
    return handler(request);
  },
});

const events: CompactionEvent[] = [];
const compaction = compactionMiddleware({
  contextWindow: CONTEXT_WINDOW,
  // Offline, a fake summary model; online, the agent's own model writes the summaries.
  ...(online ? {} : { model: summaryModel() }),
  onEvent: (event) => events.push(event),
});
const agent = createAgent({
  model,
  tools: [readFile],
  systemPrompt: 'You are a careful coding assistant. Read the files the user names and say what they export.',
  middleware: [compaction, measure],
  checkpointer: new MemorySaver(),
});

const config = { configurable: { thread_id: 'example' } };
console.log(
  `${online ? `Real model (${(model as ChatOpenAI).model})` : 'Offline (fakeModel)'}: ${TURNS} turns, window ${CONTEXT_WINDOW.toLocaleString('en-US')} tokens\n`,
);
console.log('turn | messages in state | tokens in state | largest prompt sent | what happened');
console.log('-----|-------------------|-----------------|---------------------|--------------');
let failures = 0;
let streamed = '';
let manual: Awaited<ReturnType<typeof compaction.compact>> | undefined;
for (let turn = 0; turn < TURNS; turn++) {
  const before = sentTokens.length;
  const eventStart = events.length;
  const input = {
    messages: [new HumanMessage(`Please read src/module-${turn}.ts and tell me what it exports.`)],
  };
  if (turn < TURNS - 1) await agent.invoke(input, config);
  else {
    // The last turn as a chat UI runs it: "compact now" first, then stream the answer token by token.
    const { values } = (await agent.graph.getState(config)) as { values: { messages: BaseMessage[] } };
    manual = await compaction.compact({ messages: values.messages, threadId: 'example' });
    for await (const [chunk] of await agent.stream(input, { ...config, streamMode: 'messages' })) {
      streamed += (chunk as BaseMessage).text;
    }
  }
  const snapshot = (await agent.graph.getState(config)) as { values: { messages: BaseMessage[] } };
  const largest = Math.max(...sentTokens.slice(before));
  const happened = events
    .slice(eventStart)
    .map((event) => {
      if (event.type === 'compaction-end')
        return `summary (${event.reason}) ${event.tokensBefore}→${event.tokensAfter} tokens`;
      if (event.type === 'truncation') return `${event.records.length} tool result(s) shortened`;
      if (event.type === 'emergency-truncation')
        return `${event.droppedCount} oldest dropped from the request`;
      if (event.type === 'compaction-failed') return 'summary failed, fell back';
      return undefined;
    })
    .filter(Boolean)
    .join('; ');
  const stateTokens = tokensOf(snapshot.values.messages);
  console.log(
    `${String(turn + 1).padStart(4)} | ${String(snapshot.values.messages.length).padStart(17)} | ${stateTokens
      .toLocaleString('en-US')
      .padStart(15)} | ${largest.toLocaleString('en-US').padStart(19)} | ${happened}`,
  );
  if (largest >= CONTEXT_WINDOW) failures++;
}

const final = (await agent.graph.getState(config)) as {
  values: { messages: BaseMessage[]; [COMPACTION_STATE_KEY]?: { coveredCount: number; summaries: string[] } };
};
const kept = final.values.messages.length;
const compactionState = final.values[COMPACTION_STATE_KEY];
console.log(
  `\nThe agent state keeps all ${kept} messages (${tokensOf(final.values.messages).toLocaleString('en-US')} tokens); ` +
    `the summary in the checkpoint covers the first ${compactionState?.coveredCount ?? 0}.`,
);
console.log(
  `Largest prompt sent: ${Math.max(...sentTokens).toLocaleString('en-US')} tokens of ${CONTEXT_WINDOW.toLocaleString('en-US')}.`,
);
if (compactionState)
  console.log(`\nSummary (first 400 characters):\n${compactionState.summaries.at(-1)?.slice(0, 400)}…`);
if (manual) {
  console.log(
    `\ncompact() before the last turn: ${manual.compacted ? 'made a summary' : 'nothing older to summarize'}, covering ${manual.coveredCount} messages, ${manual.tokensBefore.toLocaleString('en-US')} → ${manual.tokensAfter.toLocaleString('en-US')} tokens.`,
  );
}
console.log(
  `Streamed to the app on the last turn (streamMode "messages"): ${JSON.stringify(streamed.slice(0, 160))}`,
);
// The summary model's tokens never reach the stream.
const leaked =
  streamed.includes('SUMMARY:') ||
  (compactionState?.summaries ?? []).some((summary) => streamed.includes(summary.slice(0, 40)));

// Offline, every tool result in the state must still be the whole file the tool returned.
const altered =
  !online &&
  final.values.messages.some(
    (message) =>
      ToolMessage.isInstance(message) &&
      message.content !== fileContent(/^\/\/ (\S+)/.exec(String(message.content))?.[1] ?? ''),
  );
const lost = (!online && kept !== TURNS * 4) || altered;
if (failures > 0 || lost || leaked || (!online && compactionState === undefined)) {
  console.error(
    `\nFAILED: ${failures} prompt(s) over the window${lost ? '; messages were lost or altered' : ''}${leaked ? '; summary tokens reached the stream' : ''}.`,
  );
  process.exit(1);
}
console.log(
  '\nOK: every prompt fit the window, no message was lost, and no summary token reached the stream.',
);

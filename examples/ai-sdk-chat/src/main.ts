/**
 * A long agent session through `streamText` with Spillway's middleware: 64 turns of file reads, a
 * 200 KB web page and screenshots, in a 32,000-token window. Offline by default (a scripted model
 * from `ai/test` and the extractive summarizer); with OPENAI_API_KEY or ANTHROPIC_API_KEY set it
 * uses that provider. Prints, per turn, the context before and after Spillway and the compaction
 * events; ends with the input tokens sent versus without Spillway. Exits non-zero if a prompt ever
 * exceeded the window, a turn failed, or nothing was ever compacted.
 */
import { anthropic } from '@ai-sdk/anthropic';
import { openai } from '@ai-sdk/openai';
import {
  type CompactionMiddlewareOptions,
  type ContextUsage,
  compactionMiddleware,
} from '@spillway/ai-sdk-middleware';
import type { CompactionEvent } from '@spillway/core';
import {
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  streamText,
  tool,
  wrapLanguageModel,
} from 'ai';
import { scriptedModel } from './scripted-model';
import { screenshot, sourceFile, userRequest, webPage } from './workspace';

const TURNS = 64;
const CONTEXT_WINDOW = 32_000;
const CONVERSATION_ID = 'demo-session';
const SYSTEM = 'You are a careful coding agent. Use the tools to look before you answer. Keep answers short.';

function chooseModel(): {
  label: string;
  model: LanguageModel;
  summarizer: CompactionMiddlewareOptions['summarizer'];
} {
  if (process.env.OPENAI_API_KEY)
    return { label: 'OpenAI gpt-4o-mini', model: openai('gpt-4o-mini'), summarizer: undefined };
  if (process.env.ANTHROPIC_API_KEY) {
    return {
      label: 'Anthropic claude-haiku-4-5',
      model: anthropic('claude-haiku-4-5'),
      summarizer: undefined,
    };
  }
  return {
    label: 'offline scripted model (ai/test), extractive summarizer',
    model: scriptedModel(),
    summarizer: 'extractive',
  };
}

const { label, model: baseModel, summarizer } = chooseModel();
const events: CompactionEvent[] = [];
const usages: ContextUsage[] = [];
const middleware = compactionMiddleware({
  contextWindow: CONTEXT_WINDOW,
  summarizer,
  onEvent: (event) => events.push(event),
  onContextUsage: (usage) => usages.push(usage),
});
const model = wrapLanguageModel({ model: baseModel as never, middleware });

let pagesFetched = 0;
const tools = {
  read_file: tool({
    description: 'Read a file of the repository.',
    inputSchema: jsonSchema<{ path: string }>({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    }),
    execute: async ({ path }) => sourceFile(path, 6_000 + (path.length % 7) * 1_000),
  }),
  fetch_page: tool({
    description: 'Fetch a web page.',
    inputSchema: jsonSchema<{ url: string }>({
      type: 'object',
      properties: { url: { type: 'string' } },
      required: ['url'],
    }),
    // The first page is a 200 KB one.
    execute: async ({ url }) => webPage(url, pagesFetched++ === 0 ? 200_000 : 12_000),
  }),
  screenshot: tool({
    description: 'Take a screenshot of a page.',
    inputSchema: jsonSchema<{ url: string }>({
      type: 'object',
      properties: { url: { type: 'string' } },
      required: ['url'],
    }),
    execute: async ({ url }) => ({ url, png: screenshot(url.length) }),
    toModelOutput: ({ output }) => ({
      type: 'content',
      value: [
        { type: 'text', text: `Screenshot of ${output.url} (1280x800)` },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: output.png } },
      ],
    }),
  }),
};

const format = (tokens: number) => Math.round(tokens).toLocaleString('en-US');
const share = (tokens: number) => `${Math.round((tokens / CONTEXT_WINDOW) * 100)}%`;

function describe(event: CompactionEvent): string {
  switch (event.type) {
    case 'compaction-start':
      return `compaction started (${event.reason})`;
    case 'compaction-end':
      return `summary made (${event.reason}): ${format(event.tokensBefore)} → ${format(event.tokensAfter)} tokens, covers ${event.coveredCount} messages`;
    case 'compaction-failed':
      return `summary failed (${event.reason}), fallback ${event.fallback}`;
    case 'truncation': {
      const kinds = new Map<string, number>();
      for (const record of event.records) kinds.set(record.kind, (kinds.get(record.kind) ?? 0) + 1);
      return `shortened: ${[...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ')}`;
    }
    case 'emergency-truncation':
      return `emergency: dropped ${event.droppedCount} oldest messages from the request`;
    case 'reduction-step':
      return `old tool output cleared a step further (previews to #${event.level.previewTo}, stubs to #${event.level.stubTo}, folded to #${event.level.foldTo}): ${format(event.tokensFreed)} tokens freed`;
    case 'overflow-retry':
      return `provider said "too long": retry ${event.attempt}`;
    case 'store-error':
      return `store ${event.operation} failed (${event.reason}); the request went on without it`;
    case 'context-window-unknown':
      return `the window of ${event.model ?? 'the model'} is unknown: not compacting`;
    case 'pinned-rule-evicted':
      return `pinned rule left out to stay within the bound: "${event.rule.text}"`;
    case 'recall-evicted':
      return `archived original ${event.ref} let go (${event.reason})`;
  }
}

console.log(`Spillway AI SDK demo — ${label}`);
console.log(
  `${TURNS} turns, context window ${format(CONTEXT_WINDOW)} tokens (thresholds: background 80%, compact 85%)\n`,
);

const messages: ModelMessage[] = [];
let failedTurns = 0;
let exceeded = 0;
let reportedInputTokens = 0;
for (let turn = 1; turn <= TURNS; turn++) {
  messages.push({ role: 'user', content: userRequest(turn).text });
  const eventsBefore = events.length;
  const usagesBefore = usages.length;
  try {
    const result = streamText({
      model,
      system: SYSTEM,
      messages,
      tools,
      stopWhen: stepCountIs(4),
      maxRetries: 0,
      providerOptions: { spillway: { conversationId: CONVERSATION_ID } },
    });
    await result.consumeStream({
      onError: (error) => {
        throw error;
      },
    });
    messages.push(...(await result.responseMessages));
    reportedInputTokens += (await result.totalUsage).inputTokens ?? 0;
  } catch (error) {
    failedTurns++;
    console.log(`turn ${turn}: FAILED — ${error instanceof Error ? error.message : String(error)}`);
  }
  // In a chat app the user is typing now; the demo waits for background compaction so its events
  // print with the turn that started it.
  await middleware.compactor.idle();
  const calls = usages.slice(usagesBefore);
  for (const call of calls) if (call.tokensAfter > CONTEXT_WINDOW) exceeded++;
  const last = calls.at(-1);
  const context = last
    ? `context ${format(last.tokensBefore).padStart(7)} → ${format(last.tokensAfter).padStart(6)} tokens (${share(last.tokensAfter).padStart(4)} of window)`
    : 'no call';
  const notes = events
    .slice(eventsBefore)
    .filter((event) => event.type !== 'compaction-start')
    .map(describe);
  console.log(
    `turn ${String(turn).padStart(2)}  ${calls.length} calls  ${context}${notes.length > 0 ? `  · ${notes.join('; ')}` : ''}`,
  );
}

const sent = usages.reduce((sum, usage) => sum + usage.tokensAfter, 0);
const without = usages.reduce((sum, usage) => sum + usage.tokensBefore, 0);
const largest = Math.max(...usages.map((usage) => usage.tokensAfter));
const largestWithout = Math.max(...usages.map((usage) => usage.tokensBefore));
const summaries = events.filter((event) => event.type === 'compaction-end').length;
const steps = events.filter((event) => event.type === 'reduction-step');
console.log('\nSummary');
console.log(`  model calls:                 ${usages.length} (${failedTurns} failed turns)`);
console.log(
  `  old tool output cleared in:  ${steps.length} steps (each a prompt-prefix change; ${format(steps.reduce((sum, step) => sum + (step.type === 'reduction-step' ? step.tokensFreed : 0), 0))} tokens freed in all)`,
);
console.log(
  `  summaries made:              ${summaries} (the dialogue is summarized only when it no longer fits)`,
);
console.log(
  `  largest prompt:              ${format(largest)} tokens (${share(largest)} of the window); without Spillway ${format(largestWithout)} (${share(largestWithout)})`,
);
console.log(
  `  input tokens sent:           ${format(sent)} (estimated)${reportedInputTokens > 0 ? `; provider reported ${format(reportedInputTokens)}` : ''}`,
);
console.log(
  `  without Spillway:            ${format(without)} (estimated) — ${(without / sent).toFixed(1)}x more, and every call past the window would have failed`,
);

if (exceeded > 0 || failedTurns > 0 || steps.length + summaries === 0) {
  console.error(
    `\nFAILED: ${exceeded} prompts over the window, ${failedTurns} failed turns, ${steps.length} reduction steps, ${summaries} summaries.`,
  );
  process.exit(1);
}
console.log('\nOK: the conversation never exceeded the window.');

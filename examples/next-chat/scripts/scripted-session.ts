/**
 * `pnpm start`: a self-checking session against the chat route handler, in process (no browser, no
 * Next.js server): it sends the demo's messages the way `useChat` does, reads the UI message stream
 * the page would get, and checks what the page shows — the "Optimizing conversation context…"
 * indicator appearing and being replaced when the summary is done, the context meter dropping after
 * it, and, with the summarizer made to fail, the "Conversation history has been automatically
 * trimmed" notice. Exits non-zero if any of that did not happen. The browser test
 * (`pnpm test:browser`) checks the same on the real page.
 */
import type { UIMessageChunk } from 'ai';
import { POST } from '../app/api/chat/route';
import type { ChatMessage, ContextUsageData } from '../lib/chat-message';
import { demoMessage, longPageRequest } from '../lib/demo-script';

interface Turn {
  chunks: UIMessageChunk[];
  usage: ContextUsageData[];
  statuses: string[];
}

/** Sends the conversation plus one user message; returns what the response stream carried. */
async function send(
  conversationId: string,
  messages: ChatMessage[],
  text: string,
  simulateOutage: boolean,
): Promise<Turn> {
  messages.push({ id: `user-${messages.length}`, role: 'user', parts: [{ type: 'text', text }] });
  const response = await POST(
    new Request('http://localhost/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: conversationId, messages, simulateOutage }),
    }),
  );
  if (!response.ok || response.body === null) throw new Error(`the route answered ${response.status}`);
  const chunks: UIMessageChunk[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += decoder.decode(read.value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.replace(/^data: /, '');
      if (data !== '[DONE]' && data.trim() !== '') chunks.push(JSON.parse(data) as UIMessageChunk);
    }
  }
  // Rebuild the assistant message as useChat would (text, tool calls and their outputs, data parts).
  const assistant: ChatMessage = { id: `assistant-${messages.length}`, role: 'assistant', parts: [] };
  for (const chunk of chunks) {
    if (chunk.type === 'text-delta') {
      const last = assistant.parts.at(-1);
      if (last?.type === 'text') last.text += chunk.delta;
      else assistant.parts.push({ type: 'text', text: chunk.delta });
    } else if (chunk.type === 'tool-input-available') {
      assistant.parts.push({
        type: `tool-${chunk.toolName}`,
        toolCallId: chunk.toolCallId,
        state: 'input-available',
        input: chunk.input,
      } as never);
    } else if (chunk.type === 'tool-output-available') {
      const part = assistant.parts.find(
        (candidate) => 'toolCallId' in candidate && candidate.toolCallId === chunk.toolCallId,
      ) as { state: string; output?: unknown } | undefined;
      if (part) Object.assign(part, { state: 'output-available', output: chunk.output });
    } else if (chunk.type === 'start-step') {
      assistant.parts.push({ type: 'step-start' });
    }
  }
  messages.push(assistant);
  const data = chunks.filter((chunk) => chunk.type.startsWith('data-')) as {
    type: string;
    data: unknown;
  }[];
  return {
    chunks,
    usage: data
      .filter((chunk) => chunk.type === 'data-context-usage')
      .map((chunk) => chunk.data as ContextUsageData),
    statuses: data
      .filter((chunk) => chunk.type === 'data-spillway')
      .map((chunk) => (chunk.data as { status: string }).status),
  };
}

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

const messages: ChatMessage[] = [];
const conversationId = 'scripted-session';
let summaryTurn: number | undefined;
let trimmedTurn: number | undefined;
let peakBeforeSummary = 0;
let afterSummary: number | undefined;
let largest = 0;
let window = 0;
console.log('turn  sent tokens / window   what Spillway did');
for (let turn = 1; turn <= 24 && trimmedTurn === undefined; turn++) {
  // After the first summary, the summarizer "goes down" and long pages come in: the next
  // compaction fails and falls back to dropping the oldest messages from the request.
  const outage = summaryTurn !== undefined;
  const text = outage ? longPageRequest(turn) : demoMessage(turn - 1);
  const result = await send(conversationId, messages, text, outage);
  const errors = result.chunks.filter((chunk) => chunk.type === 'error');
  check(errors.length === 0, `turn ${turn}: no error in the stream`);
  for (const usage of result.usage) {
    window = usage.contextWindow;
    largest = Math.max(largest, usage.tokensAfter);
  }
  const last = result.usage.at(-1);
  console.log(
    `${String(turn).padStart(4)}  ${String(last?.tokensAfter ?? '-').padStart(6)} / ${window}  ${outage ? '[outage] ' : ''}${[
      ...new Set([...result.usage.flatMap((usage) => usage.actions), ...result.statuses]),
    ].join(', ')}`,
  );
  if (summaryTurn === undefined) {
    const start = result.statuses.indexOf('compacting');
    if (start >= 0) {
      summaryTurn = turn;
      check(
        result.statuses.indexOf('compacted', start) > start,
        `turn ${turn}: the indicator ("compacting") was replaced when the summary was done ("compacted")`,
      );
      const calls = result.usage;
      const summarized = calls.findIndex((usage) => usage.actions.includes('summarize'));
      afterSummary = calls[summarized]?.tokensAfter;
      peakBeforeSummary = Math.max(peakBeforeSummary, calls[summarized]?.tokensBefore ?? 0);
    } else {
      for (const usage of result.usage) peakBeforeSummary = Math.max(peakBeforeSummary, usage.tokensAfter);
    }
  } else if (result.statuses.includes('trimmed')) {
    trimmedTurn = turn;
  }
}

check(summaryTurn !== undefined, 'a summary was made while the page watched (the indicator showed)');
check(
  afterSummary !== undefined && afterSummary < peakBeforeSummary * 0.7,
  `the meter dropped after the summary (${peakBeforeSummary} → ${afterSummary} tokens)`,
);
check(trimmedTurn !== undefined, 'with the summarizer down, the trimmed notice showed');
check(largest <= window, `no prompt exceeded the window (largest ${largest} of ${window} tokens)`);
if (failures.length > 0) {
  console.error(`\n${failures.length} check(s) failed`);
  process.exit(1);
}
console.log('\nAll checks passed.');

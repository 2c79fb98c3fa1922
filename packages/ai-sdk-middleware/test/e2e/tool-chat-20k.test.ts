// biome-ignore-all lint/suspicious/noExplicitAny: one test body drives two SDK generations and four providers
/**
 * Issue 9, "the 20K tool chat": 60 turns of ask → tool call → big result (logs, JSON, source, up to
 * 60K characters) → answer, through `generateText`'s own tool loop, on a 20,000-token window. The
 * summaries are written by the conversation's own model (the default summarizer), answered by the
 * loopback server with a scripted summary, so they go through the provider's request builder too.
 * Every request obeys the provider's rules, keeps the user's latest message, stays under the
 * compact threshold, and the conversation is summarized at most 6 times.
 */
import { DEFAULT_SUMMARY_PROMPT } from '@spillway/core';
import { afterEach, describe, expect, it } from 'vitest';
import { sourceFile } from '../conversation';
import { closeServers, eventsOf, latestUserText, responseMessages, startHarness } from './harness';
import { providerTargets, type ViewMessage } from './provider-targets';

const WINDOW = 20_000;
const TURNS = 60;
const SYSTEM = 'You are an operations agent. Use the tools to inspect the systems before you answer.';

afterEach(closeServers);

/** What the tool returns on turn `turn`: logs, JSON or source, 1K to 60K characters. */
function toolOutput(turn: number): string {
  const chars = [1_500, 6_000, 18_000, 60_000][turn % 4]!;
  switch (turn % 3) {
    case 0: {
      const lines: string[] = [];
      for (let line = 0, length = 0; length < chars; line++) {
        const text = `2026-03-01T09:${String(line % 60).padStart(2, '0')}:00Z ${line % 11 === 0 ? 'ERROR' : 'INFO'} [svc-${turn}] job=${turn}-${line} took ${(line * 31) % 900}ms`;
        lines.push(text);
        length += text.length + 1;
      }
      return lines.join('\n');
    }
    case 1: {
      const records: string[] = [];
      for (let index = 0, length = 0; length < chars; index++) {
        const record = JSON.stringify({
          id: `ORD-${turn}-${index}`,
          status: index % 5 === 0 ? 'failed' : 'ok',
          amount: index * 13,
        });
        records.push(record);
        length += record.length + 2;
      }
      return `[\n${records.join(',\n')}\n]`;
    }
    default:
      return sourceFile(`src/service-${turn}.ts`, chars);
  }
}

const ask = (turn: number) => `Turn ${turn}: check svc-${turn} and tell me if ORD-${turn}-0 went through.`;

/** A summary request (the summarizer's system prompt is the engine's). */
const isSummaryRequest = (view: readonly ViewMessage[]) =>
  view.some(
    (message) => message.role === 'system' && message.text.startsWith(DEFAULT_SUMMARY_PROMPT.slice(0, 60)),
  );

describe.each(providerTargets)('$name: the 20K tool chat', (target) => {
  it(`${TURNS} turns of ask → tool → big result → answer on a ${WINDOW.toLocaleString('en-US')}-token window`, async () => {
    const { sdk } = target;
    let summaryRequests = 0;
    const harness = await startHarness(
      target,
      (request, index) => {
        const view = target.read(request.body);
        if (isSummaryRequest(view)) {
          summaryRequests++;
          const turns = [...new Set(request.raw.match(/Turn \d+/g) ?? [])];
          return target.answer({
            text: `The user had the agent check services and orders (${turns.slice(0, 40).join(', ')}). Every check was answered; failed orders were reported.`,
            inputTokens: 2_000,
          });
        }
        const last = view.at(-1)!;
        if (last.role === 'tool')
          return target.answer({ text: 'Checked: it went through.', inputTokens: 5_000 });
        const turn = Number(/Turn (\d+):/.exec(latestUserText(view) ?? '')?.[1]);
        return target.answer({
          toolCalls: [
            { id: `call-${turn}-${index}`, name: 'inspect', input: { service: `svc-${turn}`, turn } },
          ],
          inputTokens: 5_000,
        });
      },
      { contextWindow: WINDOW },
    );
    const tools = {
      inspect: sdk.tool({
        description: 'Inspects a service: its logs, its orders or its source.',
        inputSchema: sdk.jsonSchema({
          type: 'object',
          properties: { service: { type: 'string' }, turn: { type: 'number' } },
          required: ['service', 'turn'],
        }),
        execute: async ({ turn }: { turn: number }) => toolOutput(turn),
      }),
    };

    const messages: unknown[] = [];
    const conversationId = `tool-chat-${target.name}`;
    for (let turn = 1; turn <= TURNS; turn++) {
      messages.push({ role: 'user', content: ask(turn) });
      const before = harness.requests.length;
      const result = await sdk.generateText({
        model: harness.model,
        system: SYSTEM,
        messages,
        tools,
        stopWhen: sdk.stepCountIs(3),
        maxRetries: 0,
        providerOptions: { spillway: { conversationId } },
      });
      expect(result.text).toBe('Checked: it went through.');
      messages.push(...responseMessages(result));
      await harness.middleware.compactor.idle();
      // Every request of the turn (not the summaries) carries the user's message verbatim.
      for (const request of harness.requests.slice(before)) {
        const view = target.read(request.body);
        if (!isSummaryRequest(view)) expect(latestUserText(view)).toBe(ask(turn));
      }
    }

    expect(harness.violations).toEqual([]);
    const summaries = eventsOf(harness.events, 'compaction-end');
    // Old tool results are cleared (previews, then stubs) before the dialogue is summarized: the
    // asks of 60 turns fit a 20K window, so a summary is allowed but never needed twice a turn.
    expect(summaries.length).toBeLessThanOrEqual(6);
    expect(summaryRequests).toBeLessThanOrEqual(15);
    expect(summaryRequests).toBeGreaterThanOrEqual(summaries.length);
    expect(eventsOf(harness.events, 'compaction-failed')).toEqual([]);
    expect(eventsOf(harness.events, 'emergency-truncation')).toEqual([]);
    expect(harness.usages).toHaveLength(TURNS * 2);
    // Every ask of the session is still in the last request, verbatim or in a summary.
    const last = harness.requests.filter((request) => !isSummaryRequest(target.read(request.body))).at(-1)!;
    const kept = Array.from({ length: TURNS }, (_, index) => ask(index + 1)).filter((text) =>
      last.raw.includes(text),
    );
    if (summaries.length === 0) expect(kept).toHaveLength(TURNS);
    else expect(kept.length).toBeGreaterThan(TURNS / 2);
    const largest = Math.max(...harness.usages.map((usage) => usage.tokensAfter));
    expect(largest).toBeLessThanOrEqual(0.85 * WINDOW);
    console.log(
      `[20K tool chat] ${target.name}: ${summaries.length} summaries, ${harness.requests.length} requests, largest request ${largest} tokens`,
    );
  });
});

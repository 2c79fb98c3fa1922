/**
 * The fidelity invariants as a property of the prompt stage, on prompts shaped as Mastra builds
 * them (V3, Mastra's `input` on tool results): for any conversation (chat turns, parallel tool
 * rounds up to 12K characters a result, screenshots) and any window from 2K up, either a
 * `ContextOverflowError` is thrown (no request goes out) or the request carries the latest ask as
 * the caller's own object, every call of the run in progress with its result (whole, or cut to
 * head and tail only when the run alone is over the budget), no call split from its result, and is
 * at or under the compact threshold by the engine's estimate.
 */
import { RequestContext } from '@mastra/core/request-context';
import { ContextOverflowError } from '@spillway/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContextUsage, compactionProcessor } from '../src/index';
import { pairViolations, shortenedFrom } from './checks';
import { type SessionPromptMessage, screenshotBase64, sourceFile } from './session';

type Turn =
  | { kind: 'chat'; user: string }
  | { kind: 'tools'; user: string; sizes: number[]; screenshot: boolean };

const words = fc.lorem({ maxCount: 20 });
const turnArbitrary: fc.Arbitrary<Turn> = fc.oneof(
  fc.record({ kind: fc.constant('chat' as const), user: words }),
  fc.record({
    kind: fc.constant('tools' as const),
    user: words,
    sizes: fc.array(fc.integer({ min: 0, max: 12_000 }), { minLength: 1, maxLength: 4 }),
    screenshot: fc.boolean(),
  }),
);

function toolRound(prefix: string, sizes: readonly number[], screenshot: boolean) {
  const calls = sizes.map((chars, index) => ({
    id: `${prefix}-${index}`,
    path: `src/${prefix}-${index}.ts`,
    chars,
  }));
  const call: SessionPromptMessage = {
    role: 'assistant',
    content: [
      ...calls.map((c) => ({
        type: 'tool-call',
        toolCallId: c.id,
        toolName: 'read_file',
        input: { path: c.path },
      })),
      ...(screenshot
        ? [{ type: 'tool-call', toolCallId: `${prefix}-shot`, toolName: 'screenshot', input: {} }]
        : []),
    ],
  };
  const results: SessionPromptMessage = {
    role: 'tool',
    content: [
      ...calls.map((c) => ({
        type: 'tool-result',
        toolCallId: c.id,
        toolName: 'read_file',
        output: { type: 'text', value: sourceFile(c.path, c.chars) || '(empty)' },
        input: { path: c.path },
      })),
      ...(screenshot
        ? [
            {
              type: 'tool-result',
              toolCallId: `${prefix}-shot`,
              toolName: 'screenshot',
              output: {
                type: 'content',
                value: [
                  {
                    type: 'image-data',
                    data: screenshotBase64(1280, 800, 4_000, prefix.length),
                    mediaType: 'image/png',
                  },
                ],
              },
              input: {},
            },
          ]
        : []),
    ],
  };
  return { calls, messages: [call, results] };
}

describe('the prompt stage, as a property', () => {
  it('either fails before any request, or sends the latest ask and the whole run, no split pair, under the budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2_000, max: 40_000 }),
        fc.array(turnArbitrary, { maxLength: 24 }),
        fc.array(fc.integer({ min: 0, max: 12_000 }), { maxLength: 3 }),
        async (window, turns, current) => {
          const prompt: SessionPromptMessage[] = [{ role: 'system', content: 'You are a coding agent.' }];
          turns.forEach((turn, index) => {
            prompt.push({ role: 'user', content: [{ type: 'text', text: `Q${index}: ${turn.user}` }] });
            if (turn.kind === 'tools')
              prompt.push(...toolRound(`t${index}`, turn.sizes, turn.screenshot).messages);
            prompt.push({ role: 'assistant', content: [{ type: 'text', text: `A${index}.` }] });
          });
          const ask: SessionPromptMessage = {
            role: 'user',
            content: [{ type: 'text', text: 'Now: continue.' }],
          };
          prompt.push(ask);
          const run = current.length > 0 ? toolRound('now', current, false) : { calls: [], messages: [] };
          prompt.push(...run.messages);
          const usages: ContextUsage[] = [];
          const processor = compactionProcessor({
            contextWindow: window,
            summarizer: 'extractive',
            onContextUsage: (usage) => usages.push(usage),
          });
          let result: { prompt: SessionPromptMessage[] } | undefined;
          try {
            result = (await processor.processLLMRequest({
              prompt,
              model: { specificationVersion: 'v3', provider: 'mock', modelId: 'm' },
              state: {},
              stepNumber: 0,
              steps: [],
              retryCount: 0,
              requestContext: new RequestContext(),
              abort: () => {
                throw new Error('aborted');
              },
            } as never)) as { prompt: SessionPromptMessage[] } | undefined;
          } catch (error) {
            expect(ContextOverflowError.isInstance(error), String(error)).toBe(true);
            return;
          }
          const sent = result?.prompt ?? prompt;
          // The ask itself, or the ask with a drop note before its parts (a note the engine made is
          // never sent as a user turn of its own: `repairPrompt` folds it into the next one).
          const askAt = sent.findIndex(
            (message) =>
              message === ask ||
              (message.role === 'user' &&
                Array.isArray(message.content) &&
                message.content.at(-1) === ask.content[0] &&
                message.content.length > 1),
          );
          expect(askAt).toBeGreaterThan(-1);
          expect(pairViolations(sent)).toEqual([]);
          const after = sent.slice(askAt + 1);
          const parts = after.flatMap((message) =>
            typeof message.content === 'string' ? [] : message.content,
          );
          for (const call of run.calls) {
            expect(parts.some((part) => part.type === 'tool-call' && part.toolCallId === call.id)).toBe(true);
            const output = parts.find((part) => part.type === 'tool-result' && part.toolCallId === call.id)
              ?.output as { value?: unknown } | undefined;
            const original = sourceFile(call.path, call.chars) || '(empty)';
            expect(output?.value === original || shortenedFrom(output?.value, original)).toBe(true);
          }
          for (const usage of usages) expect(usage.tokensAfter).toBeLessThanOrEqual(0.85 * window);
        },
      ),
      { numRuns: 40 },
    );
  });
});

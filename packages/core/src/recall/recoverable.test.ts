/**
 * Issue 16's invariants as properties over random agent conversations and windows from 2K to 2M:
 * nothing is cut silently (every shortened tool result and every summarized or dropped span in the
 * request names a reference), and every reference reads back, through `recallFromMessages`, the
 * original byte for byte (a tool result's text) or in full (a span's messages).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUMMARY_ONLY } from '../../test/conversation-fixtures';
import { compactMessages } from '../compact/compact-messages';
import { ContextOverflowError } from '../errors/context-overflow-error';
import type { Message, ToolResultPart } from '../message/message';
import { extractiveSummarizer } from '../summarize/extractive-summarizer';
import { recallFromMessages } from './recall-from-messages';
import { toolResultTexts } from './recall-material';
import { RECALL_REF_PATTERN } from './recall-ref';

/** Reads every page of `ref` following the footers; `undefined` when the reference is refused. */
async function readAll(messages: readonly Message[], ref: string): Promise<string | undefined> {
  let offset = 0;
  let text = '';
  for (let calls = 0; calls < 1_000; calls++) {
    const answer = await recallFromMessages({ input: { ref, offset }, messages, maxChars: 50_000 });
    if (answer.isError) return undefined;
    const lines = answer.text.split('\n');
    lines.shift();
    const footer = lines.pop()!;
    text += lines.join('\n');
    const next = /"offset":(\d+)\}\]$/.exec(footer);
    if (next === null) return text;
    offset = Number(next[1]);
  }
  throw new Error('too many pages');
}

const unit = fc.constantFrom('alpha ', 'beta ', '数据 ', '😀 ', 'x', '\n', 'line break\n', 'id-42 ');

const turnArbitrary = fc.record({
  user: fc.array(unit, { minLength: 1, maxLength: 40 }).map((parts) => parts.join('')),
  results: fc.array(
    fc.tuple(fc.array(unit, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 12_000 })),
    { maxLength: 2 },
  ),
  answer: fc.array(unit, { maxLength: 30 }).map((parts) => parts.join('')),
});

type Turn = typeof turnArbitrary extends fc.Arbitrary<infer T> ? T : never;

function conversationOf(turns: Turn[]): Message[] {
  const messages: Message[] = [{ role: 'system', content: 'You are an agent.' }];
  turns.forEach((turn, index) => {
    messages.push({ role: 'user', content: `Turn ${index}: ${turn.user}` });
    if (turn.results.length > 0) {
      const calls = turn.results.map((_, call) => ({ id: `call-${index}-${call}`, name: `tool_${call}` }));
      messages.push({
        role: 'assistant',
        content: calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: call.name,
          input: { turn: index },
        })),
      });
      messages.push({
        role: 'tool',
        content: turn.results.map(([parts, repeat], call) => ({
          type: 'tool-result' as const,
          toolCallId: calls[call]!.id,
          toolName: calls[call]!.name,
          content: `result ${index}.${call}: ${parts.join('').repeat(Math.ceil(repeat / 8))}`,
        })),
      });
    }
    if (index < turns.length - 1)
      messages.push({ role: 'assistant', content: `Answer ${index}. ${turn.answer}` });
  });
  return messages;
}

function toolResults(messages: readonly Message[]): ToolResultPart[] {
  const results: ToolResultPart[] = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) if (part.type === 'tool-result') results.push(part);
  }
  return results;
}

describe('every cut is recoverable through spillway_recall', () => {
  const checked = { t: 0, s: 0, refused: 0 };
  it('every shortened result and every summarized or dropped span names a reference that reads back the original (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnArbitrary, { minLength: 2, maxLength: 14 }),
        // Log-uniform from 2K to 2M: most runs cut something.
        fc
          .double({ min: Math.log(2_000), max: Math.log(2_000_000), noNaN: true })
          .map((log) => Math.round(Math.exp(log))),
        fc.boolean(),
        async (turns, contextWindow, summaryOnly) => {
          const messages = conversationOf(turns);
          let result: Awaited<ReturnType<typeof compactMessages>>;
          try {
            // The default tiers (tool output cleared, turns folded first), or summaries alone.
            result = await compactMessages(messages, {
              contextWindow,
              summarizer: extractiveSummarizer,
              recallTool: true,
              ...(summaryOnly ? SUMMARY_ONLY : {}),
            });
          } catch (error) {
            // The current turn alone does not fit: refused before any call, nothing to recover.
            if (error instanceof ContextOverflowError) {
              checked.refused++;
              return;
            }
            throw error;
          }
          const originals = new Map(toolResults(messages).map((part) => [part.toolCallId, part]));
          const text = JSON.stringify(result.messages);

          // No silent cut: a result whose text changed names a reference.
          for (const part of toolResults(result.messages)) {
            const original = originals.get(part.toolCallId)!;
            const before = toolResultTexts(original);
            const after = toolResultTexts(part);
            const changed = after.some((value, index) => value !== before[index]);
            if (changed) expect(after.join('\n')).toMatch(/\[ref=[tsi]\.[^\]]+\]/);
          }
          // A user message whose text is nowhere in the request (summarized or dropped; a
          // condensed exchange keeps it verbatim): a span reference stands for it.
          const left = messages.filter(
            (message) =>
              message.role === 'user' &&
              typeof message.content === 'string' &&
              !text.includes(JSON.stringify(message.content).slice(1, -1)),
          );
          if (left.length > 0) expect(text).toMatch(/ref=s\.\d+-\d+\./);
          // Any text message not shown whole (summarized, dropped, or a reply shortened in a
          // condensed exchange) lies in a span some reference names.
          const spans = [...text.matchAll(/ref=s\.(\d+)-(\d+)\./g)].map((found) => [
            Number(found[1]),
            Number(found[2]),
          ]);
          messages
            .filter((message) => message.role !== 'system')
            .forEach((message, number) => {
              if (typeof message.content !== 'string') return;
              if (text.includes(JSON.stringify(message.content).slice(1, -1))) return;
              expect(
                spans.some(([from, to]) => from! <= number && number < to!),
                `message ${number} (${message.role}) is covered by a span reference`,
              ).toBe(true);
            });

          // Every reference reads back the original.
          const conversation = messages.filter((message) => message.role !== 'system');
          for (const match of new Set([...text.matchAll(RECALL_REF_PATTERN)].map((found) => found[0]))) {
            const read = await readAll(messages, match);
            checked[match[0] as 't' | 's'] = (checked[match[0] as 't' | 's'] ?? 0) + 1;
            expect(read, match).toBeDefined();
            if (match.startsWith('t.')) {
              const all = toolResults(messages).flatMap((part) => toolResultTexts(part));
              expect(all.includes(read!)).toBe(true);
            } else if (match.startsWith('s.')) {
              const [, from, to] = /^s\.(\d+)-(\d+)\./.exec(match)!;
              for (const message of conversation.slice(Number(from), Number(to))) {
                const parts =
                  typeof message.content === 'string'
                    ? [message.content]
                    : message.content.flatMap((part) =>
                        part.type === 'text'
                          ? [part.text]
                          : part.type === 'tool-result'
                            ? toolResultTexts(part)
                            : [],
                      );
                for (const part of parts) expect(read!.includes(part)).toBe(true);
              }
            }
          }
        },
      ),
      { numRuns: 120 },
    );
    // Not vacuous: references of both kinds were followed.
    expect(checked.t).toBeGreaterThan(20);
    expect(checked.s).toBeGreaterThan(5);
  }, 120_000);
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  conversationArbitrary,
  deepFreeze,
  expectMessageInvariants,
  hasLoneSurrogate,
} from '../../test/truncate-helpers';
import { recognizeMessages } from '../compact/recognize-messages';
import type { Message, TextPart, ToolResultPart } from '../message/message';
import { capToolResults } from './cap-tool-results';
import { toolResultTextLength } from './tool-result-text-length';

const MARKER = /\n\n\[\.\.\. content truncated, showing first \d+ characters of \d+ total \.\.\.\]$/;

function conversation(results: ToolResultPart[]): Message[] {
  return deepFreeze([
    { role: 'user', content: 'read the files' },
    {
      role: 'assistant',
      content: results.map((result) => ({
        type: 'tool-call' as const,
        toolCallId: result.toolCallId,
        toolName: result.toolName,
        input: {},
      })),
    },
    { role: 'tool', content: results },
    { role: 'assistant', content: 'done' },
  ]);
}

describe('capToolResults', () => {
  it('caps string results at 30,000 characters and records it', () => {
    const big: ToolResultPart = {
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'fetch',
      content: 'x'.repeat(50_000),
    };
    const small: ToolResultPart = { type: 'tool-result', toolCallId: 'c2', toolName: 'fetch', content: 'ok' };
    const messages = conversation([big, small]);
    const { messages: output, records } = capToolResults(messages);
    expect(output).not.toBe(messages);
    expect(output[0]).toBe(messages[0]);
    expect(output[1]).toBe(messages[1]);
    expect(output[3]).toBe(messages[3]);
    const tool = output[2]!.content as ToolResultPart[];
    expect(tool[1]).toBe(small);
    expect(tool[0]!.content).toMatch(MARKER);
    expect((tool[0]!.content as string).length).toBeLessThanOrEqual(30_000);
    expect('isError' in tool[0]!).toBe(false);
    expect(records).toEqual([
      {
        kind: 'tool-result',
        messageIndex: 2,
        toolName: 'fetch',
        toolCallId: 'c1',
        charsBefore: 50_000,
        charsAfter: 30_000,
      },
    ]);
  });

  it('leaves a result of exactly the limit alone and returns the same messages', () => {
    const exact: ToolResultPart = {
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'fetch',
      content: 'y'.repeat(30_000),
    };
    const messages = conversation([exact]);
    const { messages: output, records } = capToolResults(messages);
    expect(records).toEqual([]);
    for (const [index, message] of output.entries()) expect(message).toBe(messages[index]);
  });

  it('shares the budget between text parts: small parts stay whole, large ones give up more', () => {
    const image = { type: 'image' as const, url: 'https://example.com/a.png' };
    const short: TextPart = { type: 'text', text: 's'.repeat(100) };
    const medium: TextPart = { type: 'text', text: 'm'.repeat(5_000) };
    const large: TextPart = { type: 'text', text: 'l'.repeat(20_000) };
    const result: ToolResultPart = {
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'browse',
      content: [short, image, medium, large],
      isError: false,
    };
    const messages = conversation([result]);
    const { messages: output, records } = capToolResults(messages, { maxChars: 3_000 });
    const capped = (output[2]!.content as ToolResultPart[])[0]!;
    const parts = capped.content as (TextPart | typeof image)[];
    expect(parts[0]).toBe(short);
    expect(parts[1]).toBe(image);
    expect(capped.isError).toBe(false);
    const mediumAfter = (parts[2] as TextPart).text;
    const largeAfter = (parts[3] as TextPart).text;
    expect(mediumAfter).toMatch(MARKER);
    expect(largeAfter).toMatch(MARKER);
    expect(5_000 - mediumAfter.length).toBeLessThan(20_000 - largeAfter.length);
    expect(toolResultTextLength(capped)).toBeLessThanOrEqual(3_000);
    expect(records[0]!.charsAfter).toBe(toolResultTextLength(capped));
  });

  it('applies per-tool limits, falling back to maxChars for invalid ones and ignoring inherited keys', () => {
    const results: ToolResultPart[] = [
      { type: 'tool-result', toolCallId: 'a', toolName: 'read_file', content: 'r'.repeat(5_000) },
      { type: 'tool-result', toolCallId: 'b', toolName: 'search', content: 's'.repeat(5_000), isError: true },
      { type: 'tool-result', toolCallId: 'c', toolName: 'constructor', content: 'c'.repeat(5_000) },
    ];
    const messages = conversation(results);
    const { messages: output } = capToolResults(messages, {
      maxChars: 1_000,
      limits: { read_file: 10_000, search: Number.NaN },
    });
    const after = output[2]!.content as ToolResultPart[];
    expect(after[0]).toBe(results[0]);
    expect((after[1]!.content as string).length).toBeLessThanOrEqual(1_000);
    expect(after[1]!.isError).toBe(true);
    expect((after[2]!.content as string).length).toBeLessThanOrEqual(1_000);
  });

  it('caps a recognized request, its fresh copies and a list changed in place as it caps any list', () => {
    const results: ToolResultPart[] = [
      { type: 'tool-result', toolCallId: 'a', toolName: 'read_file', content: 'r'.repeat(5_000) },
      { type: 'tool-result', toolCallId: 'b', toolName: 'search', content: 's'.repeat(500) },
    ];
    const options = { maxChars: 1_000, limits: { read_file: 8_000 } };
    const plain = capToolResults(conversation(results), options);
    // Per-tool limits: read_file's result is within its own limit, so nothing is cut.
    expect(plain.records).toEqual([]);
    const tight = { maxChars: 1_000, limits: { read_file: 2_000 } };
    const expected = capToolResults(conversation(results), tight);
    expect(expected.records).toHaveLength(1);
    // The memos remember each message's longest result: the second pass and a fresh copy decide
    // without reading the parts, and decide the same.
    for (const request of [conversation(results), structuredClone(conversation(results))]) {
      recognizeMessages(request, { conversationId: 'cap-recognized' });
      expect(capToolResults(request, options)).toEqual(plain);
      expect(capToolResults(request, tight)).toEqual(expected);
      expect(capToolResults(request, tight)).toEqual(expected);
    }
    // Changed in place after it was recognized: the new long result is cut.
    const changed = structuredClone(conversation(results));
    recognizeMessages(changed, { conversationId: 'cap-recognized' });
    capToolResults(changed, tight);
    changed[0] = { role: 'tool', content: [{ ...results[1]!, toolCallId: 'z', content: 'z'.repeat(3_000) }] };
    expect(capToolResults(changed, tight).records.map((record) => record.toolCallId)).toEqual(['z', 'a']);
  });

  it('passes over a recognized request within every limit once its longest result is known', () => {
    const results: ToolResultPart[] = [
      { type: 'tool-result', toolCallId: 'a', toolName: 'read_file', content: 'r'.repeat(5_000) },
      { type: 'tool-result', toolCallId: 'b', toolName: 'search', content: 's'.repeat(500) },
    ];
    const request = structuredClone(conversation(results));
    recognizeMessages(request, { conversationId: 'cap-within' });
    const roomy = { maxChars: 10_000 };
    expect(capToolResults(request, roomy).records).toEqual([]);
    // Known to be within: a copy of the same messages, nothing recorded.
    const again = capToolResults(request, roomy);
    expect(again.records).toEqual([]);
    expect(again.messages).not.toBe(request);
    expect(again.messages.every((message, index) => message === request[index])).toBe(true);
    // A smaller limit, default or per tool, reads the messages again and cuts.
    const cut = (options: Parameters<typeof capToolResults>[1]) =>
      capToolResults(request, options).records.map((record) => record.toolCallId);
    expect(cut({ maxChars: 1_000 })).toEqual(['a']);
    expect(cut({ maxChars: 10_000, limits: { read_file: 2_000 } })).toEqual(['a']);
    expect(cut(roomy)).toEqual([]);
    // Changed in place: its new result over the limit is cut.
    request[2] = {
      role: 'tool',
      content: [{ ...results[1]!, toolCallId: 'z', content: 'z'.repeat(20_000) }],
    };
    expect(cut(roomy)).toEqual(['z']);
  });

  it('keeps emoji intact in capped results', () => {
    const messages = conversation([
      { type: 'tool-result', toolCallId: 'a', toolName: 'fetch', content: `x${'😀'.repeat(20_000)}` },
    ]);
    const { messages: output } = capToolResults(messages);
    const content = (output[2]!.content as ToolResultPart[])[0]!.content as string;
    expect(hasLoneSurrogate(content)).toBe(false);
  });

  it('keeps the invariants on generated conversations', () => {
    let touched = 0;
    fc.assert(
      fc.property(conversationArbitrary, fc.integer({ min: 0, max: 1_000 }), (generated, maxChars) => {
        const messages = deepFreeze(generated);
        const { messages: output, records } = capToolResults(messages, { maxChars });
        expectMessageInvariants(messages, output, records);
        for (const message of output) {
          if (typeof message.content === 'string') continue;
          for (const part of message.content) {
            if (part.type === 'tool-result') expect(toolResultTextLength(part)).toBeLessThanOrEqual(maxChars);
          }
        }
        for (const record of records) expect(record.charsAfter).toBeLessThan(record.charsBefore);
        if (records.length > 0) touched++;
      }),
      { numRuns: 200 },
    );
    expect(touched).toBeGreaterThan(20);
  });
});

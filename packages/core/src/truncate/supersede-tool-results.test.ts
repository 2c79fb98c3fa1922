import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationArbitrary, deepFreeze, expectMessageInvariants } from '../../test/truncate-helpers';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message, ToolResultContentPart, ToolResultPart } from '../message/message';
import { supersedeToolResults } from './supersede-tool-results';

interface Step {
  id: string;
  tool?: string;
  input: unknown;
  content: string | ToolResultContentPart[];
  isError?: boolean;
}

/** One assistant call and one tool message per step, after a user message. */
function conversation(steps: Step[]): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'work on the repo' }];
  for (const { id, tool = 'read_file', input, content, isError } of steps) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: tool, input }],
    });
    messages.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: tool,
          content,
          ...(isError === undefined ? {} : { isError }),
        },
      ],
    });
  }
  return deepFreeze(messages);
}

const resultAt = (messages: readonly Message[], index: number) =>
  (messages[index]!.content as ToolResultPart[])[0]!;
const fileA1 = `export const a = 1;\n${'// v1\n'.repeat(100)}`;
const fileA2 = `export const a = 2;\n${'// v2\n'.repeat(100)}`;

describe('supersedeToolResults', () => {
  it('supersedes an earlier result of an identical later call', () => {
    const messages = conversation([
      { id: 'c1', input: { path: 'a.ts', encoding: 'utf8' }, content: fileA1 },
      { id: 'c2', input: { path: 'b.ts' }, content: fileA1.replace('a', 'b') },
      { id: 'c3', input: { encoding: 'utf8', path: 'a.ts' }, content: fileA2 }, // same input, other key order
    ]);
    const { messages: output, records } = supersedeToolResults(messages);
    const note =
      '[superseded: read_file was called again with the same arguments later; see the newer result]';
    expect(resultAt(output, 2).content).toBe(note);
    expect(resultAt(output, 2).toolCallId).toBe('c1');
    expect(output[4]).toBe(messages[4]);
    expect(output[6]).toBe(messages[6]);
    expect(output[1]).toBe(messages[1]);
    expect(records).toEqual([
      {
        kind: 'superseded',
        messageIndex: 2,
        toolName: 'read_file',
        toolCallId: 'c1',
        charsBefore: fileA1.length,
        charsAfter: note.length,
      },
    ]);
  });

  it('does not supersede on a later error result, and keeps isError as it was', () => {
    const messages = conversation([
      { id: 'c1', input: { path: 'a.ts' }, content: fileA1, isError: false },
      { id: 'c2', input: { path: 'a.ts' }, content: `EACCES ${'x'.repeat(300)}`, isError: true },
    ]);
    expect(supersedeToolResults(messages).records).toEqual([]);

    const retried = conversation([
      { id: 'c1', input: { path: 'a.ts' }, content: `ENOENT ${'x'.repeat(300)}`, isError: true },
      { id: 'c2', input: { path: 'a.ts' }, content: fileA2 },
    ]);
    const { messages: output } = supersedeToolResults(retried);
    expect(resultAt(output, 2).isError).toBe(true);
    expect(resultAt(output, 2).content).toMatch(/^\[superseded: /);
    expect(output[4]).toBe(retried[4]);
  });

  it('does not supersede calls with different arguments or of different tools', () => {
    const messages = conversation([
      { id: 'c1', input: { path: 'a.ts' }, content: fileA1 },
      { id: 'c2', input: { path: 'a.ts', lines: [1, 10] }, content: fileA2 },
      { id: 'c3', tool: 'stat_file', input: { path: 'a.ts' }, content: fileA2 },
    ]);
    expect(supersedeToolResults(messages).records).toEqual([]);
  });

  it('uses a custom target key, compared within one tool', () => {
    const messages = conversation([
      { id: 'c1', input: { path: 'a.ts', lines: [1, 50] }, content: fileA1 },
      { id: 'c2', tool: 'write_file', input: { path: 'a.ts', text: 'x' }, content: fileA2 },
      { id: 'c3', input: { path: 'a.ts', lines: [1, 80] }, content: fileA2 },
    ]);
    const { messages: output, records } = supersedeToolResults(messages, {
      targetKey: (call) => (call.input as { path?: string }).path,
    });
    expect(records.map((record) => [record.kind, record.toolCallId])).toEqual([['superseded', 'c1']]);
    expect(resultAt(output, 2).content).toBe(
      '[superseded: read_file was called again on the same target later; see the newer result]',
    );
    expect(output[4]).toBe(messages[4]); // write_file shares the path but is another tool
  });

  it('dedupes identical results of the same tool, keeping the earliest (the prefix never changes)', () => {
    const listing = Array.from({ length: 50 }, (_, index) => `file_${index}.ts`).join('\n');
    const messages = conversation([
      { id: 'c1', tool: 'list_dir', input: { path: '.' }, content: listing },
      { id: 'c2', tool: 'list_dir', input: { path: './' }, content: [{ type: 'text', text: listing }] },
      { id: 'c3', tool: 'list_dir', input: { path: 'src/..' }, content: listing },
      { id: 'c4', tool: 'glob', input: { pattern: '*' }, content: listing },
    ]);
    const { messages: output, records } = supersedeToolResults(messages);
    expect(output[2]).toBe(messages[2]);
    // Same text as a part list: also a duplicate, and the note keeps the part-list shape.
    expect(resultAt(output, 4).content).toEqual([
      { type: 'text', text: '[duplicate: identical to the earlier list_dir result of call c1]' },
    ]);
    expect(resultAt(output, 6).content).toBe(
      '[duplicate: identical to the earlier list_dir result of call c1]',
    );
    expect(output[8]).toBe(messages[8]); // same text from another tool does not count
    expect(records.map((record) => [record.kind, record.toolCallId])).toEqual([
      ['duplicate', 'c2'],
      ['duplicate', 'c3'],
    ]);
    // A new copy arriving later never changes what came before it.
    const grown = conversation([
      { id: 'c1', tool: 'list_dir', input: { path: '.' }, content: listing },
      { id: 'c2', tool: 'list_dir', input: { path: './' }, content: [{ type: 'text', text: listing }] },
      { id: 'c3', tool: 'list_dir', input: { path: 'src/..' }, content: listing },
      { id: 'c4', tool: 'glob', input: { pattern: '*' }, content: listing },
      { id: 'c5', tool: 'list_dir', input: { path: '/x/..' }, content: listing },
    ]);
    expect(supersedeToolResults(grown).messages.slice(0, 9)).toEqual(output);
  });

  it('writes the note as a text part when the content was a part list', () => {
    const parts: ToolResultContentPart[] = [{ type: 'text', text: fileA1 }];
    const messages = conversation([
      { id: 'c1', input: { path: 'a.ts' }, content: parts },
      { id: 'c2', input: { path: 'a.ts' }, content: fileA2 },
    ]);
    const { messages: output } = supersedeToolResults(messages);
    expect(resultAt(output, 2).content).toEqual([
      {
        type: 'text',
        text: '[superseded: read_file was called again with the same arguments later; see the newer result]',
      },
    ]);
  });

  it('leaves small results alone and respects before', () => {
    const messages = conversation([
      { id: 'c1', input: { path: 'a.ts' }, content: 'tiny' },
      { id: 'c2', input: { path: 'a.ts' }, content: 'tiny' },
      { id: 'c3', input: { path: 'b.ts' }, content: fileA1 },
      { id: 'c4', input: { path: 'b.ts' }, content: fileA2 },
      { id: 'c5', input: { path: 'b.ts' }, content: fileA2 },
    ]);
    expect(supersedeToolResults(messages).records.map((record) => record.toolCallId)).toEqual(['c3', 'c4']);
    expect(supersedeToolResults(messages, { before: 7 }).records.map((record) => record.toolCallId)).toEqual([
      'c3',
    ]);
    expect(
      supersedeToolResults(messages, { minChars: 0 }).records.map((record) => record.toolCallId),
    ).toEqual(['c1', 'c3', 'c4']);
    expect(supersedeToolResults(messages, { supersede: false }).records).toEqual([
      expect.objectContaining({ kind: 'duplicate', toolCallId: 'c5' }),
    ]);
    expect(supersedeToolResults(messages, { supersede: false, dedupe: false }).records).toEqual([]);
  });

  it('survives inputs that cannot be serialised and key functions that throw', () => {
    const cyclic: Record<string, unknown> = { path: 'a.ts' };
    cyclic.self = cyclic;
    const messages = conversation([
      { id: 'c1', input: cyclic, content: `${fileA1}1` },
      { id: 'c2', input: cyclic, content: `${fileA1}2` },
      { id: 'c3', input: { n: 10n }, content: `${fileA1}3` },
      { id: 'c4', input: { n: 10n }, content: `${fileA1}4` },
    ]);
    expect(supersedeToolResults(messages).records.map((record) => record.toolCallId)).toEqual(['c3']);
    const throwing = supersedeToolResults(messages, {
      targetKey: () => {
        throw new Error('boom');
      },
    });
    expect(throwing.records).toEqual([]);
  });

  it('rejects invalid options', () => {
    expect(() => supersedeToolResults([], { minChars: Number.NaN })).toThrow(InvalidConfigError);
    expect(() => supersedeToolResults([], { targetKey: 'path' as never })).toThrow(InvalidConfigError);
  });

  it('keeps the invariants on generated conversations', () => {
    let touched = 0;
    fc.assert(
      fc.property(conversationArbitrary, fc.integer({ min: 0, max: 300 }), (generated, minChars) => {
        const input = deepFreeze(generated);
        const { messages: output, records } = supersedeToolResults(input, { minChars });
        expectMessageInvariants(input, output, records);
        if (records.length > 0) touched++;
      }),
      { numRuns: 300 },
    );
    expect(touched).toBeGreaterThan(20);
  });
});

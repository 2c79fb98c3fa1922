import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepFreeze, expectMessageInvariants } from '../../test/truncate-helpers';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message, ToolResultPart } from '../message/message';
import { clusterToolResults } from './cluster-tool-results';

function session(results: { id: string; tool?: string; text: string }[]): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'check the build' }];
  for (const { id, tool = 'grep', text } of results) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: tool, input: { q: id } }],
    });
    messages.push({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: id, toolName: tool, content: text }],
    });
  }
  return deepFreeze(messages);
}

const contentOf = (messages: readonly Message[], id: string) => {
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content)
      if (part.type === 'tool-result' && part.toolCallId === id) return part.content as string;
  }
  throw new Error(id);
};

/** Applies a near-duplicate note's hunks to the representative's text: the clustered result must come back. */
function applyNote(representative: string, note: string): string {
  const lines = representative.split('\n');
  const [, ...rest] = note.split('\n');
  const output: string[] = [];
  let next = 0; // index into lines
  for (let index = 0; index < rest.length; ) {
    const header = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(rest[index]!);
    if (!header) throw new Error(`bad hunk ${rest[index]}`);
    const [oldStart, oldCount] = [Number(header[1]), Number(header[2])];
    const from = oldCount === 0 ? oldStart : oldStart - 1;
    output.push(...lines.slice(next, from));
    next = from + oldCount;
    index++;
    while (index < rest.length && !rest[index]!.startsWith('@@ ')) {
      const line = rest[index]!;
      if (line.startsWith('+')) output.push(line.slice(1));
      index++;
    }
  }
  output.push(...lines.slice(next));
  return output.join('\n');
}

const testLines = (count: number, tag = '') =>
  Array.from(
    { length: count },
    (_, index) => `src/module${index}.ts:${index * 7}: expect(value${index}).toBe(${index})${tag}`,
  );

describe('clusterToolResults', () => {
  it('keeps the earliest whole and turns a near-duplicate into its line diff, losslessly', () => {
    const first = testLines(30).join('\n');
    const secondLines = testLines(30);
    secondLines[4] = 'src/module4.ts:28: FAILED expected 4 received 5';
    secondLines.splice(20, 0, 'src/extra.ts:1: a new match');
    const second = secondLines.join('\n');
    const messages = session([
      { id: 'g1', text: first },
      { id: 'g2', text: second },
    ]);
    const { messages: output, records } = clusterToolResults(messages);
    expect(output[2]).toBe(messages[2]);
    const note = contentOf(output, 'g2');
    expect(note.split('\n')[0]).toBe(
      '[near-duplicate #1 of the grep result of call g1: 29 of its 31 lines are the same; this is that result with the line diff below applied]',
    );
    expect(note).toContain('+src/module4.ts:28: FAILED expected 4 received 5');
    expect(note).toContain('+src/extra.ts:1: a new match');
    expect(applyNote(first, note)).toBe(second);
    expect(records).toEqual([
      expect.objectContaining({
        kind: 'near-duplicate',
        toolCallId: 'g2',
        charsBefore: second.length,
        charsAfter: note.length,
      }),
    ]);
    expectMessageInvariants(messages, output, records);
  });

  it('numbers the members of a cluster and leaves dissimilar results, other tools and small results alone', () => {
    const base = testLines(20);
    const variant = (line: number) =>
      base.map((text, index) => (index === line ? `${text} // changed` : text)).join('\n');
    const messages = session([
      { id: 'g1', text: base.join('\n') },
      { id: 'g2', text: variant(3) },
      { id: 'o1', tool: 'run_tests', text: variant(5) },
      { id: 'g3', text: testLines(20, ' other').join('\n') },
      { id: 'g4', text: variant(9) },
      { id: 'g5', text: 'a\nb\nc' },
      { id: 'g6', text: 'a\nb\nd' },
    ]);
    const { messages: output, records } = clusterToolResults(messages);
    expect(records.map((record) => record.toolCallId)).toEqual(['g2', 'g4']);
    expect(contentOf(output, 'g4')).toMatch(/^\[near-duplicate #2 of the grep result of call g1: /);
    expect(clusterToolResults(messages, { before: 9 }).records.map((record) => record.toolCallId)).toEqual([
      'g2',
    ]);
    expect(clusterToolResults(messages, { similarity: 1 }).records).toEqual([]);
  });

  it('never clusters results with images or opaque parts, and keeps a part list a part list', () => {
    const text = testLines(20).join('\n');
    const messages: Message[] = deepFreeze([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 'grep', input: {} },
          { type: 'tool-call', toolCallId: 'b', toolName: 'grep', input: {} },
          { type: 'tool-call', toolCallId: 'c', toolName: 'grep', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'grep', content: [{ type: 'text', text }] },
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: 'grep',
            content: [
              { type: 'text', text: `${text}\nmore` },
              { type: 'image', url: 'https://x/y.png' },
            ],
          },
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'grep',
            content: [{ type: 'text', text: `${text}\nmore` }],
          },
        ],
      },
    ]);
    const { messages: output, records } = clusterToolResults(messages);
    expect(records.map((record) => record.toolCallId)).toEqual(['c']);
    const results = output[2]!.content as ToolResultPart[];
    expect(results[1]).toBe((messages[2]!.content as ToolResultPart[])[1]);
    expect(results[2]!.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^\[near-duplicate #1 .*\n@@ -20,0 \+21,1 @@\n\+more$/) },
    ]);
  });

  it('rejects bad options', () => {
    expect(() => clusterToolResults([], { similarity: 0 })).toThrow(InvalidConfigError);
    expect(() => clusterToolResults([], { maxNoteShare: 1 })).toThrow(InvalidConfigError);
    expect(() => clusterToolResults([], { minChars: -1 })).toThrow(InvalidConfigError);
  });

  it('always lets a clustered result be rebuilt from its representative (generated edits)', () => {
    let clustered = 0;
    const edit = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('change', 'insert', 'delete'),
      text: fc.string({ maxLength: 30 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 60 }),
        fc.array(fc.array(edit, { maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        (size, variants) => {
          const base = testLines(size);
          const results = [{ id: 'r0', text: base.join('\n') }];
          variants.forEach((edits, variantIndex) => {
            const lines = [...base];
            for (const { at, kind, text } of edits) {
              const index = at % (lines.length + 1);
              if (kind === 'insert') lines.splice(index, 0, text);
              else if (lines.length > 0 && kind === 'delete') lines.splice(index % lines.length, 1);
              else if (lines.length > 0) lines[index % lines.length] = text;
            }
            results.push({ id: `r${variantIndex + 1}`, text: lines.join('\n') });
          });
          const messages = session(results);
          const { messages: output, records } = clusterToolResults(messages, { minChars: 0 });
          expectMessageInvariants(messages, output, records);
          const texts = new Map(results.map(({ id, text }) => [id, text]));
          clustered += records.length;
          for (const record of records) {
            const note = contentOf(output, record.toolCallId!);
            const representative = /of call (r\d+)/.exec(note)![1]!;
            expect(contentOf(output, representative)).toBe(texts.get(representative));
            expect(applyNote(texts.get(representative)!, note)).toBe(texts.get(record.toolCallId!));
            expect(note.length).toBeLessThanOrEqual(texts.get(record.toolCallId!)!.length / 2);
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(clustered).toBeGreaterThan(100);
  });
});

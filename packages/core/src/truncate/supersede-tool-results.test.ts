import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationArbitrary, deepFreeze, expectMessageInvariants } from '../../test/truncate-helpers';
import { InvalidConfigError } from '../errors/invalid-config-error';
import type { Message, ToolResultContentPart, ToolResultPart } from '../message/message';
import { createToolMapping } from '../structure/create-tool-mapping';
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
    const { messages: output, records } = supersedeToolResults(messages, { toolMapping: false });
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

  it("lists the identifiers only the earlier result mentioned in its note (a rerun's request id)", () => {
    const log = (lines: string[]) => `${lines.join('\n')}\n${'INFO healthy\n'.repeat(60)}`;
    const messages = conversation([
      {
        id: 'c1',
        tool: 'run_command',
        input: { command: 'tail -n 200 app.log' },
        content: log(['ERROR payment failed request_id=req_8f2k19x7 status=500', 'see /srv/app/config.yaml']),
      },
      {
        id: 'c2',
        tool: 'run_command',
        input: { command: 'tail -n 200 app.log' },
        content: log(['WARN retry ok', 'see /srv/app/config.yaml']),
      },
    ]);
    const { messages: output } = supersedeToolResults(messages, { toolMapping: false });
    expect(resultAt(output, 2).content).toBe(
      '[superseded: run_command was called again with the same arguments later; see the newer result; this earlier one also mentioned req_8f2k19x7, 500]',
    );
    expect(output[4]).toBe(messages[4]);
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
      toolMapping: false,
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
    const { messages: output } = supersedeToolResults(messages, { toolMapping: false });
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
    expect(
      supersedeToolResults(messages, { toolMapping: false }).records.map((record) => record.toolCallId),
    ).toEqual(['c3']);
    // The mapping reads the path of a cyclic input all the same.
    expect(supersedeToolResults(messages).records.map((record) => record.toolCallId)).toEqual(['c1', 'c3']);
    const throwing = supersedeToolResults(messages, {
      toolMapping: () => {
        throw new Error('boom');
      },
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

  describe('by what calls do to files (the default tool mapping)', () => {
    const big = (label: string) => `${label}\n${'line of content\n'.repeat(40)}`;
    const contentOf = (output: readonly Message[], id: string) => {
      for (const message of output) {
        if (typeof message.content === 'string') continue;
        for (const part of message.content) {
          if (part.type === 'tool-result' && part.toolCallId === id) return part.content;
        }
      }
      throw new Error(`no result ${id}`);
    };

    it('makes a read stale by a later edit of the same path, and names the edit', () => {
      const messages = conversation([
        { id: 'r1', tool: 'read_file', input: { path: './src/a.ts' }, content: big('a v1') },
        {
          id: 'e1',
          tool: 'edit_file',
          input: { path: 'src/a.ts', old_string: 'v1', new_string: 'v2' },
          content: 'ok',
        },
        { id: 'r2', tool: 'read_file', input: { path: 'src/b.ts' }, content: big('b') },
      ]);
      const { messages: output, records } = supersedeToolResults(messages);
      expect(contentOf(output, 'r1')).toBe(
        '[superseded: read_file of src/a.ts is stale — edit_file changed it later (call e1); read it again if you need its current content]',
      );
      expect(records.map((record) => record.toolCallId)).toEqual(['r1']);
      expect(output[3]).toBe(messages[3]); // the edit's call (its input) is never rewritten
      expect(output[6]).toBe(messages[6]);
    });

    it("replaces an earlier write's result, never the write's input", () => {
      const messages = conversation([
        {
          id: 'w1',
          tool: 'Write',
          input: { file_path: 'a.ts', content: big('first') },
          content: big('wrote a.ts'),
        },
        {
          id: 'w2',
          tool: 'Write',
          input: { file_path: 'a.ts', content: big('second') },
          content: big('wrote a.ts'),
        },
      ]);
      const { messages: output } = supersedeToolResults(messages);
      expect(contentOf(output, 'w1')).toBe(
        '[superseded: Write of a.ts — Write wrote it again later (call w2)]',
      );
      expect(output[1]).toBe(messages[1]);
      expect(output[3]).toBe(messages[3]);
      expect(output[4]).toBe(messages[4]);
    });

    it('makes a listing stale when a file is created or deleted in it, not when one is edited', () => {
      const listing = big('a.ts\nb.ts');
      const edited = conversation([
        { id: 'l1', tool: 'list_directory', input: { path: 'src' }, content: listing },
        { id: 'e1', tool: 'str_replace', input: { path: 'src/a.ts' }, content: 'ok' },
      ]);
      expect(supersedeToolResults(edited).records).toEqual([]);
      const created = conversation([
        { id: 'l1', tool: 'list_directory', input: { path: 'src' }, content: listing },
        { id: 'l2', tool: 'directory_tree', input: { path: '.' }, content: listing.replace('a', 'x') },
        { id: 'w1', tool: 'write_file', input: { path: 'src/lib/c.ts' }, content: 'ok' },
      ]);
      const { messages: output, records } = supersedeToolResults(created);
      // src/lib/c.ts is not a direct child of src: only the recursive tree is stale.
      expect(records.map((record) => record.toolCallId)).toEqual(['l2']);
      expect(contentOf(output, 'l2')).toBe(
        '[superseded: directory_tree of . is stale — write_file wrote src/lib/c.ts later (call w1); list it again if you need it]',
      );
      const removed = conversation([
        { id: 'l1', tool: 'Bash', input: { command: 'ls src' }, content: listing },
        { id: 'd1', tool: 'Bash', input: { command: 'rm src/b.ts' }, content: '' },
      ]);
      expect(supersedeToolResults(removed).records.map((record) => record.toolCallId)).toEqual(['l1']);
    });

    it('keeps partial reads of other ranges, and supersedes any read by a later full read', () => {
      const messages = conversation([
        { id: 'p1', tool: 'Read', input: { file_path: 'a.ts', offset: 1, limit: 40 }, content: big('head') },
        {
          id: 'p2',
          tool: 'Read',
          input: { file_path: 'a.ts', offset: 41, limit: 40 },
          content: big('middle'),
        },
      ]);
      expect(supersedeToolResults(messages).records).toEqual([]);
      const full = conversation([
        { id: 'p1', tool: 'Read', input: { file_path: 'a.ts', offset: 1, limit: 40 }, content: big('head') },
        { id: 'r1', tool: 'Bash', input: { command: 'cat a.ts' }, content: big('all') },
      ]);
      const { messages: output } = supersedeToolResults(full);
      expect(contentOf(output, 'p1')).toBe(
        '[superseded: Read of a.ts — it was read again later (call r1); see the newer result]',
      );
    });

    it('never lets calls of one assistant message supersede each other, nor a failed write', () => {
      const parallel: Message[] = deepFreeze([
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'r1', toolName: 'read_file', input: { path: 'a.ts' } },
            { type: 'tool-call', toolCallId: 'e1', toolName: 'edit_file', input: { path: 'a.ts' } },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'r1', toolName: 'read_file', content: big('a') },
            { type: 'tool-result', toolCallId: 'e1', toolName: 'edit_file', content: 'ok' },
          ],
        },
      ]);
      expect(supersedeToolResults(parallel).records).toEqual([]);
      const failed = conversation([
        { id: 'r1', tool: 'read_file', input: { path: 'a.ts' }, content: big('a') },
        { id: 'e1', tool: 'edit_file', input: { path: 'a.ts' }, content: 'no match', isError: true },
      ]);
      expect(supersedeToolResults(failed).records).toEqual([]);
    });

    it('supersedes a multi-file read only when every file went stale; shell commands it cannot read never', () => {
      const messages = conversation([
        {
          id: 'm1',
          tool: 'read_multiple_files',
          input: { paths: ['a.ts', 'b.ts'] },
          content: big('a and b'),
        },
        { id: 's1', tool: 'Bash', input: { command: 'cat a.ts && npm test' }, content: big('a and tests') },
        { id: 'e1', tool: 'Bash', input: { command: "sed -i 's/x/y/' a.ts" }, content: '' },
      ]);
      expect(supersedeToolResults(messages).records).toEqual([]);
      const both = conversation([
        {
          id: 'm1',
          tool: 'read_multiple_files',
          input: { paths: ['a.ts', 'b.ts'] },
          content: big('a and b'),
        },
        {
          id: 'e1',
          tool: 'apply_patch',
          input: { input: '*** Update File: a.ts\n*** Delete File: b.ts' },
          content: 'ok',
        },
      ]);
      expect(contentOf(supersedeToolResults(both).messages, 'm1')).toBe(
        '[superseded: read_multiple_files of a.ts, b.ts is stale — apply_patch changed it later (call e1); read it again if you need its current content]',
      );
    });

    it('makes reads below a deleted directory stale', () => {
      const messages = conversation([
        { id: 'r1', tool: 'read_file', input: { path: 'build/out.js' }, content: big('out') },
        { id: 'd1', tool: 'Bash', input: { command: 'rm -rf build' }, content: '' },
      ]);
      expect(contentOf(supersedeToolResults(messages).messages, 'r1')).toBe(
        '[superseded: read_file of build/out.js is stale — Bash deleted build later (call d1); read it again if you need its current content]',
      );
    });

    it('is taught your own tools with createToolMapping, and respects before', () => {
      const messages = conversation([
        { id: 'o1', tool: 'open_doc', input: { path: 'notes.md' }, content: big('notes') },
        { id: 's1', tool: 'save_doc', input: { path: 'notes.md' }, content: 'saved' },
      ]);
      expect(supersedeToolResults(messages).records).toEqual([]);
      const toolMapping = createToolMapping({ tools: { read: ['open_doc'], write: ['save_doc'] } });
      expect(
        supersedeToolResults(messages, { toolMapping }).records.map((record) => record.toolCallId),
      ).toEqual(['o1']);
      // A later call past `before` (e.g. in the current turn) still supersedes what lies before it.
      expect(supersedeToolResults(messages, { toolMapping, before: 3 }).records).toHaveLength(1);
      expect(supersedeToolResults(messages, { toolMapping, before: 2 }).records).toEqual([]);
    });

    it('rejects a tool mapping that is not a function', () => {
      expect(() => supersedeToolResults([], { toolMapping: 'default' as never })).toThrow(InvalidConfigError);
    });
  });
});

/**
 * Issue 23 item 3: a reference copied as a marker shows it is read, in every form the core prints
 * one. The forms are made by the core's own printers (not written out by hand), then wrapped the
 * ways a model copies them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../message/message';
import { imagePlaceholder } from '../truncate/image-placeholder';
import { truncateToolResult } from '../truncate/truncate-tool-result';
import { createRecallRef } from './create-recall-ref';
import { extractRecallRef } from './extract-recall-ref';
import { parseRecallInput } from './parse-recall-input';
import { readRecallPage } from './read-recall-page';
import { recallFromMessages } from './recall-from-messages';
import { refAnnotation } from './recall-ref';
import { createRecallScope } from './recall-scope';
import { searchRecall } from './search-recall';

const code = fc.stringMatching(/^[A-Za-z0-9]{12}$/);
/** Every kind of reference the core writes, and the MCP proxy's random one. */
const anyRef = fc.oneof(
  code.map((value) => `t.${value}`),
  code.map((value) => `i.${value}`),
  fc
    .tuple(fc.nat({ max: 5000 }), fc.integer({ min: 1, max: 5000 }), code)
    .map(([from, span, value]) => `s.${from}-${from + span}.${value}`),
  fc.constant(null).map(() => createRecallRef()),
);

/** A printed form of `ref`, and the offset the form carries (when it carries one). */
type Printed = { text: string; offset: number | undefined };

/** The forms the core prints a reference in, each made by the printer that writes it. */
function printedForms(ref: string, offset: number): Printed[] {
  const text = 'x'.repeat(offset + 50);
  const page = readRecallPage({ ref, text, offset: 0, length: offset });
  const search = searchRecall({
    sources: [{ ref, text: `${'a'.repeat(offset)}needle\n`.repeat(3) }],
    pattern: 'needle',
    maxMatches: 1,
  });
  const searchLine = search.text.split('\n')[1]!;
  const searchFooter = search.text.split('\n').at(-1)!;
  const marker = truncateToolResult('y'.repeat(offset + 40_000), { maxChars: offset + 30_000, ref });
  return [
    { text: ref, offset: undefined },
    { text: refAnnotation(ref), offset: undefined },
    { text: refAnnotation(ref, offset), offset },
    { text: `ref=${ref}`, offset: undefined },
    { text: `ref=${ref} offset=${offset}`, offset },
    { text: page.header, offset: undefined },
    { text: page.footer, offset },
    { text: `${JSON.stringify({ ref, offset })}`, offset },
    { text: searchLine, offset: Number(/"offset":(\d+)/.exec(searchLine)![1]) },
    { text: searchFooter, offset: Number(/"offset":(\d+)\}/.exec(searchFooter)![1]) },
    {
      text: `${imagePlaceholder({ type: 'image', data: '', mediaType: 'image/png' })} ${refAnnotation(ref)}`,
      offset: undefined,
    },
    // A whole marker line pasted: the seed's truncation marker and the reference after it.
    { text: marker.slice(marker.lastIndexOf('[...')), offset: Number(/offset=(\d+)/.exec(marker)![1]) },
  ];
}

const wrappers: ((text: string) => string)[] = [
  (text) => text,
  (text) => `"${text}"`,
  (text) => `'${text}'`,
  (text) => `\`${text}\``,
  (text) => `  ${text}\n`,
  (text) => `[${text}]`,
  (text) => `"[${text}]"`,
  (text) => `{${text}}`,
  (text) => `${text}.`,
];

describe('references read leniently', () => {
  it('every form the core prints, wrapped in quotes, brackets or whitespace, reads as its reference and offset (property)', () => {
    fc.assert(
      fc.property(
        anyRef,
        fc.integer({ min: 1, max: 90_000 }),
        fc.constantFrom(...wrappers),
        (ref, offset, wrap) => {
          for (const form of printedForms(ref, offset)) {
            const given = wrap(form.text);
            expect(extractRecallRef(given), given).toEqual({ ref, offset: form.offset });
            const parsed = parseRecallInput({ ref: given });
            expect(parsed, given).toEqual({
              ok: true,
              request: { mode: 'read', ref, offset: form.offset ?? 0, length: undefined },
            });
            // An offset the model gives wins over the one written beside the reference.
            const explicit = parseRecallInput({ ref: given, offset: 7 });
            expect(explicit.ok && explicit.request.offset).toBe(7);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('[ref=t.…] and "ref=t.…" exactly as a cut shows them read the original (they were refused)', async () => {
    const original = `${'0123456789'.repeat(5_000)}THE END`;
    const messages: Message[] = [
      { role: 'user', content: 'Read the log.' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_log', input: {} }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_log', content: original }],
      },
    ];
    const ref = createRecallScope({ messages }).toolResultRef('c1', 0, original);
    for (const given of [
      `[ref=${ref}]`,
      `"ref=${ref}"`,
      `ref=${ref} offset=49990`,
      `[ref=${ref} offset=49990]`,
    ]) {
      const answer = await recallFromMessages({ input: { ref: given }, messages });
      expect(answer.isError, `${given}: ${answer.text}`).toBe(false);
      expect(answer.text.split('\n')[0]).toMatch(
        new RegExp(`^\\[${ref.replace('.', '\\.')}: characters \\d+–`),
      );
    }
    const fromOffset = await recallFromMessages({ input: { ref: `[ref=${ref} offset=49990]` }, messages });
    expect(fromOffset.text).toContain('THE END');
    expect(fromOffset.text.split('\n')[0]).toBe(`[${ref}: characters 49990–50007 of 50007]`);
  });

  it('refuses what holds no reference, in one line', () => {
    for (const given of ['""', '[]', ' ', '[ref=]']) {
      const parsed = parseRecallInput({ ref: given });
      expect(parsed.ok, given).toBe(false);
      if (!parsed.ok) expect(parsed.message).not.toContain('\n');
    }
  });
});

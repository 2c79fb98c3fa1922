import { estimateTokens } from '@spillway/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolBudget } from '../options/truncation-options';
import { answerRecall } from '../recall/answer-recall';
import { RecallStore } from '../recall/recall-store';
import { AjvJsonSchemaValidator, type CallToolResult } from '../sdk/mcp-sdk';
import { truncateCallToolResult } from './truncate-call-tool-result';

const budget: ToolBudget = {
  maxResultTokens: 1000,
  maxMediaBytes: 1000,
  headRatio: 0.5,
  mediaPolicy: 'placeholder',
};

/** A base64 PNG of the given size whose header says 640x480. */
function png(bytes: number): string {
  const data = Buffer.alloc(bytes);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(
    data,
    0,
  );
  data.writeUInt32BE(640, 16);
  data.writeUInt32BE(480, 20);
  return data.toString('base64');
}

const longText = (lines: number, label = 'row') =>
  Array.from({ length: lines }, (_, index) => `${label} ${index} some words here`).join('\n');

describe('truncateCallToolResult', () => {
  it('returns the same object when everything fits', () => {
    const result: CallToolResult = { content: [{ type: 'text', text: 'fine' }], structuredContent: { a: 1 } };
    expect(truncateCallToolResult(result, { budget }).result).toBe(result);
  });

  it('shares the token budget between text blocks, the larger giving up more', () => {
    const small = longText(20, 'small');
    const result: CallToolResult = {
      content: [
        { type: 'text', text: small },
        { type: 'text', text: longText(3000, 'large') },
        {
          type: 'resource',
          resource: { uri: 'file:///x.txt', mimeType: 'text/plain', text: longText(1500, 'medium') },
        },
      ],
    };
    const { result: output } = truncateCallToolResult(result, { budget });
    const [first, second, third] = output.content as Array<{
      type: string;
      text?: string;
      resource?: { text: string; uri: string };
    }>;
    expect(first?.text).toBe(small);
    const secondText = second?.text ?? '';
    const thirdText = third?.resource?.text ?? '';
    expect(third?.resource?.uri).toBe('file:///x.txt');
    expect(
      estimateTokens(small) + estimateTokens(secondText) + estimateTokens(thirdText),
    ).toBeLessThanOrEqual(1000);
    expect(secondText).toMatch(/\[spillway-mcp: cut \d+ of \d+ characters/);
    expect(thirdText).toMatch(/\[spillway-mcp: cut \d+ of \d+ characters/);
    expect(result.content[1]).toEqual({ type: 'text', text: longText(3000, 'large') }); // input untouched
  });

  it('replaces media beyond the byte budget with placeholders and keeps the ones within it', () => {
    const result: CallToolResult = {
      content: [
        { type: 'image', data: png(600), mimeType: 'image/png' },
        { type: 'image', data: png(600), mimeType: 'image/png' },
        { type: 'audio', data: Buffer.alloc(5000).toString('base64'), mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: {
            uri: 'file:///a.bin',
            mimeType: 'application/octet-stream',
            blob: Buffer.alloc(4000).toString('base64'),
          },
        },
      ],
    };
    const { result: output } = truncateCallToolResult(result, { budget });
    const blocks = output.content as Array<{ type: string; text?: string; data?: string }>;
    expect(blocks[0]).toBe(result.content[0]);
    expect(blocks[1]?.text).toMatch(/^\[image: image\/png, 640x480, 600 B\] \(not shown/);
    expect(blocks[2]?.text).toMatch(/^\[audio: audio\/wav, 5 KB\] \(not shown/);
    expect(blocks[3]?.text).toMatch(/^\[resource: file:\/\/\/a\.bin, application\/octet-stream, 4 KB\]/);
  });

  it('keeps all media with the keep policy', () => {
    const result: CallToolResult = { content: [{ type: 'image', data: png(5000), mimeType: 'image/png' }] };
    expect(truncateCallToolResult(result, { budget: { ...budget, mediaPolicy: 'keep' } }).result).toBe(
      result,
    );
  });

  it('pages give back exactly the original text, surrogate pairs included', () => {
    const store = new RecallStore();
    const recall = { store, owner: 'session' };
    const original = Array.from({ length: 4000 }, (_, index) => `𝒳 line ${index} 😀`).join('\n');
    const { result } = truncateCallToolResult(
      { content: [{ type: 'text', text: original }] },
      { budget, recall },
    );
    const text = (result.content[0] as { text: string }).text;
    const [, id, offset] = /\{"ref":"([A-Za-z0-9_-]{22})","offset":(\d+)\}/.exec(text) as unknown as [
      string,
      string,
      string,
    ];
    expect(original.startsWith(text.slice(0, Number(offset)))).toBe(true);
    let joined = '';
    let next = 0;
    for (let page = 0; page < 1000; page++) {
      const read = answerRecall({ ...recall, input: { ref: id, offset: next }, maxTokens: 1000 });
      const [header, body, where] = read.content as Array<{ text: string }>;
      // The page and the lines that say where it sits, together, fit the budget.
      expect(
        estimateTokens(header?.text ?? '') +
          estimateTokens(body?.text ?? '') +
          estimateTokens(where?.text ?? ''),
      ).toBeLessThanOrEqual(1000);
      joined += body?.text ?? '';
      const match = /"offset":(\d+)\}\]$/.exec(where?.text ?? '');
      if (match === null) break;
      next = Number(match[1]);
    }
    expect(joined).toBe(original);
  });

  it('shortens structuredContent to the budget and keeps it valid against the schema', () => {
    const schema = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
      required: ['items'],
    };
    const validator = new AjvJsonSchemaValidator().getValidator(schema as never);
    const structuredContent = {
      items: Array.from({ length: 2000 }, (_, index) => ({ name: `item ${index} ${'x'.repeat(50)}` })),
    };
    const { result, structuredContentDropped } = truncateCallToolResult(
      { content: [], structuredContent },
      { budget, validateStructuredContent: (value) => validator(value).valid },
    );
    expect(structuredContentDropped).toBe(false);
    expect(validator(result.structuredContent).valid).toBe(true);
    expect(estimateTokens(JSON.stringify(result.structuredContent))).toBeLessThanOrEqual(1000);
    expect((result.structuredContent as { spillway_note?: string }).spillway_note).toMatch(
      /\$\.items: kept \d+ of 2000 items/,
    );
  });

  it('drops structuredContent that cannot stay valid, and gives its JSON as pageable text', () => {
    const schema = {
      type: 'object',
      properties: { items: { type: 'array', minItems: 2000 } },
      additionalProperties: false,
    };
    const validator = new AjvJsonSchemaValidator().getValidator(schema as never);
    const structuredContent = { items: Array.from({ length: 2000 }, (_, index) => `value ${index}`) };
    const store = new RecallStore();
    const recall = { store, owner: 'session' };
    const { result, structuredContentDropped } = truncateCallToolResult(
      { content: [], structuredContent },
      { budget, recall, validateStructuredContent: (value) => validator(value).valid },
    );
    expect(structuredContentDropped).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content[0] as { text: string }).text).toMatch(/^\{"items":\["value 0"/);
    expect((result.content[0] as { text: string }).text).toMatch(/spillway_recall/);
  });

  it('keeps the paging text of a block when the same result also puts its structured copy in the store', () => {
    // server-filesystem answers read_text_file with the text twice (content and structuredContent);
    // for a 50 MB file the two copies together exceed the store, and the second must not evict the
    // first, whose id the text marker gives.
    const original = longText(2000);
    const store = new RecallStore({ maxBytes: 2 * (original.length + 10_000) });
    const recall = { store, owner: 'session' };
    const { result } = truncateCallToolResult(
      { content: [{ type: 'text', text: original }], structuredContent: { content: original } },
      { budget, recall },
    );
    const text = (result.content[0] as { text: string }).text;
    const [, id] = /\{"ref":"([A-Za-z0-9_-]{22})","offset":\d+\}/.exec(text) as unknown as [string, string];
    expect(store.get('session', id)?.text).toBe(original);
    expect(store.get('another session', id)).toBeUndefined();
    expect(JSON.stringify(result.structuredContent)).not.toContain(id);
  });

  it('pages a cut text at the budget of the tool it came from', () => {
    const store = new RecallStore();
    const recall = { store, owner: 'session' };
    const original = longText(4000);
    const { result } = truncateCallToolResult(
      { content: [{ type: 'text', text: original }] },
      { budget: { ...budget, maxResultTokens: 300 }, recall },
    );
    const [, id] = /\{"ref":"([A-Za-z0-9_-]{22})","offset":\d+\}/.exec(
      (result.content[0] as { text: string }).text,
    ) as unknown as [string, string];
    // The proxy-wide budget is off (only this tool has one): a page must still fit the tool's.
    const page = answerRecall({
      ...recall,
      input: { ref: id, offset: 0 },
      maxTokens: Number.POSITIVE_INFINITY,
    });
    const blocks = page.content as Array<{ text: string }>;
    expect(blocks[1]?.text.length).toBeGreaterThan(0);
    expect(estimateTokens(blocks.map((block) => block.text).join(''))).toBeLessThanOrEqual(300);
  });

  it('keeps the whole content within the budget, media placeholders and the structured-content note included', () => {
    const contentTokens = (result: CallToolResult) =>
      (result.content as Array<{ text?: string }>).reduce(
        (sum, block) => sum + estimateTokens(block.text ?? ''),
        0,
      );
    const store = new RecallStore();
    const recall = { store, owner: 'session' };
    const withStructured = truncateCallToolResult(
      {
        content: [{ type: 'text', text: longText(3000) }],
        structuredContent: { rows: longText(3000).split('\n') },
      },
      { budget, recall },
    ).result;
    expect(withStructured.content).toHaveLength(2);
    expect(contentTokens(withStructured)).toBeLessThanOrEqual(1000);
    const withImages = truncateCallToolResult(
      {
        content: [
          { type: 'text', text: longText(3000) },
          ...Array.from({ length: 10 }, () => ({
            type: 'image' as const,
            data: png(2000),
            mimeType: 'image/png',
          })),
        ],
      },
      { budget, recall },
    ).result;
    expect((withImages.content[1] as { text?: string }).text).toMatch(/^\[image: image\/png, 640x480/);
    expect(contentTokens(withImages)).toBeLessThanOrEqual(1000);
  });

  it('keeps any number of text blocks within the budget, folding the ones it cannot cut each (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 250 }),
        fc.integer({ min: 300, max: 3000 }),
        (lineCounts, maxResultTokens) => {
          const store = new RecallStore();
          const recall = { store, owner: 'session' };
          const texts = lineCounts.map((lines, index) => longText(lines, `block${index}`));
          const { result } = truncateCallToolResult(
            { content: texts.map((text) => ({ type: 'text' as const, text })) },
            { budget: { ...budget, maxResultTokens }, recall },
          );
          const blocks = result.content as Array<{ text: string }>;
          expect(blocks.reduce((sum, block) => sum + estimateTokens(block.text), 0)).toBeLessThanOrEqual(
            maxResultTokens,
          );
          const fold = /(\d+) more text blocks .*\{"ref":"([A-Za-z0-9_-]{22})","offset":0\}/.exec(
            blocks.at(-1)?.text ?? '',
          );
          if (fold === null) {
            expect(blocks).toHaveLength(texts.length);
            return;
          }
          // The folded blocks are the last ones, readable in full through the paging tool.
          const count = Number(fold[1]);
          expect(blocks).toHaveLength(texts.length - count + 1);
          expect(store.get('session', fold[2] as string)?.text).toBe(texts.slice(-count).join('\n\n'));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('passes small text answers untouched without counting: the estimate stays under 4 tokens per code unit (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(estimateTokens(text)).toBeLessThanOrEqual(4 * text.length);
        const result: CallToolResult = { content: [{ type: 'text', text }] };
        expect(truncateCallToolResult(result, { budget: { ...budget, maxResultTokens: 1200 } }).result).toBe(
          result,
        );
      }),
      { numRuns: 500 },
    );
  });
});
